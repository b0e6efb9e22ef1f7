// The board with its switches (Hilfe/Gefahr, names) and the F key that turns it;
// shared by the live table and the replay.
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import type { Board, BoardContext, GameView } from "../boards/board";
import { boardFor } from "../boards/index";
import { onCellNamesChange } from "../look/look";
import { tt } from "./texts";

const TOGGLE_STORE = "spielcenter.board.";

export class BoardStage {
  readonly host = el("div", { class: "board-host" });
  readonly switches = el("div", { class: "board-switches" });
  private readonly board: Board | null;
  private flipped = false;
  private stopLook: () => void = () => undefined;
  private readonly stopLang: () => void;
  private readonly labelled: Array<() => void> = [];
  private readonly keyHandler = (event: KeyboardEvent) => this.key(event);

  constructor(
    readonly game: string,
    onMove: (text: string) => void,
    private readonly onFlip: (flipped: boolean) => void = () => undefined,
  ) {
    const factory = boardFor(game);
    this.board = factory ? factory({ element: this.host, onMove }) : null;
    if (!this.board) this.host.append(el("p", { class: "hint" }, `${game}: ${lang() === "en" ? "no board yet" : "noch kein Brett"}`));
    const flip = el("button", { type: "button", class: "flip", "data-testid": "flip", title: tt("flip") }, "⟳ F");
    flip.addEventListener("click", () => this.setFlipped(!this.flipped));
    this.switches.append(flip);
    for (const toggle of this.board?.toggles ?? []) {
      // Each switch is remembered per game on this device.
      const storeKey = `${TOGGLE_STORE}${game}.${toggle.key}`;
      let on = (localStorage.getItem(storeKey) ?? String(toggle.initial)) === "true";
      const button = el("button", { type: "button", class: "toggle", "aria-pressed": String(on), "data-testid": `toggle-${toggle.key}` }, toggle.label[lang()]);
      this.labelled.push(() => (button.textContent = toggle.label[lang()]));
      const set = (value: boolean): void => {
        on = value;
        localStorage.setItem(storeKey, String(on));
        button.setAttribute("aria-pressed", String(on));
        this.board?.setToggle(toggle.key, on);
      };
      button.addEventListener("click", () => set(!on));
      // The Ansicht's names switch works on an open table too, through this very switch, so the
      // button keeps showing (and toggling from) what the board shows.
      if (toggle.key === "names") this.stopLook = onCellNamesChange(set);
      this.board?.setToggle(toggle.key, on);
      this.switches.append(button);
    }
    document.addEventListener("keydown", this.keyHandler);
    // The switches speak the language chosen now, as the rest of the table does.
    this.stopLang = onLangChange(() => {
      flip.title = tt("flip");
      for (const relabel of this.labelled) relabel();
    });
  }

  render(view: GameView, context: BoardContext): void {
    this.board?.render(view, context);
  }

  setFlipped(flipped: boolean): void {
    this.flipped = flipped;
    this.board?.setFlipped(flipped);
    this.onFlip(flipped);
  }

  /** Whether ``seat``'s player should see the board turned at first. */
  turnedFor(seat: number | null): boolean {
    return seat === 1 && (this.board?.turnForSecondSeat ?? false);
  }

  isFlipped(): boolean {
    return this.flipped;
  }

  /** Tipp: set the board's selection to legal move `move` (boards with a selection offer
   * `suggest`, Battlehanse's Handelskasten); false when the board cannot. */
  suggest(move: string): boolean {
    const board = this.board as (Board & { suggest?: (text: string) => boolean }) | null;
    return board?.suggest?.(move) ?? false;
  }

  destroy(): void {
    document.removeEventListener("keydown", this.keyHandler);
    this.stopLook();
    this.stopLang();
    this.board?.destroy();
  }

  private key(event: KeyboardEvent): void {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (event.key === "f" || event.key === "F") this.setFlipped(!this.flipped);
  }
}
