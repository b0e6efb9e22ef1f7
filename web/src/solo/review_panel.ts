// Rückblick (seed 000): for each of your moves the strong computer's better move — green =
// good move, yellow = small deviation, red = points left lying — with how much it was worth.
// Asked for over the game socket, computed on the batch queue; the panel polls the data
// route and fills in as the results arrive. Tapping a move jumps to the position where it
// was played. The game service decides who may read it (only the seat's player, unless
// made public): a refused read simply shows no panel.
import { el } from "../dom";
import { lang } from "../i18n";
import type { ErrorPayload, Review, ReviewMove, ReviewStatePayload } from "../protocol";
import { gameApi, openTableSocket, releaseTableSocket, tableSocket } from "../game_socket";
import "./review_panel.css";
import { st } from "./review_texts";

const POLL_MS = 1500;

export class ReviewPanel {
  readonly root = el("section", { class: "review-panel", "data-testid": "review-panel", hidden: true });
  private data: Review | null = null;
  private problem = "";
  private timer = 0;
  private closed = false;
  private holdsSocket = false; // a game socket opened for this panel (a replay without a table page)
  private readonly onState = (payload: ReviewStatePayload) => {
    if (payload.game_id !== this.gameId || payload.seat !== this.data?.seat) return;
    this.show(payload);
  };
  private readonly onError = (error: ErrorPayload) => {
    if (error.event !== "review:request" && error.event !== "review:public") return;
    this.problem = error.message;
    this.draw();
  };

  constructor(
    private readonly gameId: number,
    /** Show the position at ``ply`` (before the move with that index was played). */
    private readonly onJump: (ply: number) => void,
    private readonly seat: number | null = null,
    /** Over: the review may be made public (during a match against the computer it stays yours). */
    private readonly finished = true,
  ) {
    void this.load();
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
    const socket = openTableSocket(this.gameId);
    socket?.off("review:state", this.onState);
    socket?.off("error", this.onError);
    if (this.holdsSocket) releaseTableSocket(this.gameId);
    this.holdsSocket = false;
  }

  /** Redraw (a language switch). */
  refresh(): void {
    if (this.data) this.draw();
  }

  private async load(): Promise<void> {
    // Your own seat first; someone else's only if its player made the review public.
    const seat = this.data?.seat ?? this.seat;
    for (const candidate of seat === null ? [null, 0, 1] : [seat]) {
      try {
        const data = await gameApi<Review>(`/api/games/${this.gameId}/review${candidate === null ? "" : `?seat=${candidate}`}`);
        if (!this.closed) this.show(data);
        return;
      } catch {
        // Not readable for you (or the game service is away): try the next seat.
      }
    }
    this.root.hidden = true;
  }

  private show(data: Review): void {
    this.data = data;
    window.clearTimeout(this.timer);
    if (data.status === "queued" || data.status === "running") this.timer = window.setTimeout(() => void this.load(), POLL_MS);
    this.draw();
  }

  private async send(event: "review:request" | "review:public", publicNow = false): Promise<void> {
    // The table page's socket when there is one; otherwise (a replay) one of its own, held until close.
    let socket = openTableSocket(this.gameId);
    if (!socket) {
      socket = await tableSocket(this.gameId);
      if (this.closed) {
        releaseTableSocket(this.gameId);
        return;
      }
      this.holdsSocket = true;
    }
    socket.off("review:state", this.onState).on("review:state", this.onState);
    socket.off("error", this.onError).on("error", this.onError);
    this.problem = "";
    if (event === "review:request") socket.emit("review:request", { game_id: this.gameId, seat: this.data?.seat ?? null });
    else socket.emit("review:public", { game_id: this.gameId, public: publicNow });
  }

  private draw(): void {
    const data = this.data;
    if (!data) return;
    this.root.hidden = false;
    const parts: HTMLElement[] = [el("h3", {}, data.mine ? st("review") : `${st("ofSeat")} ${data.seat + 1}`), el("p", { class: "hint" }, st("reviewExplain"))];
    // Asked for on an earlier Rundentafel, the review lacks the moves made since: ask again.
    const partial = (data.status === "done" || data.status === "failed") && data.total !== null && data.done < data.total;
    if (data.mine && (data.status === "none" || partial)) {
      const ask = el("button", { type: "button", class: "primary", "data-testid": "review-request" }, data.status === "none" ? st("reviewAsk") : st("reviewMore"));
      ask.addEventListener("click", () => {
        ask.disabled = true;
        void this.send("review:request");
      });
      parts.push(ask);
    }
    if (data.status !== "none") {
      parts.push(this.progress(data));
      parts.push(this.moveList(data));
      if (data.moves.length) parts.push(el("p", { class: "hint" }, st("reviewJump")));
      if (data.mine && this.finished) {
        const toggle = el("button", { type: "button", "data-testid": "review-public" }, data.public ? st("makePrivate") : st("makePublic"));
        toggle.addEventListener("click", () => void this.send("review:public", !data.public));
        parts.push(toggle);
      }
      if (data.public) parts.push(el("p", { class: "hint", "data-testid": "review-is-public" }, st("isPublic")));
    }
    if (data.hints > 0) parts.push(el("p", { class: "hint", "data-testid": "review-hinted" }, st("hintMarked")));
    if (this.problem) parts.push(el("p", { class: "form-error", role: "alert" }, this.problem));
    this.root.replaceChildren(...parts);
  }

  private progress(data: Review): HTMLElement {
    const line = el("p", { class: "review-progress", "data-testid": "review-progress", "data-status": data.status });
    if (data.status === "failed") line.textContent = st("reviewFailed");
    else if (data.status === "done") line.textContent = `${st("reviewDone")}: ${data.done} / ${data.total ?? data.done}`;
    else if (data.status === "queued" || data.total === null) line.textContent = st("reviewQueued");
    else line.append(`${st("reviewRunning")}: ${data.done} / ${data.total} `, el("progress", { max: String(data.total), value: String(data.done) }));
    return line;
  }

  private moveList(data: Review): HTMLElement {
    const list = el("ol", { class: "review-moves", "data-testid": "review-moves" });
    for (const move of data.moves) {
      const item = el("li", { class: `review-move review-${move.class}`, "data-testid": "review-move", "data-class": move.class, "data-ply": String(move.ply) });
      const button = el("button", { type: "button", class: "review-jump" }, el("span", { class: `review-dot ${move.class}`, "aria-hidden": "true" }, "●"), ` ${moveNumber(move)}: ${move.played}`, verdict(move, data.game));
      button.addEventListener("click", () => this.onJump(move.ply));
      item.append(button);
      list.append(item);
    }
    return list;
  }
}

/** The move's number as the move list beside the board counts (pairs of plies). */
function moveNumber(move: ReviewMove): string {
  return `${lang() === "en" ? "Move" : "Zug"} ${Math.floor(move.ply / 2) + 1}`;
}

/** "— besser: verkauf 3 Tuch (+2,5 Punkte)", or "guter Zug". */
function verdict(move: ReviewMove, game: string): HTMLElement {
  const loss = Number(move.loss);
  if (move.class === "green" || move.best === move.played) return el("span", { class: "review-verdict" }, ` — ${st("reviewGood")}`);
  const amount = loss.toLocaleString(lang(), { maximumFractionDigits: 1 });
  const unit = game === "hanse" ? ` ${st(amount === "1" ? "point" : "points")}` : ""; // "+1 Punkt", "+2,5 Punkte"
  return el("span", { class: "review-verdict" }, ` — ${st("better")}: `, el("strong", { "data-testid": "review-best" }, move.best), ` (+${amount}${unit})`);
}
