// The one interface every game board implements. A board is a drawing of the server's
// `view` (GAME.view(state, seat)) and nothing else: it never knows the rules. What it
// may offer the player comes from `view.legal_moves` — each `{text, effect}` — and
// the move it reports is one of those texts, sent unchanged to the game service.
import type { GameView, Language } from "../protocol";

/** A game's view as the server sent it (its record in shared/schemas/game_views.py; `game` tells which). */
export type { GameView };

/** One legal move as the engine describes it: its notation and what it changes (each game its own effect). */
export type LegalMove = NonNullable<GameView["legal_moves"]>[number];

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
  /** How the table names each seat (a name, "Computer (Stark)", at one device "Spieler 1"); absent: by number. */
  names?: string[];
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

/** A two-seat pair (seals, a score) as a player reads it: their own first. Spectators and two
 * players at one device read it in seat order. */
export function ownFirst<T>(pair: readonly T[], you: number | null, sameDevice: boolean): T[] {
  return you === 1 && !sameDevice ? [...pair].reverse() : [...pair];
}

/** The legal moves a view carries (empty when the viewer is not to move). */
export function legalMoves<M>(view: { legal_moves?: M[] }): M[] {
  return view.legal_moves ?? [];
}

/** `view` as game `game`'s view: a board is only ever given its own game's views. */
export function viewOf<G extends GameView["game"]>(view: GameView, game: G): Extract<GameView, { game: G }> {
  if (view.game !== game) throw new Error(`a ${game} board was given a ${view.game} view`);
  return view as Extract<GameView, { game: G }>;
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

/** A cell the keyboard can reach: its name, where it is drawn, the element that takes focus. */
export interface KeyCell {
  name: string;
  x: number;
  y: number;
  element: SVGElement;
}

const ARROWS: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
// A neighbour counts for an arrow key when it lies within this angle of the key's direction.
const CONE = Math.tan((50 * Math.PI) / 180);

/**
 * Keyboard access to a board's cells: the board is one tab stop (roving tabindex), the
 * arrow keys walk to the nearest cell in that direction on screen (so they follow a
 * turned board), Enter or Space act like a click. A ring in ``ringLayer`` (drawn above
 * the pieces) shows the focused cell, since pieces may hide the cell itself.
 */
export class CellKeys {
  private current: string;
  private flipped = false;
  private readonly ring = svg("circle", { class: "focus-ring", r: 0 });
  private readonly ringInner = svg("circle", { class: "focus-ring-inner", r: 0 });
  private readonly byName: Map<string, KeyCell>;

  constructor(
    private readonly cells: KeyCell[],
    ringLayer: SVGGElement,
    private readonly radius: number,
    private readonly activate: (name: string) => void,
    /** Cells to leave out of the walk (holes). */
    private readonly skip: (name: string) => boolean = () => false,
  ) {
    this.byName = new Map(cells.map((cell) => [cell.name, cell]));
    this.current = cells[Math.floor(cells.length / 2)].name;
    this.ring.style.display = this.ringInner.style.display = "none";
    ringLayer.append(this.ring, this.ringInner);
    for (const cell of cells) {
      cell.element.setAttribute("tabindex", cell.name === this.current ? "0" : "-1");
      cell.element.setAttribute("role", "button");
      cell.element.addEventListener("keydown", (event) => this.key(event as KeyboardEvent, cell));
      cell.element.addEventListener("focus", () => this.show(cell));
      cell.element.addEventListener("blur", () => (this.ring.style.display = this.ringInner.style.display = "none"));
    }
  }

  setFlipped(flipped: boolean): void {
    this.flipped = flipped;
  }

  /** After a redraw: the tab stop must not rest on a cell that left the walk (a hole of a new map). */
  refresh(): void {
    if (!this.skip(this.current)) return;
    const open = this.cells.find((cell) => !this.skip(cell.name));
    if (!open) return;
    this.byName.get(this.current)?.element.setAttribute("tabindex", "-1");
    this.current = open.name;
    open.element.setAttribute("tabindex", "0");
  }

  /** Put a screen-reader label on a cell (name and what stands there). */
  label(name: string, text: string): void {
    this.byName.get(name)?.element.setAttribute("aria-label", text);
  }

  private show(cell: KeyCell): void {
    this.byName.get(this.current)?.element.setAttribute("tabindex", "-1");
    this.current = cell.name;
    cell.element.setAttribute("tabindex", "0");
    // A mouse click focuses the cell too; the ring is for the keyboard only.
    if (!cell.element.matches(":focus-visible")) return;
    for (const [ring, r] of [[this.ring, this.radius], [this.ringInner, this.radius - 3]] as const) {
      ring.setAttribute("cx", String(cell.x));
      ring.setAttribute("cy", String(cell.y));
      ring.setAttribute("r", String(r));
      ring.style.display = "";
    }
  }

  private key(event: KeyboardEvent, cell: KeyCell): void {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(cell.name);
      return;
    }
    const arrow = ARROWS[event.key];
    if (!arrow) return;
    event.preventDefault(); // the page must not scroll instead
    const next = this.neighbour(cell, this.flipped ? [-arrow[0], -arrow[1]] : arrow);
    if (next) next.element.focus();
  }

  /** The nearest cell within the cone of ``direction``, preferring cells straight ahead. */
  private neighbour(from: KeyCell, [dx, dy]: [number, number]): KeyCell | null {
    let best: KeyCell | null = null;
    let bestScore = Infinity;
    for (const cell of this.cells) {
      if (cell === from || this.skip(cell.name)) continue;
      const along = (cell.x - from.x) * dx + (cell.y - from.y) * dy;
      const across = Math.abs((cell.x - from.x) * dy - (cell.y - from.y) * dx);
      if (along <= 0.01 || across > along * CONE) continue;
      const score = along + across * 0.5;
      if (score < bestScore - 0.01) [best, bestScore] = [cell, score];
    }
    return best;
  }
}
