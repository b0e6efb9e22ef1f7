// Tipp at a Battlehanse table against Leicht or Mittel (seed 000): the strong computer
// computes your move (the game service sends `ai.hint` to a worker and marks the match),
// the answer `ai_hint` sets the selection in the Handelskasten, and you press the button
// yourself. Not offered against Stark (the server refuses it there too).
import { el } from "../dom";
import type { AiHintPayload, TableStatePayload } from "../protocol";
import type { GameSocket } from "../game_socket";
import { hintNoted, noteHint } from "./computer_record";
import { st } from "./review_texts";

export class HintControl {
  readonly root = el("div", { class: "hint-control", "data-testid": "hint-control" });
  private state: TableStatePayload | null = null;
  private askedAt: number | null = null; // the table version a Tipp was asked for
  private readonly onHint = (payload: AiHintPayload) => this.received(payload);

  constructor(
    private readonly socket: GameSocket,
    private readonly gameId: number,
    /** Sets the board's selection to a legal move; false if the board cannot. */
    private readonly suggest: (move: string) => boolean,
    private readonly notify: (message: string) => void,
  ) {
    socket.on("ai_hint", this.onHint);
  }

  close(): void {
    this.socket.off("ai_hint", this.onHint);
  }

  /** Whether a table offers the Tipp at all: Battlehanse against Leicht or Mittel. */
  static offered(state: TableStatePayload): boolean {
    const strength = state.seats.find((seat) => seat.computer)?.computer;
    return state.game === "hanse" && state.mode === "computer" && state.you !== null && (strength === "leicht" || strength === "mittel");
  }

  render(state: TableStatePayload, interactive: boolean): void {
    this.state = state;
    this.root.replaceChildren();
    if (!HintControl.offered(state) || state.status !== "running") return;
    const thinking = this.askedAt === state.version;
    const button = el("button", { type: "button", "data-testid": "hint", title: st("hintTitle"), disabled: !interactive || thinking }, thinking ? st("hintThinking") : st("hint"));
    button.addEventListener("click", () => this.ask());
    this.root.append(button);
    if (hintNoted(this.gameId)) this.root.append(el("p", { class: "hint-marked", "data-testid": "hint-marked" }, st("hintMarked")));
  }

  private ask(): void {
    const state = this.state;
    if (!state) return;
    this.askedAt = state.version;
    this.socket.emit("table:hint", { game_id: this.gameId, version: state.version });
    this.render(state, false);
  }

  private received(payload: AiHintPayload): void {
    if (payload.table_id !== String(this.gameId)) return;
    noteHint(this.gameId); // the server marked the match when it accepted the request
    const state = this.state;
    this.askedAt = null;
    if (!state || state.version !== payload.ply || !this.suggest(payload.move)) {
      this.notify(st("hintLate"));
    } else {
      this.notify(st("hintSet"));
    }
    if (state) this.render(state, state.version === payload.ply);
  }
}
