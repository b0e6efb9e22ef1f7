// Battlebullet as an SVG hexagon of 61 holes (seed 004). Marbles come from the view,
// every arrow from `legal_moves` (their `marbles`, `dir`, `moves`, `push`, `out`), the
// red rim of Gefahr an from `danger`. The board only draws; the engine decides.
import { lang } from "../i18n";
import { look } from "../look/look";
import type { BulletEffect, BulletMove as BulletLegalMove, BulletView } from "../protocol";
import { type Board, type BoardContext, type BoardFactory, type BoardHost, CellKeys, type GameView, legalMoves, svg, viewOf } from "./board";

const STEP = 40; // distance between neighbouring holes
const ROW_HEIGHT = (STEP * Math.sqrt(3)) / 2;
const ROWS = "ABCDEFGHI";
const MARBLE = STEP * 0.44;

type BulletMove = BulletLegalMove & { fx: BulletEffect };

interface Hole {
  name: string;
  x: number;
  y: number;
}

/** Rows A (White's side, bottom) to I, diagonals 1–9 (docs/rules.md). */
function allHoles(): Hole[] {
  const holes: Hole[] = [];
  for (let row = 0; row < 9; row++) {
    for (let diagonal = Math.max(1, row - 3); diagonal <= Math.min(9, row + 5); diagonal++) {
      holes.push({ name: `${ROWS[row]}${diagonal}`, x: (diagonal - 1 - row / 2 - 2) * STEP, y: (4 - row) * ROW_HEIGHT });
    }
  }
  return holes;
}

const HOLES = allHoles();
const BY_NAME = new Map(HOLES.map((hole) => [hole.name, hole]));
const ANNOTATION_COLOURS = { plain: "green", shift: "red", alt: "blue", ctrl: "yellow" } as const;

const TOGGLES = [
  { key: "danger", label: { de: "Gefahr an", en: "Danger on" }, initial: false },
  { key: "names", label: { de: "Feldnamen", en: "Cell names" }, initial: false },
] as const;

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

class BulletBoard implements Board {
  readonly toggles = TOGGLES;
  readonly turnForSecondSeat = true; // Black starts at the top (rows H, I)
  private readonly root: SVGSVGElement;
  private readonly rotor: SVGGElement;
  private readonly holeLayer = svg("g");
  private readonly marbleLayer = svg("g");
  private readonly previewLayer = svg("g", { class: "preview" });
  private readonly arrowLayer = svg("g");
  private readonly annotationLayer = svg("g", { class: "annotations" });
  private readonly nameLayer = svg("g", { class: "cell-names" });
  private readonly gutter = svg("g", { class: "gutter", "data-testid": "gutter" });
  private readonly focusLayer = svg("g");
  private readonly keys: CellKeys;
  private view: Partial<BulletView> = {};
  private context: BoardContext = { you: null, interactive: false, lastMove: null };
  private selection: string[] = [];
  private flipped = false;
  private options = { danger: false, names: look().cellNames };
  private annotations = new Map<string, SVGElement>();
  private rightDown: { from: string; colour: string } | null = null;
  private drag: { x: number; y: number } | null = null;
  private lastPicked: string | null = null; // the marble this press added (a click on it keeps it)

