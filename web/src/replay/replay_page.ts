// #/nachspielen/<id>: a finished game for anyone with the link. The game service sends
// the spectator view after every ply; ◀ ▶, the arrow keys and the move list step through
// them. The text record comes straight from the server (the engine's `record`).
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import type { GameView, TableResult, TableSeat } from "../protocol";
import { BoardStage } from "../table/board_stage";
import { gameApi, gameUrl } from "../game_socket";
import { MoveList } from "../table/move_list";
import { colourName, GAME_TITLES, seatPerson } from "../table/seat_names";
import { resultReason, tt } from "../table/texts";
import { ReviewPanel } from "../solo/review_panel";

interface ReplayPly {
  ply: number;
  move: string | null;
  seat: number | null;
  time_ms: number | null;
  view: GameView;
  /** The whole setup as one step (Battlegeneral), before move 1. */
  setup?: boolean;
}

interface ReplayData {
  game_id: number;
  game: string;
  status: "running" | "finished" | "aborted";
  seats: TableSeat[];
  rated: boolean;
  mode: string;
  result: TableResult | null;
  finished_at: string | null;
  moves?: string[];
  plies?: ReplayPly[] | number;
}

export class ReplayPage {
  readonly root = el("main", { class: "table-page replay-page", "data-testid": "replay-page" });
  private data: ReplayData | null = null;
  private plies: ReplayPly[] = [];
  private ply = 0;
  private stage: BoardStage | null = null;
  private readonly moveList = new MoveList((ply) => this.show(ply));
  private readonly header = el("p", { class: "table-status", "data-testid": "replay-status" });
  // Held, not looked up: a board may have an <aside> of its own (Battlehanse's Karten-Info).
  private readonly side = el("aside", { class: "table-side replay-side card" }, this.header);
  private readonly counter = el("span", { class: "ply-counter", "data-testid": "ply" });
  private readonly actions = el("div", { class: "actions replay-actions" });
  private readonly notice = el("p", { class: "hint", role: "status", "data-testid": "replay-notice" });
  private readonly keyHandler = (event: KeyboardEvent) => this.key(event);
  private closed = false;
  private actionsBuilt = false;
  private review: ReviewPanel | null = null; // Battlehanse: the Rückblick of your own moves

  constructor(private readonly gameId: number) {
    this.header.textContent = tt("loading");
    this.root.append(el("section", { class: "board-area" }, el("div", { class: "board-wrap" })), this.side);
    document.addEventListener("keydown", this.keyHandler);
    onLangChange(() => {
      if (!this.closed && this.data) this.draw();
      this.review?.refresh();
    });
    void this.load();
  }

  close(): void {
    this.closed = true;
    document.removeEventListener("keydown", this.keyHandler);
    this.stage?.destroy();
    this.review?.close();
  }

  private async load(): Promise<void> {
    let data: ReplayData;
    try {
      data = await gameApi<ReplayData>(`/api/games/${this.gameId}`);
    } catch (error) {
      this.header.textContent = error instanceof Error ? error.message : tt("notFound");
      return;
    }
    if (this.closed) return;
    this.data = data;
    if (data.status === "running" || !Array.isArray(data.plies)) {
      // Still running: nothing to replay yet, but it can be watched.
      this.header.replaceChildren(`${GAME_TITLES[data.game] ?? data.game}: ${lang() === "en" ? "still running." : "läuft noch."} `, el("a", { href: `#/partie/${this.gameId}` }, tt("watch")));
      return;
    }
    this.plies = data.plies;
    this.ply = this.plies.length - 1;
    this.stage = new BoardStage(data.game, () => undefined);
    this.root.querySelector(".board-wrap")!.replaceChildren(this.stage.host);
    const back = el("button", { type: "button", "data-testid": "nav-back", "aria-label": "◀" }, "◀");
    const forward = el("button", { type: "button", "data-testid": "nav-forward", "aria-label": "▶" }, "▶");
    const first = el("button", { type: "button", "data-testid": "nav-first", "aria-label": tt("first") }, "|◀");
    const last = el("button", { type: "button", "data-testid": "nav-last", "aria-label": tt("last") }, "▶|");
    first.addEventListener("click", () => this.show(0));
    back.addEventListener("click", () => this.show(this.ply - 1));
    forward.addEventListener("click", () => this.show(this.ply + 1));
    last.addEventListener("click", () => this.show(this.plies.length - 1));
    const side = this.side;
    side.append(el("div", { class: "navigation" }, first, back, this.counter, forward, last), this.moveList.root, this.stage.switches, this.actions, this.notice);
    if (data.game === "hanse" && data.status === "finished") {
      // Your Rückblick (the server shows it only to you, unless you made it public).
      this.review = new ReviewPanel(this.gameId, (ply) => this.show(ply));
      side.append(this.review.root);
    }
    this.draw();
  }

