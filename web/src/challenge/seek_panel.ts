// „Gegner suchen" (seed 002): open a seek for Battlegeneral that a player of your strength
// takes, while you keep looking around the Wartesaal; the open seeks of others, with the
// Elo range each is for, and Annehmen. The server decides who may take which (a refusal
// arrives as an error the Wartesaal shows); when a game starts, the challenge desk's
// challenge:started opens the table.
import type { Socket } from "socket.io-client";
import { el } from "../dom";
import { onLangChange } from "../i18n";
import type { ClientToServerEvents, Seek, ServerToClientEvents } from "../protocol";
import { GAMES } from "./game_options";
import { ct } from "./texts";

type LobbySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The games whose product text offers „Gegner suchen" (shared/challenge.py SEEK_GAMES). */
const SEEK_GAMES = ["general"] as const;

export class SeekPanel {
  readonly root = el("section", { class: "seeks", "data-testid": "seeks" });
  private seeks: Seek[] = [];
  private received = Date.now();
  private readonly ticker: number;

  constructor(
    private readonly socket: LobbySocket,
    private readonly myId: () => number,
  ) {
    socket.on("seek:list", ({ seeks }) => {
      this.seeks = seeks;
      this.received = Date.now();
      this.render();
    });
    onLangChange(() => this.render());
    this.ticker = window.setInterval(() => this.tick(), 1000);
    this.render();
  }

  close(): void {
    window.clearInterval(this.ticker);
  }

  private minutesLeft(seek: Seek): string {
    const left = Math.max(0, seek.expires_in_ms - (Date.now() - this.received));
    const minutes = Math.ceil(left / 60000);
    return `${ct("expiresIn")} ${minutes} min`;
  }

  private tick(): void {
    for (const seek of this.seeks) {
      const node = this.root.querySelector<HTMLElement>(`[data-seek="${seek.id}"] .expires`);
      if (node) node.textContent = this.minutesLeft(seek);
    }
  }

  private title(game: string): string {
    return GAMES[game]?.title ?? game;
  }

  private render(): void {
    const me = this.myId();
    const mine = this.seeks.find((s) => s.seeker.user_id === me);
    const parts: Node[] = [el("h2", {}, ct("seekTitle"))];
    if (mine) {
      const cancel = el("button", { type: "button", "data-testid": "seek-cancel" }, ct("cancel"));
      cancel.addEventListener("click", () => this.socket.emit("seek:cancel", {}));
      parts.push(
        el("p", { class: "searching", role: "status", "data-testid": "seek-mine", "data-seek": mine.id },
          `${ct("seekMine")} ${this.title(mine.game)} (${mine.elo_min}–${mine.elo_max} Elo) … `,
          el("small", { class: "expires" }, this.minutesLeft(mine))),
        cancel,
      );
    } else {
      for (const game of SEEK_GAMES) {
        const start = el("button", { type: "button", class: "primary", "data-testid": `seek-start-${game}` }, `${ct("seekStart")}: ${this.title(game)}`);
        start.addEventListener("click", () => this.socket.emit("seek:create", { game }));
        parts.push(el("p", {}, start, el("small", { class: "hint" }, ` ${ct("seekHint")}`)));
      }
    }
    const others = this.seeks.filter((s) => s.seeker.user_id !== me);
    const list = el("ul", { class: "seek-list", "data-testid": "seek-list" });
    for (const seek of others) {
      const take = el("button", { type: "button", "data-testid": "seek-take" }, ct("seekTake"));
      take.addEventListener("click", () => {
        take.disabled = true;
        this.socket.emit("seek:take", { seek_id: seek.id });
        window.setTimeout(() => (take.disabled = false), 3000); // refused: may try again
      });
      list.append(el("li", { "data-seek": seek.id },
        `${seek.seeker.name} (${seek.elo} Elo) ${ct("seekOther")}: ${this.title(seek.game)}, ${ct("seekFor")} ${seek.elo_min}–${seek.elo_max} Elo `,
        el("small", { class: "expires" }, this.minutesLeft(seek)), " ", take));
    }
    if (others.length === 0) list.append(el("li", { class: "empty" }, ct("seekNone")));
    parts.push(list);
    this.root.replaceChildren(...parts);
  }
}
