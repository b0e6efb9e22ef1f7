// Schnelle Partie: pick a game (and, if you like, the Bedenkzeiten you accept), press the
// button, and the lobby pairs you with the best-fitting free opponent in its next wave.
// The server decides everything; this panel only asks and shows the state it is told.
// When a game starts, the challenge desk's challenge:started opens the table.
import type { Socket } from "socket.io-client";
import { CHALLENGE_GAMES, CLOCKS, GAMES } from "../challenge/game_options";
import { el } from "../dom";
import { onLangChange } from "../i18n";
import type { ClientToServerEvents, QuickJoinPayload, QuickStatusPayload, ServerToClientEvents } from "../protocol";
import { qt } from "./texts";
import "./quickmatch.css";

type LobbySocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Clock = (typeof CLOCKS)[number];

export class QuickMatchPanel {
  readonly root = el("section", { class: "quick-match", "data-testid": "quick-match" });
  private game: string = CHALLENGE_GAMES[0];
  private readonly chosen = new Set<Clock>();
  private status: QuickStatusPayload = { state: "idle", game: null, clocks: [], waiting: 0, game_id: null };

  constructor(private readonly socket: LobbySocket) {
    socket.on("quick:status", (status) => {
      this.status = status;
      this.render();
    });
    onLangChange(() => this.render());
    this.render();
  }

  private render(): void {
    const heading = el("h2", {}, qt("quickMatch"));
    if (this.status.state === "waiting" && this.status.game) {
      const cancel = el("button", { type: "button", "data-testid": "quick-cancel" }, qt("cancel"));
      cancel.addEventListener("click", () => this.socket.emit("quick:cancel", {}));
      this.root.replaceChildren(
        heading,
        el("p", { class: "searching", role: "status", "data-testid": "quick-searching" },
          `${qt("searching")} ${GAMES[this.status.game]?.title ?? this.status.game} … `,
          el("small", {}, `(${this.status.waiting} ${qt(this.status.waiting === 1 ? "waitingOne" : "waitingCount")})`)),
        cancel,
      );
      return;
    }
    const select = el("select", { "data-testid": "quick-game", "aria-label": qt("game") });
    for (const game of CHALLENGE_GAMES) {
      select.append(el("option", { value: game, selected: game === this.game }, GAMES[game].title));
    }
    select.addEventListener("change", () => {
      this.game = select.value;
      this.render();
    });
    const clocks = el("fieldset", {}, el("legend", {}, qt("clocks")));
    for (const clock of CLOCKS) {
      if (clock === "ohne" && !GAMES[this.game].untimedAllowed) continue;
      const box = el("input", { type: "checkbox", value: clock, checked: this.chosen.has(clock), "data-testid": `quick-clock-${clock}` });
      box.addEventListener("change", () => (box.checked ? this.chosen.add(clock) : this.chosen.delete(clock)));
      clocks.append(el("label", {}, box, ` ${clock === "ohne" ? qt("noClock") : clock}`));
    }
    const start = el("button", { type: "button", class: "primary", "data-testid": "quick-start" }, qt("quickMatch"));
    start.addEventListener("click", () => {
      const wanted = CLOCKS.filter((c) => this.chosen.has(c) && (c !== "ohne" || GAMES[this.game].untimedAllowed));
      this.socket.emit("quick:join", { game: this.game as QuickJoinPayload["game"], clocks: [...wanted] });
    });
    this.root.replaceChildren(
      heading,
      el("p", { class: "hint" }, qt("quickHint")),
      el("div", { class: "row" }, select, start),
      clocks,
    );
  }
}
