// The one interface every game board implements. A board is a drawing of the server's
// `view` (GAME.view(state, seat)) and nothing else: it never knows the rules. What it
// may offer the player comes from `view.legal_moves` — each `{text, effect}` — and
// the move it reports is one of those texts, sent unchanged to the game service.
import type { Language } from "../protocol";

/** One legal move as the engine describes it: its notation and what it changes. */
export interface LegalMove {
  text: string;
  effect: Record<string, unknown>;
}

/** A game's view as the server sent it (engine-specific fields). */
export type GameView = Record<string, unknown>;

/** What a board needs to know besides the view. */
export interface BoardContext {
  /** The seat the board is drawn for (its colour is "you"), null for spectators and replays. */
  you: number | null;
  /** True when the viewer may pick a move now; otherwise the board only shows. */
  interactive: boolean;
  /** The last move played (notation), to mark it; null at the start. */
  lastMove: string | null;
  /** During a pause between rounds that ends by itself: the time left (ms); otherwise absent or null. */
  pauseLeftMs?: number | null;
}

/** A switch the board offers under the table (Hilfe an, Gefahr an, Feldnamen …). */
export interface BoardToggle {
  key: string;
  label: Record<Language, string>;
  initial: boolean;
}

export interface Board {
  /** The switches this board understands (the table draws them as buttons). */
  readonly toggles: readonly BoardToggle[];
  /** True when the second seat's own side is at the top unturned, so its player sees it turned. */
  readonly turnForSecondSeat: boolean;
  /** Draw `view`; called on every table:state and on every replay step. */
  render(view: GameView, context: BoardContext): void;
  /** Turn the board (key F): the other side at the bottom. */
  setFlipped(flipped: boolean): void;
  setToggle(key: string, on: boolean): void;
  /** Remove listeners and elements. */
  destroy(): void;
}

/** Where a board lives and whom it tells about a chosen move. */
export interface BoardHost {
  /** The element the board mounts its drawing into (it owns the element's children). */
  element: HTMLElement;
  /** Called with the text of a legal move the player chose. */
  onMove(text: string): void;
}

export type BoardFactory = (host: BoardHost) => Board;

/** The legal moves a view carries (empty when the viewer is not to move). */
export function legalMoves(view: GameView): LegalMove[] {
  const moves = view.legal_moves;
  return Array.isArray(moves) ? (moves as LegalMove[]) : [];
}

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes (numbers become strings). */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: Array<SVGElement | string>
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}