  constructor(private readonly host: BoardHost) {
    const r = 5.6 * STEP;
    this.root = svg("svg", { class: "board bullet-board", viewBox: `${-r} ${-r} ${2 * r} ${2 * r + STEP * 1.1}`, "data-testid": "board", role: "group" });
    const frame = svg("polygon", { class: "frame", points: this.framePoints(4.75 * STEP) });
    // The board's edge, seen only in 3D (look.css): the same hexagon a little lower, darker.
    const edge = svg("polygon", { class: "frame-edge", points: this.framePoints(4.75 * STEP), transform: `translate(0 ${STEP * 0.22})` });
    this.rotor = svg("g", {}, edge, frame, this.holeLayer, this.marbleLayer, this.previewLayer, this.arrowLayer, this.annotationLayer, this.nameLayer, this.focusLayer);
    const defs = svg("defs");
    for (const colour of Object.values(ANNOTATION_COLOURS)) {
      defs.append(svg("marker", { id: `head-${colour}`, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse", class: `annotation-head ${colour}` },
        svg("path", { d: "M 0 0 L 10 5 L 0 10 z" })));
    }
    defs.append(...shading3d());
    this.root.append(defs, this.rotor, this.gutter);
    host.element.replaceChildren(this.root);
    const keyCells = [];
    for (const hole of HOLES) {
      const circle = svg("circle", { cx: hole.x, cy: hole.y, r: MARBLE * 0.8, class: "hole", "data-cell": hole.name });
      this.holeLayer.append(circle);
      keyCells.push({ name: hole.name, x: hole.x, y: hole.y, element: circle });
      this.nameLayer.append(svg("text", { x: hole.x, y: hole.y + 4, class: "cell-name", "data-name": hole.name }, hole.name));
    }
    this.root.addEventListener("contextmenu", (event) => event.preventDefault());
    this.root.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.root.addEventListener("pointerup", (event) => this.pointerUp(event));
    // Keyboard: arrows walk the holes, Enter/Space pick a marble like a click; the move
    // arrows that appear are buttons of their own (Tab reaches them).
    this.keys = new CellKeys(keyCells, this.focusLayer, MARBLE * 1.2, (name) => this.pick(name));
    this.draw();
  }

  render(view: GameView, context: BoardContext): void {
    this.view = viewOf(view, "bullet");
    this.context = context;
    if (!context.interactive || !this.selectionStillPossible()) this.selection = [];
    this.draw();
  }

  setFlipped(flipped: boolean): void {
    this.flipped = flipped;
    this.keys.setFlipped(flipped);
    this.rotor.setAttribute("transform", flipped ? "rotate(180)" : "");
    for (const text of this.nameLayer.querySelectorAll<SVGTextElement>("text")) {
      const hole = BY_NAME.get(text.dataset.name ?? "")!;
      text.setAttribute("transform", flipped ? `rotate(180 ${hole.x} ${hole.y})` : "");
    }
  }

  setToggle(key: string, on: boolean): void {
    if (key === "danger" || key === "names") this.options[key] = on;
    this.draw();
  }

  destroy(): void {
    this.host.element.replaceChildren();
  }

  /** A marble picked by keyboard: the same choices a click makes (add to the line, start anew, drop it). */
  private pick(name: string): void {
    if (!this.ownMarbles().includes(name) || this.moves().length === 0) {
      this.selection = [];
    } else if (this.selection.includes(name)) {
      this.selection = this.selection.filter((x) => x !== name);
    } else {
      const grown = [...this.selection, name];
      this.selection = this.moves().some((m) => grown.every((x) => m.fx.marbles.includes(x))) ? grown : [name];
    }
    this.draw();
  }

  private ownMarbles(): string[] {
    return this.view.to_move && this.view.to_move[0] === 1 ? this.marbles().black : this.marbles().white;
  }

  /** What a screen reader says for each hole: its name and the marble on it. */
  private labelHoles(): void {
    const en = lang() === "en";
    const { white, black } = this.marbles();
    this.root.setAttribute("aria-label", en ? "Battlebullet board" : "Battlebullet-Brett");
    for (const hole of HOLES) {
      const parts = [white.includes(hole.name) ? (en ? "white" : "Weiß") : black.includes(hole.name) ? (en ? "black" : "Schwarz") : en ? "empty" : "leer"];
      if (this.selection.includes(hole.name)) parts.push(en ? "selected" : "ausgewählt");
      this.keys.label(hole.name, `${hole.name}: ${parts.join(", ")}`);
    }
  }

  private framePoints(radius: number): string {
    const points: string[] = [];
    for (let i = 0; i < 6; i++) {
      const angle = (Math.PI / 3) * i;
      points.push(`${(radius * Math.cos(angle)).toFixed(1)},${(radius * Math.sin(angle)).toFixed(1)}`);
    }
    return points.join(" ");
  }

  private moves(): BulletMove[] {
    return this.context.interactive ? legalMoves(this.view).map((m) => ({ ...m, fx: m.effect })) : [];
  }

  private marbles(): { white: string[]; black: string[] } {
    const marbles = this.view.marbles;
    return { white: marbles?.white ?? [], black: marbles?.black ?? [] };
  }

  /** A selection is possible while some legal move uses all of its marbles. */
  private selectionStillPossible(): boolean {
    return this.selection.length === 0 || this.moves().some((m) => this.selection.every((x) => m.fx.marbles.includes(x)));
  }

  /** The legal moves of exactly the selected marbles: one arrow each. */
  private arrowMoves(): BulletMove[] {
    if (this.selection.length === 0) return [];
    return this.moves().filter((m) => sameSet(m.fx.marbles, this.selection));
  }

  private holeAt(event: PointerEvent): string | null {
    const point = this.root.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const matrix = this.rotor.getScreenCTM();
    if (!matrix) return null;
    const local = point.matrixTransform(matrix.inverse());
    let best: Hole | null = null;
    let bestDistance = STEP * 0.5;
    for (const hole of HOLES) {
      const d = Math.hypot(hole.x - local.x, hole.y - local.y);
      if (d < bestDistance) [best, bestDistance] = [hole, d];
    }
    return best?.name ?? null;
  }

  private pointerDown(event: PointerEvent): void {
    const hole = this.holeAt(event);
    if (event.button === 2) {
      if (!hole) return;
      const colour = event.shiftKey ? ANNOTATION_COLOURS.shift : event.altKey ? ANNOTATION_COLOURS.alt : event.ctrlKey ? ANNOTATION_COLOURS.ctrl : ANNOTATION_COLOURS.plain;
      this.rightDown = { from: hole, colour };
      return;
    }
    if (event.button !== 0) return;
    const arrow = (event.target as Element).closest<SVGElement>("[data-move]");
    if (arrow) return; // the click handler on the arrow plays it
    this.clearAnnotations();
    if (!hole) return;
    const own = this.ownMarbles();
    if (!own.includes(hole) || this.moves().length === 0) {
      this.selection = [];
      this.draw();
      return;
    }
    if (this.selection.includes(hole)) {
      // Pressing on the selection may start a drag; a plain click toggles the marble off.
      this.drag = { x: event.clientX, y: event.clientY };
      return;
    }
    const grown = [...this.selection, hole];
    const fits = this.moves().some((m) => grown.every((x) => m.fx.marbles.includes(x)));
    this.selection = fits ? grown : [hole];
    this.lastPicked = hole;
    this.drag = { x: event.clientX, y: event.clientY };
    this.draw();
  }

  private pointerUp(event: PointerEvent): void {
    if (event.button === 2 && this.rightDown) {
      const to = this.holeAt(event);
      if (to) this.annotate(this.rightDown.from, to, this.rightDown.colour);
      this.rightDown = null;
      return;
    }
    const drag = this.drag;
    this.drag = null;
    if (!drag || event.button !== 0) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    const pixels = Math.hypot(dx, dy);
    if (pixels < 12) {
      const hole = this.holeAt(event);
      // A click on an already selected marble (not a fresh pick) drops it from the selection.
      if (hole && this.selection.includes(hole) && this.selection.length > 0 && this.lastPicked !== hole) {
        this.selection = this.selection.filter((x) => x !== hole);
        this.draw();
      }
      this.lastPicked = null;
      return;
    }
    this.lastPicked = null;
    // Dragging: the arrow whose direction is closest to the drag.
    const scale = this.flipped ? -1 : 1;
    let best: BulletMove | null = null;
    let bestCos = 0.8;
    for (const move of this.arrowMoves()) {
      const [vx, vy] = this.direction(move);
      const cos = (vx * dx * scale + vy * dy * scale) / (Math.hypot(vx, vy) * pixels);
      if (cos > bestCos) [best, bestCos] = [move, cos];
    }
    if (best) this.play(best);
  }

  /** Board-space direction of a move, from its first marble's step. */
  private direction(move: BulletMove): [number, number] {
    const [from, to] = move.fx.moves.find(([f]) => move.fx.marbles.includes(f)) ?? move.fx.moves[0];
    const a = BY_NAME.get(from)!;
    const b = to ? BY_NAME.get(to)! : a;
    return [b.x - a.x, b.y - a.y];
  }

  private play(move: BulletMove): void {
    this.selection = [];
    this.previewLayer.replaceChildren();
    this.host.onMove(move.text);
  }

  private annotate(from: string, to: string, colour: string): void {
    const key = `${from}-${to}-${colour}`;
    const existing = this.annotations.get(key);
    if (existing) {
      existing.remove();
      this.annotations.delete(key);
      return;
    }
    const a = BY_NAME.get(from)!;
    const b = BY_NAME.get(to)!;
    const node = from === to
      ? svg("circle", { cx: a.x, cy: a.y, r: MARBLE * 1.05, class: `mark ${colour}`, "data-annotation": "mark" })
      : svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: `annotation-arrow ${colour}`, "marker-end": `url(#head-${colour})`, "data-annotation": "arrow" });
    this.annotations.set(key, node);
    this.annotationLayer.append(node);
  }

  private clearAnnotations(): void {
    this.annotations.clear();
    this.annotationLayer.replaceChildren();
  }

  private draw(): void {
    const { white, black } = this.marbles();
    const danger = this.view.danger ?? [[], []];
    const mine = this.context.you ?? null;
    const endangered = new Set(this.options.danger && mine !== null ? danger[mine] ?? [] : []);
    const last = this.lastMoveHoles();
    for (const hole of this.holeLayer.querySelectorAll<SVGCircleElement>("circle")) {
      hole.classList.toggle("last-move", last.includes(hole.dataset.cell!));
    }
    this.marbleLayer.replaceChildren();
    for (const [colour, names] of [["white", white], ["black", black]] as const) {
      for (const name of names) {
        const hole = BY_NAME.get(name);
        if (!hole) continue;
        const marble = svg("circle", { cx: hole.x, cy: hole.y, r: MARBLE, class: `marble ${colour}`, "data-marble": name });
        if (this.selection.includes(name)) marble.classList.add("selected");
        if (endangered.has(name)) marble.classList.add("endangered");
        else if (last.includes(name)) marble.classList.add("last-move");
        this.marbleLayer.append(marble);
      }
    }
    this.drawArrows();
    this.drawGutter();
    this.nameLayer.style.display = this.options.names ? "" : "none";
    this.root.classList.toggle("interactive", this.moves().length > 0);
    this.labelHoles();
  }

  /** One arrow per legal direction of the selection: orange pushes, red pushes out. */
  private drawArrows(): void {
    this.arrowLayer.replaceChildren();
    this.previewLayer.replaceChildren();
    const moves = this.arrowMoves();
    if (moves.length === 0) return;
    const centre = this.selection.map((n) => BY_NAME.get(n)!).reduce((acc, h) => [acc[0] + h.x, acc[1] + h.y], [0, 0]);
    const cx = centre[0] / this.selection.length;
    const cy = centre[1] / this.selection.length;
    for (const move of moves) {
      const [vx, vy] = this.direction(move);
      const length = Math.hypot(vx, vy) || 1;
      const reach = STEP * (0.5 + this.selection.length * 0.35);
      const tipX = cx + (vx / length) * reach;
      const tipY = cy + (vy / length) * reach;
      const kind = move.fx.out ? "out" : move.fx.push > 0 ? "push" : "step";
      const angle = (Math.atan2(vy, vx) * 180) / Math.PI;
      const arrow = svg("g", { class: `move-arrow ${kind}`, "data-move": move.text, "data-dir": move.fx.dir, transform: `translate(${tipX.toFixed(1)} ${tipY.toFixed(1)}) rotate(${angle.toFixed(1)})` },
        svg("circle", { r: STEP * 0.36, class: "arrow-hit" }),
        svg("path", { d: `M ${-STEP * 0.3} ${-STEP * 0.09} L 0 ${-STEP * 0.09} L 0 ${-STEP * 0.24} L ${STEP * 0.3} 0 L 0 ${STEP * 0.24} L 0 ${STEP * 0.09} L ${-STEP * 0.3} ${STEP * 0.09} Z` }));
      arrow.addEventListener("click", () => this.play(move));
      const en = lang() === "en";
      const what = move.fx.out ? (en ? ", pushes a marble out" : ", schiebt eine Kugel hinaus") : move.fx.push > 0 ? (en ? ", pushes" : ", schiebt") : "";
      arrow.setAttribute("tabindex", "0");
      arrow.setAttribute("role", "button");
      arrow.setAttribute("aria-label", `${en ? "Move" : "Zug"} ${move.text}${what}`);
      arrow.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        this.play(move);
      });
      arrow.addEventListener("focus", () => this.preview(move));
      arrow.addEventListener("pointerenter", () => this.preview(move));
      arrow.addEventListener("pointerleave", () => this.previewLayer.replaceChildren());
      this.arrowLayer.append(arrow);
    }
  }

  /** Where everything lands: ghosts at the destinations, a cross where a marble falls out. */
  private preview(move: BulletMove): void {
    this.previewLayer.replaceChildren();
    const { white } = this.marbles();
    for (const [from, to] of move.fx.moves) {
      const a = BY_NAME.get(from)!;
      const colour = white.includes(from) ? "white" : "black";
      this.previewLayer.append(svg("circle", { cx: a.x, cy: a.y, r: MARBLE, class: "leaving" }));
      if (to) {
        const b = BY_NAME.get(to)!;
        this.previewLayer.append(svg("circle", { cx: b.x, cy: b.y, r: MARBLE, class: `ghost ${colour}`, "data-lands": to }));
      } else {
        const [vx, vy] = this.direction(move);
        const length = Math.hypot(vx, vy) || 1;
        const x = a.x + (vx / length) * STEP * 0.9;
        const y = a.y + (vy / length) * STEP * 0.9;
        this.previewLayer.append(svg("circle", { cx: x, cy: y, r: MARBLE, class: `ghost falling ${colour}`, "data-lands": "out" }));
      }
    }
  }

  /** The gutter: marbles pushed out, each colour on its own rail under the board. */
  private drawGutter(): void {
    this.gutter.replaceChildren();
    const pushed = this.view.pushed_out ?? [0, 0];
    const target = Number(this.view.win_target ?? 6);
    const y = 5.3 * STEP;
    // pushed_out[s] counts the opponent's marbles seat s has pushed out.
    const rails: Array<["white" | "black", number, number]> = [["black", pushed[0] ?? 0, -1], ["white", pushed[1] ?? 0, 1]];
    for (const [colour, count, side] of rails) {
      const rail = svg("g", { class: `rail ${colour}`, "data-out": `${colour}:${count}` });
      rail.append(svg("rect", { x: side < 0 ? -5.2 * STEP : 0.3 * STEP, y: y - STEP * 0.3, width: 4.9 * STEP, height: STEP * 0.6, rx: STEP * 0.3, class: "rail-track" }));
      for (let i = 0; i < target; i++) {
        const x = (side < 0 ? -4.9 : 0.6) * STEP + i * STEP * 0.72;
        rail.append(svg("circle", { cx: x, cy: y, r: STEP * 0.24, class: i < count ? `marble ${colour} small` : "slot" }));
      }
      this.gutter.append(rail);
    }
    this.gutter.append(svg("title", {}, lang() === "en" ? "Gutter: marbles pushed out" : "Auffangrinne: hinausgeschobene Kugeln"));
  }

  private lastMoveHoles(): string[] {
    const text = this.context.lastMove;
    if (!text) return [];
    const ends = (text.split("-")[1] ?? "").match(/[A-I][1-9]/g) ?? [];
    if (ends.length !== 2) return ends;
    // A line of three is written by its ends: the hole halfway between them moved too.
    const [a, b] = ends.map((name) => BY_NAME.get(name));
    if (!a || !b) return ends;
    const middle = HOLES.find((h) => Math.abs(h.x - (a.x + b.x) / 2) < 1 && Math.abs(h.y - (a.y + b.y) / 2) < 1);
    return middle && middle !== a && middle !== b ? [ends[0], middle.name, ends[1]] : ends;
  }
}

