// Battlegeneral (seed 002) as a 10×10 SVG board with a side panel. The view is the
// seat's own (shared/games/general/view.py): own ranks, of the enemy only "moved",
// "ran like a scout" and ranks shown in fights. Every click becomes one of the view's
// `moves` texts — setup (`setze`, `entferne`, `aufstellung`, `spiegeln`, `fertig`) or
// play (`a4-a5`) — so the board never decides a rule itself.
import { el } from "../dom";
import { lang, textsOf } from "../i18n";
import type { GeneralMove, GeneralPiece, GeneralSetup, GeneralView } from "../protocol";
import { type Board, type BoardContext, type BoardFactory, type BoardHost, type GameView, svg, viewOf } from "./board";
import { type Knowledge, SEAT_NAMES, SETUP_TIME_RULE, TOKENS, cardInfo, rankName } from "./general_info";
import "./general.css";
import { hideSteady, showSteady } from "./steady_box";
import { pieceFace, rankEmblem } from "./faces";

const CELL = 40;
const FILES = "abcdefghij";
const PRESETS_AFTER_MS = 3000; // "nach kurzer Zeit" the Standard-Aufstellungen appear
const LONG_PRESS_MS = 450;

const T = {
  setupTitle: { de: "Aufstellung", en: "Setup" },
  setupHint: { de: "Klicke ein leeres Feld deiner Hälfte: dort steht dann die nächste Figur. Ein Klick auf eine gesetzte Figur nimmt sie zurück.", en: "Click an empty square of your half to place the next piece; click a placed piece to take it back." },
  next: { de: "Nächste Figur", en: "Next piece" },
  presets: { de: "Standard-Aufstellungen", en: "Standard setups" },
  mirror: { de: "Spiegeln", en: "Mirror" },
  ready: { de: "Fertig", en: "Done" },
  waiting: { de: "Du bist fertig. Warte auf den Gegner …", en: "You are done. Waiting for the opponent …" },
  opponentReady: { de: "Der Gegner ist fertig.", en: "The opponent is ready." },
  opponentSetting: { de: "Der Gegner stellt noch auf.", en: "The opponent is still setting up." },
  captured: { de: "Geschlagen", en: "Captured" },
  fight: { de: "Kampf", en: "Fight" },
  against: { de: "gegen", en: "against" },
} as const;

const t = textsOf(T);

function squareParts(name: string): [number, number] {
  return [FILES.indexOf(name[0]), Number(name.slice(1))];
}

class GeneralBoard implements Board {
  readonly toggles = [];
  readonly turnForSecondSeat = true; // Blue stands at the top (rows 7–10)
  private readonly root = el("div", { class: "general-board" });
  private readonly drawing: SVGSVGElement;
  private readonly panel = el("div", { class: "general-panel", "data-testid": "general-panel" });
  private readonly card = el("div", { class: "general-card", "data-testid": "card-info", hidden: true });
  private view: Partial<GeneralView> = {};
  private context: BoardContext = { you: null, interactive: false, lastMove: null };
  private flipped = false;
  private selected: string | null = null;
  private sentFor: Partial<GeneralView> | null = null; // the view a move was sent from: no second move until a new one
  private sentAnswered = false; // the table re-renders once while sending; a later redraw of that view is a refusal
  private setupSince: number | null = null;
  private presetTimer = 0;
  private pressTimer = 0;
  private pressedLong = false;
  // Keyboard: the board is one tab stop; this square holds it (roving tabindex).
  private focused = "e4";

  constructor(private readonly host: BoardHost) {
    this.drawing = svg("svg", { class: "board general", viewBox: `0 0 ${10 * CELL} ${10 * CELL}`, "data-testid": "board" });
    // The Karten-Info sits beside the board, under the panel, so it never covers a square.
    this.root.append(this.drawing, el("div", { class: "general-side" }, this.panel, this.card));
    host.element.replaceChildren(this.root);
    this.drawing.addEventListener("click", (event) => this.clicked(event));
    this.drawing.addEventListener("pointerover", (event) => this.hover(event));
    this.drawing.addEventListener("pointerleave", () => hideSteady(this.card));
    this.drawing.addEventListener("pointerdown", (event) => this.pressStart(event));
    this.drawing.addEventListener("pointerup", () => window.clearTimeout(this.pressTimer));
    this.drawing.addEventListener("contextmenu", (event) => event.preventDefault());
    this.drawing.addEventListener("keydown", (event) => this.key(event));
  }

