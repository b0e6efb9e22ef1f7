// The move list beside the board: numbered move pairs in the game's notation; a click on
// a move asks to show the position after it, the current ply is highlighted.
import { el } from "../dom";

export class MoveList {
  readonly root = el("ol", { class: "move-list", "data-testid": "moves" });
  private moves: string[] = [];

  constructor(private readonly onPick: (ply: number) => void) {}

  /** ``shown``: the ply on the board (0 = start); ``reachable(ply)``: can the board show it. */
  render(moves: string[], shown: number, reachable: (ply: number) => boolean): void {
    const unchanged = moves.length === this.moves.length && moves.every((m, i) => m === this.moves[i]);
    if (!unchanged) {
      this.moves = [...moves];
      this.root.replaceChildren();
      for (let i = 0; i < moves.length; i += 2) {
        const row = el("li", { class: "move-pair" }, el("span", { class: "move-number" }, `${i / 2 + 1}.`));
        for (const ply of [i + 1, i + 2]) {
          if (ply > moves.length) break;
          const button = el("button", { type: "button", class: "move", "data-ply": String(ply), "data-testid": "move" }, moves[ply - 1]);
          button.addEventListener("click", () => this.onPick(ply));
          row.append(button);
        }
        this.root.append(row);
      }
    }
    for (const button of this.root.querySelectorAll<HTMLButtonElement>("button.move")) {
      const ply = Number(button.dataset.ply);
      button.classList.toggle("current", ply === shown);
      button.disabled = !reachable(ply);
    }
    this.root.querySelector("button.current")?.scrollIntoView({ block: "nearest" });
  }
}