/** The gradients of the 3D look: spheres lit from the upper left, sunken holes, a bevelled board.
 * Their colours are the Ansicht's CSS variables, so every board material shades itself. */
function shading3d(): SVGElement[] {
  const stop = (offset: string, colour: string) => svg("stop", { offset, style: `stop-color: ${colour}` });
  const sphere = (id: string, base: string) =>
    svg("radialGradient", { id, cx: "0.38", cy: "0.32", r: "0.7", fx: "0.32", fy: "0.26" },
      stop("0", `color-mix(in srgb, ${base} 40%, #ffffff)`), stop("0.35", base), stop("1", `color-mix(in srgb, ${base} 55%, #000000)`));
  return [
    sphere("bullet3d-white", "var(--bullet-white)"),
    sphere("bullet3d-black", "var(--bullet-black)"),
    svg("radialGradient", { id: "bullet3d-hole", cx: "0.5", cy: "0.4", r: "0.6" },
      stop("0", "color-mix(in srgb, var(--bullet-hole) 85%, #000000)"), stop("0.7", "var(--bullet-hole)"), stop("1", "color-mix(in srgb, var(--bullet-hole) 80%, #ffffff)")),
    svg("linearGradient", { id: "bullet3d-frame", x1: "0", y1: "0", x2: "0.3", y2: "1" },
      stop("0", "color-mix(in srgb, var(--bullet-frame) 70%, #ffffff)"), stop("0.5", "var(--bullet-frame)"), stop("1", "color-mix(in srgb, var(--bullet-frame) 75%, #000000)")),
  ];
}

export const bulletBoard: BoardFactory = (host) => new BulletBoard(host);