  render(shown: GameView, context: BoardContext): void {
    const view = viewOf(shown, "general");
    if (view !== this.view || this.sentAnswered) {
      this.sentFor = null;
      this.sentAnswered = false;
    }
    this.view = view;
    this.context = context;
    if (view.phase === "setup" && this.setupSince === null) {
      this.setupSince = Date.now();
      this.presetTimer = window.setTimeout(() => this.draw(), PRESETS_AFTER_MS);
    }
    if (!this.moves().some((m) => m.effect.from === this.selected)) this.selected = null;
    this.draw();
  }

  setFlipped(flipped: boolean): void {
    this.flipped = flipped;
    this.draw();
  }

  setToggle(): void {
    // Battlegeneral has no switches.
  }

  destroy(): void {
    window.clearTimeout(this.presetTimer);
    window.clearTimeout(this.pressTimer);
    this.host.element.replaceChildren();
  }

  // ---- what the view says -----------------------------------------------------------
  /** The seat's legal moves, when it may act now. */
  private moves(): GeneralMove[] {
    const moves = this.view.legal_moves;
    const mine = this.context.you !== null && this.view.seat === this.context.you && this.view.phase !== "over";
    if (!mine || !moves || this.sentFor === this.view) return [];
    return moves;
  }

  private setup(): GeneralSetup | null {
    return this.view.phase === "setup" ? this.view.setup ?? null : null;
  }

  private pieces(): GeneralPiece[] {
    return this.view.pieces ?? [];
  }

  private knowledge(): Knowledge {
    const captured = this.view.captured ?? [[], []];
    return { you: this.context.you, pieces: this.pieces(), captured };
  }

  private play(text: string): void {
    this.sentFor = this.view;
    this.sentAnswered = false;
    this.selected = null;
    this.draw();
    this.host.onMove(text);
    this.sentAnswered = true;
  }

  // ---- drawing ----------------------------------------------------------------------
  private xy(square: string): [number, number] {
    const [file, row] = squareParts(square);
    return this.flipped ? [(9 - file) * CELL, (row - 1) * CELL] : [file * CELL, (10 - row) * CELL];
  }

  private draw(): void {
    const lakes = new Set(this.view.lakes ?? []);
    const moves = this.moves();
    const targets = new Map(moves.filter((m) => m.effect.from === this.selected && this.selected !== null).map((m) => [m.effect.to!, m]));
    const last = this.view.last_move;
    const nodes: SVGElement[] = [];
    const setup = this.setup();
    const standing = new Map<string, string>();
    if (setup) {
      for (const [square, token] of Object.entries(setup.own ?? {})) standing.set(square, pieceLabel(this.context.you ?? 0, token));
    } else {
      for (const piece of this.pieces()) standing.set(piece.square, pieceLabel(piece.owner, piece.rank));
    }
    const en = lang() === "en";
    for (let row = 1; row <= 10; row++) {
      for (let file = 0; file < 10; file++) {
        const name = `${FILES[file]}${row}`;
        const [x, y] = this.xy(name);
        const classes = ["square", lakes.has(name) ? "lake" : (file + row) % 2 ? "light" : "dark"];
        if (last && (last.from === name || last.to === name)) classes.push("last-move");
        if (targets.has(name)) classes.push(targets.get(name)!.effect.attack ? "target attack" : "target");
        // Screen readers hear the square, what stands there, and whether a selected piece may go there.
        const what = lakes.has(name) ? (en ? "lake" : "See") : standing.get(name) ?? (en ? "empty" : "leer");
        const target = targets.has(name) ? (en ? ", target" : ", Ziel") : "";
        nodes.push(svg("rect", { x, y, width: CELL, height: CELL, class: classes.join(" "), "data-square": name,
          role: "button", tabindex: name === this.focused ? "0" : "-1", "aria-label": `${name}: ${what}${target}` }));
      }
    }
    const hadFocus = this.drawing.contains(document.activeElement);
    if (setup) {
      for (const [square, token] of Object.entries(setup.own ?? {})) nodes.push(this.pieceNode(square, this.context.you ?? 0, token, []));
    } else {
      for (const piece of this.pieces()) {
        const marks = [piece.scouted ? "scouted" : piece.moved ? "moved" : "", piece.revealed ? "revealed" : ""].filter(Boolean);
        if (piece.square === this.selected) marks.push("selected");
        nodes.push(this.pieceNode(piece.square, piece.owner, piece.rank, marks, piece.id));
      }
    }
    const [ringX, ringY] = this.xy(this.focused);
    nodes.push(svg("rect", { class: "focus-square", x: ringX + 1.5, y: ringY + 1.5, width: CELL - 3, height: CELL - 3 }));
    this.drawing.classList.toggle("interactive", moves.length > 0);
    this.drawing.replaceChildren(...nodes);
    // A redraw replaces the squares: keep the keyboard's place.
    if (hadFocus) this.drawing.querySelector<SVGElement>(`rect[data-square="${this.focused}"]`)?.focus();
    this.drawPanel(setup);
  }