  private show(ply: number): void {
    this.ply = Math.max(0, Math.min(this.plies.length - 1, ply));
    this.draw();
  }

  private key(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    if (event.key === "ArrowLeft") this.show(this.ply - 1);
    else if (event.key === "ArrowRight") this.show(this.ply + 1);
    else if (event.key === "Home") this.show(0);
    else if (event.key === "End") this.show(this.plies.length - 1);
  }

  private draw(): void {
    const data = this.data!;
    const entry = this.plies[this.ply];
    const moves = this.plies.slice(1).map((p) => p.move ?? "");
    const people = data.seats.map((seat, index) => seatPerson(seat, index, data.mode));
    this.stage?.render(entry.view, { you: null, interactive: false, lastMove: entry.move, names: people });
    this.moveList.render(moves, this.ply, () => true);
    this.counter.textContent = `${entry.setup ? `${tt("setupStep")} · ` : ""}${this.ply} / ${this.plies.length - 1}`;
    const names = people.map((who, i) => `${who} (${colourName(data.game, i)})`);
    const result = data.result;
    const resultText = result ? `${result.winner === null ? tt("drawn") : `${colourName(data.game, result.winner)} ${tt("wins")}.`} ${resultReason(result)}` : "";
    this.header.replaceChildren(
      el("strong", {}, `${GAME_TITLES[data.game] ?? data.game} · ${tt("replay")}`), el("br"),
      `${names.join(" – ")}`, el("br"),
      el("span", { "data-testid": "replay-result" }, resultText),
    );
    void this.drawActions();
  }

  private async drawActions(): Promise<void> {
    if (this.actionsBuilt) {
      // Texts (and the language a failed download answers in) only: the language may have changed.
      const download = this.actions.querySelector("[data-testid=download]");
      const copy = this.actions.querySelector("[data-testid=copy-link]");
      if (download) {
        download.textContent = tt("download");
        download.setAttribute("href", (download.getAttribute("href") ?? "").replace(/lang=\w+$/, `lang=${lang()}`));
      }
      if (copy) copy.textContent = tt("copyLink");
      return;
    }
    this.actionsBuilt = true;
    const base = await gameUrl();
    const download = el("a", { class: "button", href: `${base}/api/games/${this.gameId}/record.txt?lang=${lang()}`, download: `spielcenter-${this.gameId}.txt`, "data-testid": "download" }, tt("download"));
    const copy = el("button", { type: "button", "data-testid": "copy-link" }, tt("copyLink"));
    copy.addEventListener("click", async () => {
      const link = `${location.origin}${location.pathname}#/nachspielen/${this.gameId}`;
      try {
        await navigator.clipboard.writeText(link);
        this.notice.textContent = `${tt("copied")} ${link}`;
      } catch {
        // No clipboard permission (http, old browser): show the link to copy by hand.
        this.notice.textContent = link;
      }
    });
    this.actions.replaceChildren(download, copy);
  }
}
