// Battlehexagon as an SVG honeycomb (seed 001). Everything shown comes from the view:
// stones and holes from `cells`/`holes`, what may be played from `legal_moves` and
// their effects (target, source, stones that turn), Hilfe an from `help`.
import { lang } from "../i18n";
import { look } from "../look/look";
import type { HexagonEffect, HexagonMove, HexagonView } from "../protocol";
import { type Board, type BoardContext, type BoardFactory, type BoardHost, CellKeys, type GameView, legalMoves, svg, viewOf } from "./board";

const SIZE = 30; // hex radius in SVG units
const ROOT3 = Math.sqrt(3);
const COLUMNS = "abcdefghi";
const STRIP_X = -8.2 * SIZE; // the turn strip left of the board

interface Cell {
  name: string;
  q: number;
  r: number;
  x: number;
  y: number;
}

/** All 61 cells: column a–i, numbered from the top (docs/rules.md: r = n − 1 + max(−4, −4 − q)). */
function allCells(): Cell[] {
  const cells: Cell[] = [];
  for (let c = 0; c < 9; c++) {
    const q = c - 4;
    const count = 9 - Math.abs(q);
    for (let n = 1; n <= count; n++) {
      const r = n - 1 + Math.max(-4, -4 - q);
      cells.push({ name: `${COLUMNS[c]}${n}`, q, r, x: 1.5 * q * SIZE, y: ROOT3 * SIZE * (r + q / 2) });
    }
  }
  return cells;
}

const CELLS = allCells();
const BY_NAME = new Map(CELLS.map((cell) => [cell.name, cell]));

/** Hex distance: the drawing needs it to tell which clone targets surround the chosen stone. */
function distance(a: Cell, b: Cell): number {
  return (Math.abs(a.q - b.q) + Math.abs(a.r - b.r) + Math.abs(a.q + a.r - b.q - b.r)) / 2;
}