  private pieceNode(square: string, owner: number, rank: string | null, marks: string[], id?: number): SVGElement {
    const [x, y] = this.xy(square);
    const group = svg("g", { class: ["piece", owner === 0 ? "red" : "blue", rank === null ? "hidden-rank" : "", ...marks].filter(Boolean).join(" "), "data-square": square, "data-owner": owner, "data-rank": rank ?? "" });
    if (id !== undefined) group.setAttribute("data-piece", String(id));
    // Screen readers: square, colour and the rank when this side may know it.
    group.setAttribute("aria-label", `${square}: ${pieceLabel(owner, rank)}`);
    group.setAttribute("aria-hidden", "true"); // the square under it carries the same words and takes focus
    group.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 5 }));
    // Every known piece shows its drawn face: Mine, Fahne and Spion their emblem alone, the
    // ranks 2–10 their emblem above their number, so the rank reads at a glance. A hidden
    // enemy piece stays a plain back.
    if (rank === "B" || rank === "F" || rank === "S") {
      const scale = (CELL - 16) / 40;
      group.append(svg("g", { class: "emblem", "data-emblem": rank, transform: `translate(${x + 8} ${y + 8}) scale(${scale})` }, rankEmblem(rank)));
    } else if (rank !== null) {
      const size = 16; // the emblem's box, above the number
      group.append(svg("g", { class: "emblem", "data-emblem": rank, transform: `translate(${x + (CELL - size) / 2} ${y + 5}) scale(${size / 40})` }, rankEmblem(rank)),
        svg("text", { class: "rank", x: x + CELL / 2, y: y + CELL - 6 }, rank));
    }
    if (marks.includes("scouted")) group.append(svg("text", { x: x + CELL - 9, y: y + 13, class: "mark" }, "»"));
    else if (marks.includes("moved") && rank === null) group.append(svg("circle", { cx: x + CELL - 9, cy: y + 9, r: 3, class: "mark" }));
    return group;
  }

  private drawPanel(setup: GeneralSetup | null): void {
    const language = lang();
    const parts: Node[] = [];
    if (setup) parts.push(...this.setupPanel(setup));
    else {
      const fight = this.lastFight();
      if (fight) parts.push(el("p", { class: "general-fight", "data-testid": "fight" }, fight));
      const captured = this.knowledge().captured;
      for (const seat of [0, 1]) {
        const tokens = [...(captured[seat] ?? [])].map((p) => p.rank).sort((a, b) => TOKENS.indexOf(a as never) - TOKENS.indexOf(b as never));
        parts.push(el("p", { class: "general-captured", "data-testid": `captured-${seat}` },
          `${t("captured")} ${SEAT_NAMES[seat][language]} (${tokens.length}): ${tokens.map((r) => rankName(r, language)).join(", ") || "–"}`));
      }
    }
    this.panel.replaceChildren(...parts);
  }

  /** The last move's fight, both ranks (public to both; the history annotates it "a4xa5 (7:5)"). */
  private lastFight(): string | null {
    const last = this.view.last_move;
    const history = this.view.history ?? [];
    const match = last?.fight ? /\((\w+):(\w+)\)$/.exec(history.at(-1) ?? "") : null;
    if (!last || !match) return null;
    const language = lang();
    const [, attacker, defender] = match;
    return `${t("fight")}: ${rankName(attacker, language)} (${attacker}, ${SEAT_NAMES[last.seat][language]}) ${t("against")} ${rankName(defender, language)} (${defender}, ${SEAT_NAMES[1 - last.seat][language]})`;
  }

  private setupPanel(setup: GeneralSetup): Node[] {
    const you = this.context.you;
    if (you === null || setup.own === null) {
      return [el("p", {}, `${t("setupTitle")}: ${setup.ready.map((r, seat) => `${SEAT_NAMES[seat][lang()]} ${r ? "✓" : "…"}`).join(" · ")}`)];
    }
    const moves = this.moves();
    const parts: Node[] = [el("h3", {}, t("setupTitle"))];
    parts.push(el("p", { class: "opponent-setup", "data-testid": "opponent-setup" }, setup.ready[1 - you] ? t("opponentReady") : t("opponentSetting")));
    if (setup.ready[you]) {
      parts.push(el("p", { "data-testid": "setup-waiting" }, t("waiting")));
      parts.push(el("p", { class: "hint", "data-testid": "setup-time-rule" }, SETUP_TIME_RULE[lang()]));
      return parts;
    }
    parts.push(el("p", { class: "hint", "data-testid": "setup-time-rule" }, SETUP_TIME_RULE[lang()]));
    parts.push(el("p", { class: "hint" }, t("setupHint")));
    if (setup.next_piece) parts.push(el("p", { "data-testid": "next-piece" }, `${t("next")}: ${rankName(setup.next_piece, lang())} (${setup.next_piece})`));
    const remaining = Object.entries(setup.remaining ?? {}).filter(([, n]) => n > 0).map(([token, n]) => `${n}× ${token}`);
    if (remaining.length) parts.push(el("p", { class: "remaining", "data-testid": "remaining" }, remaining.join("  ")));
    if (moves.some((m) => m.text === "fertig")) {
      const done = el("button", { type: "button", class: "primary", "data-testid": "setup-ready" }, t("ready"));
      done.addEventListener("click", () => this.play("fertig"));
      parts.push(done);
    }
    const shown = this.setupSince !== null && Date.now() - this.setupSince >= PRESETS_AFTER_MS;
    if (shown) {
      const list = el("div", { class: "presets", "data-testid": "presets" }, el("h4", {}, t("presets")));
      for (const name of setup.standard_setups) {
        const text = `aufstellung ${name}`;
        const button = el("button", { type: "button", "data-preset": name, disabled: !moves.some((m) => m.text === text) }, name);
        button.addEventListener("click", () => this.play(text));
        list.append(button);
      }
      const mirror = el("button", { type: "button", "data-testid": "mirror", disabled: !moves.some((m) => m.text === "spiegeln") }, `⇆ ${t("mirror")}`);
      mirror.addEventListener("click", () => this.play("spiegeln"));
      list.append(mirror);
      parts.push(list);
    }
    return parts;
  }

  // ---- input ------------------------------------------------------------------------
  private squareOf(event: Event): string | null {
    const node = (event.target as Element).closest<SVGElement>("[data-square]");
    return node?.dataset.square ?? null;
  }

  private clicked(event: MouseEvent): void {
    if (this.pressedLong) {
      this.pressedLong = false; // a long press showed the Karten-Info, it does not move
      return;
    }
    const square = this.squareOf(event);
    if (square) this.activate(square);
  }

  /** A click or Enter/Space on ``square``: place, take back, select, or move. */
  private activate(square: string): void {
    this.focused = square;
    const moves = this.moves();
    const setup = this.setup();
    if (setup) {
      const own = setup.own ?? {};
      const text = own[square] !== undefined ? `entferne ${square}` : setup.next_piece ? `setze ${square} ${setup.next_piece}` : null;
      if (text && moves.some((m) => m.text === text)) this.play(text);
      return;
    }
    const target = moves.find((m) => m.effect.from === this.selected && m.effect.to === square);
    if (target) {
      this.play(target.text);
      return;
    }
    this.selected = moves.some((m) => m.effect.from === square) && this.selected !== square ? square : null;
    this.draw();
  }

  /** Arrow keys walk the squares as drawn (a turned board turns them too); Enter or Space act like a click. */
  private key(event: KeyboardEvent): void {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const square = (event.target as Element).closest<SVGElement>("rect[data-square]")?.dataset.square;
    if (!square) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(square);
      return;
    }
    if (event.key === "Escape" && this.selected !== null) {
      this.selected = null;
      this.draw();
      return;
    }
    const step = ({ ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] } as Record<string, [number, number]>)[event.key];
    if (!step) return;
    event.preventDefault();
    const [file, row] = squareParts(square);
    const turn = this.flipped ? -1 : 1;
    const nextFile = Math.min(9, Math.max(0, file + step[0] * turn));
    const nextRow = Math.min(10, Math.max(1, row + step[1] * turn));
    this.focused = `${FILES[nextFile]}${nextRow}`;
    for (const rect of this.drawing.querySelectorAll<SVGElement>("rect[data-square]")) {
      rect.setAttribute("tabindex", rect.dataset.square === this.focused ? "0" : "-1");
    }
    const [ringX, ringY] = this.xy(this.focused);
    this.drawing.querySelector(".focus-square")?.setAttribute("x", String(ringX + 1.5));
    this.drawing.querySelector(".focus-square")?.setAttribute("y", String(ringY + 1.5));
    this.drawing.querySelector<SVGElement>(`rect[data-square="${this.focused}"]`)?.focus();
    this.showCard(this.pieceOn(this.focused));
  }

  private pieceOn(square: string): GeneralPiece | null {
    const setup = this.setup();
    const token = setup?.own?.[square];
    if (setup) return token && this.context.you !== null ? { id: -1, owner: this.context.you, rank: token, moved: false, scouted: false, revealed: false, square } : null;
    return this.pieces().find((p) => p.square === square) ?? null;
  }

  private pieceAt(event: Event): GeneralPiece | null {
    const node = (event.target as Element).closest<SVGElement>("[data-piece]");
    if (node) return this.pieces().find((p) => String(p.id) === node.dataset.piece) ?? null;
    const square = this.squareOf(event);
    const setup = this.setup();
    const token = square ? setup?.own?.[square] : undefined;
    if (!square || !token || this.context.you === null) return null;
    return { id: -1, owner: this.context.you, rank: token, moved: false, scouted: false, revealed: false, square };
  }

  private showCard(piece: GeneralPiece | null): void {
    if (!piece) {
      hideSteady(this.card);
      return;
    }
    const info = cardInfo(piece, this.knowledge(), lang());
    const face = pieceFace(piece.rank, piece.owner ?? 0, piece.rank === null ? info.title : rankName(piece.rank, lang()));
    this.card.replaceChildren(el("div", { class: "general-card-face", "data-testid": "card-info-face" }, face),
      el("div", {}, el("strong", {}, info.title), ...info.lines.map((line) => el("div", {}, line))));
    showSteady(this.card);
  }

  private hover(event: PointerEvent): void {
    if (event.pointerType === "mouse") this.showCard(this.pieceAt(event));
  }

  private pressStart(event: PointerEvent): void {
    this.pressedLong = false;
    if (event.pointerType === "mouse") return;
    const piece = this.pieceAt(event);
    window.clearTimeout(this.pressTimer);
    this.pressTimer = window.setTimeout(() => {
      this.pressedLong = true;
      this.showCard(piece);
    }, LONG_PRESS_MS);
  }
}

function pieceLabel(owner: number, rank: string | null): string {
  const en = lang() === "en";
  const colour = owner === 0 ? (en ? "Red" : "Rot") : en ? "Blue" : "Blau";
  const what = rank === null ? (en ? "hidden" : "verdeckt") : rank === "B" ? (en ? "mine" : "Mine") : rank === "F" ? (en ? "flag" : "Fahne") : rank;
  return `${colour}, ${what}`;
}

export const generalBoard: BoardFactory = (host) => new GeneralBoard(host);