function hexPoints(x: number, y: number, radius: number): string {
  const points: string[] = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 3) * i;
    points.push(`${(x + radius * Math.cos(angle)).toFixed(2)},${(y + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return points.join(" ");
}

const TOGGLES = [
  { key: "help", label: { de: "Hilfe an", en: "Help on" }, initial: false },
  { key: "names", label: { de: "Wabennamen", en: "Cell names" }, initial: false },
] as const;

class HexagonBoard implements Board {
  readonly toggles = TOGGLES;
  // Both sides start in alternating corners: there is no "own side" to turn towards.
  readonly turnForSecondSeat = false;
  private readonly root: SVGSVGElement;
  private readonly rotor: SVGGElement; // turned by F
  private readonly cellLayer = svg("g");
  private readonly stoneLayer = svg("g");
  private readonly markLayer = svg("g", { class: "marks" });
  private readonly nameLayer = svg("g", { class: "cell-names" });
  private readonly focusLayer = svg("g");
  private readonly keys: CellKeys;
  private readonly strip = svg("rect", { class: "turn-strip", x: STRIP_X, y: -4.2 * ROOT3 * SIZE, width: 14, height: 8.4 * ROOT3 * SIZE, rx: 7 });
  private readonly passButton: HTMLButtonElement;
  private view: Partial<HexagonView> = {};
  private context: BoardContext = { you: null, interactive: false, lastMove: null };
  private selected: string | null = null;
  private hovered: string | null = null;
  private options = { help: false, names: look().cellNames };

  constructor(private readonly host: BoardHost) {
    this.root = svg("svg", { class: "board hexagon-board", viewBox: `${STRIP_X - 10} ${-4.6 * ROOT3 * SIZE} ${-STRIP_X + 8 * SIZE} ${9.2 * ROOT3 * SIZE}`, "data-testid": "board", role: "group" });
    // The Fassung around the whole honeycomb, in the frame colour of the Ansicht.
    const outline = svg("polygon", { class: "board-outline", points: hexPoints(0, 0, 7.9 * SIZE).split(" ").map((p) => p.split(",").reverse().join(",")).join(" ") });
    this.rotor = svg("g", {}, outline, this.cellLayer, this.markLayer, this.stoneLayer, this.nameLayer, this.focusLayer);
    this.root.append(this.strip, this.rotor);
    this.passButton = document.createElement("button");
    this.passButton.type = "button";
    this.passButton.className = "pass-button";
    this.passButton.dataset.testid = "pass";
    this.passButton.hidden = true;
    this.passButton.addEventListener("click", () => {
      const pass = legalMoves(this.view).find((m) => m.effect.kind === "pass");
      if (pass && this.context.interactive) this.host.onMove(pass.text);
    });
    host.element.replaceChildren(this.root, this.passButton);
    const keyCells = [];
    for (const cell of CELLS) {
      const hex = svg("polygon", { points: hexPoints(cell.x, cell.y, SIZE * 0.96), class: "cell", "data-cell": cell.name });
      hex.addEventListener("click", () => this.clicked(cell.name));
      hex.addEventListener("pointerenter", () => this.hover(cell.name));
      hex.addEventListener("pointerleave", () => this.hover(null));
      this.cellLayer.append(hex);
      keyCells.push({ name: cell.name, x: cell.x, y: cell.y, element: hex });
      this.nameLayer.append(svg("text", { x: cell.x, y: cell.y + SIZE * 0.8, class: "cell-name", "data-name": cell.name }, cell.name));
    }
    // Keyboard: arrows walk the Waben, Enter/Space act like a click (holes are skipped).
    this.keys = new CellKeys(keyCells, this.focusLayer, SIZE * 0.9, (name) => this.clicked(name), (name) => this.holes().has(name));
    this.draw();
  }

  render(view: GameView, context: BoardContext): void {
    this.view = viewOf(view, "hexagon");
    this.context = context;
    // A new position: the old choice no longer means anything.
    if (this.selected && !this.ownStones().includes(this.selected)) this.selected = null;
    if (!context.interactive) this.selected = null;
    this.draw();
  }

  setFlipped(flipped: boolean): void {
    this.keys.setFlipped(flipped);
    this.rotor.setAttribute("transform", flipped ? "rotate(180)" : "");
    // Names stay upright when the board turns.
    for (const text of this.nameLayer.querySelectorAll<SVGTextElement>("text")) {
      const cell = BY_NAME.get(text.dataset.name ?? "")!;
      text.setAttribute("transform", flipped ? `rotate(180 ${cell.x} ${cell.y + SIZE * 0.45})` : "");
    }
  }

  setToggle(key: string, on: boolean): void {
    if (key === "help" || key === "names") this.options[key] = on;
    this.draw();
  }

  destroy(): void {
    this.host.element.replaceChildren();
  }

  private holes(): Set<string> {
    return new Set(this.view.holes ?? []);
  }

  /** What a screen reader says for each Wabe: its name, what stands there, what a press would do. */
  private labelCells(targets: Map<string, HexagonMove & { fx: HexagonEffect }>, holes: Set<string>): void {
    const en = lang() === "en";
    const { rubin, perle } = this.stones();
    const clones = new Set(this.moves().filter((m) => m.fx.kind === "clone").map((m) => m.fx.to));
    this.root.setAttribute("aria-label", en ? "Battlehexagon board" : "Battlehexagon-Brett");
    for (const cell of CELLS) {
      const name = cell.name;
      const parts: string[] = [];
      if (holes.has(name)) parts.push(en ? "hole" : "Loch");
      else if (rubin.includes(name)) parts.push(en ? "Ruby" : "Rubin");
      else if (perle.includes(name)) parts.push(en ? "Pearl" : "Perle");
      else parts.push(en ? "empty" : "leer");
      if (name === this.selected) parts.push(en ? "selected" : "ausgewählt");
      const target = targets.get(name);
      if (target?.fx.kind === "jump") parts.push(en ? "jump here" : "hierher springen");
      else if (target?.fx.kind === "clone" || (!target && clones.has(name))) parts.push(en ? "double here" : "hierher verdoppeln");
      this.keys.label(name, `${name}: ${parts.join(", ")}`);
    }
    this.keys.refresh();
  }

  private moves(): Array<HexagonMove & { fx: HexagonEffect }> {
    return this.context.interactive ? legalMoves(this.view).map((m) => ({ ...m, fx: m.effect })) : [];
  }

  private stones(): { rubin: string[]; perle: string[] } {
    const cells = this.view.cells;
    return { rubin: cells?.rubin ?? [], perle: cells?.perle ?? [] };
  }

  private ownStones(): string[] {
    const stones = this.stones();
    const mover = this.view.to_move;
    return mover === 0 ? stones.rubin : mover === 1 ? stones.perle : [];
  }

  /** Targets of the selected stone: clone cells (green) next to it, jump cells (blue) from it. */
  private targetsOf(stone: string | null): Map<string, HexagonMove & { fx: HexagonEffect }> {
    const targets = new Map<string, HexagonMove & { fx: HexagonEffect }>();
    if (!stone) return targets;
    const from = BY_NAME.get(stone)!;
    for (const move of this.moves()) {
      if (move.fx.kind === "jump" && move.fx.from === stone && move.fx.to) targets.set(move.fx.to, move);
      if (move.fx.kind === "clone" && move.fx.to && distance(from, BY_NAME.get(move.fx.to)!) === 1) targets.set(move.fx.to, move);
    }
    return targets;
  }

  private clicked(name: string): void {
    const moves = this.moves();
    if (moves.length === 0) return;
    const target = this.targetsOf(this.selected).get(name);
    if (target) {
      this.selected = null;
      this.host.onMove(target.text);
      return;
    }
    if (this.ownStones().includes(name)) {
      this.selected = this.selected === name ? null : name;
      this.draw();
      return;
    }
    // Verdoppeln: a click on a free cell next to one of your stones.
    const clone = moves.find((m) => m.fx.kind === "clone" && m.fx.to === name);
    if (clone) {
      this.selected = null;
      this.host.onMove(clone.text);
      return;
    }
    this.selected = null;
    this.draw();
  }

  private hover(name: string | null): void {
    if (this.hovered === name) return;
    this.hovered = name;
    this.drawMarks();
  }

  /** The move a hover over ``name`` would make (to preview the stones that turn). */
  private hoverMove(): (HexagonMove & { fx: HexagonEffect }) | null {
    if (!this.hovered) return null;
    const own = this.targetsOf(this.selected).get(this.hovered);
    if (own) return own;
    return this.moves().find((m) => m.fx.kind === "clone" && m.fx.to === this.hovered) ?? null;
  }

  private draw(): void {
    const holes = this.holes();
    const help = this.view.help ?? null;
    const helpClones = new Set(this.options.help && help ? help.clone_targets ?? [] : []);
    const targets = this.targetsOf(this.selected);
    const last = this.lastMoveCells();
    for (const hex of this.cellLayer.querySelectorAll<SVGPolygonElement>("polygon")) {
      const name = hex.dataset.cell!;
      const target = targets.get(name);
      hex.classList.toggle("hole", holes.has(name));
      hex.classList.toggle("clone-target", target?.fx.kind === "clone");
      hex.classList.toggle("jump-target", target?.fx.kind === "jump");
      hex.classList.toggle("help-clone", !target && helpClones.has(name));
      hex.classList.toggle("last-move", last.includes(name));
      hex.classList.toggle("selected", name === this.selected);
    }
    this.stoneLayer.replaceChildren();
    const stones = this.stones();
    const threatened = new Set(this.options.help && help ? help.threatened ?? [] : []);
    for (const [colour, names] of [["rubin", stones.rubin], ["perle", stones.perle]] as const) {
      for (const name of names) {
        const cell = BY_NAME.get(name);
        if (!cell) continue;
        const stone = svg("circle", { cx: cell.x, cy: cell.y, r: SIZE * 0.62, class: `stone ${colour}`, "data-stone": name });
        if (threatened.has(name)) stone.classList.add("threatened");
        stone.addEventListener("click", () => this.clicked(name));
        stone.addEventListener("pointerenter", () => this.hover(name));
        this.stoneLayer.append(stone);
      }
    }
    this.nameLayer.style.display = this.options.names ? "" : "none";
    const pass = this.moves().some((m) => m.fx.kind === "pass");
    this.passButton.hidden = !pass;
    this.passButton.textContent = lang() === "en" ? "Pass (no move)" : "— setzt aus";
    this.drawStrip();
    this.drawMarks();
    this.labelCells(targets, holes);
  }

  /** Whose turn: green when it is yours, blue when the opponent's (seed 001); grey when over. */
  private drawStrip(): void {
    const mover = this.view.to_move;
    const over = this.view.outcome !== null && this.view.outcome !== undefined;
    let state = "idle";
    if (!over && (mover === 0 || mover === 1)) {
      state = this.context.you === null ? (mover === 0 ? "rubin" : "perle") : mover === this.context.you ? "you" : "opponent";
    }
    this.strip.setAttribute("class", `turn-strip ${state}`);
    this.strip.dataset.turn = state;
  }

  /** Stones that would turn if the hovered target were played, and the stone that would appear there. */
  private drawMarks(): void {
    this.markLayer.replaceChildren();
    const move = this.hoverMove();
    if (!move || !move.fx.to) return;
    const target = BY_NAME.get(move.fx.to)!;
    const colour = this.view.to_move === 0 ? "rubin" : "perle";
    this.markLayer.append(svg("circle", { cx: target.x, cy: target.y, r: SIZE * 0.55, class: `ghost ${colour}` }));
    for (const name of move.fx.turns) {
      const cell = BY_NAME.get(name);
      if (cell) this.markLayer.append(svg("circle", { cx: cell.x, cy: cell.y, r: SIZE * 0.8, class: `would-turn ${colour}`, "data-turns": name }));
    }
  }

  private lastMoveCells(): string[] {
    const text = this.context.lastMove;
    if (!text) return [];
    return text.split("-").filter((part) => BY_NAME.has(part));
  }
}

export const hexagonBoard: BoardFactory = (host) => new HexagonBoard(host);
