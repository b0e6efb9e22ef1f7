// #/computer and #/zuzweit: start a table alone. Against the computer: strength, the
// game's options, ⇄ colour (the computer begins when it takes the first colour), and your
// record per strength from this device. Same device: the options and an optional chess clock.
import type { Board } from "../boards/board";
import { boardFor } from "../boards/index";
import { el } from "../dom";
import { lang } from "../i18n";
import type { GameView, TableClockSetting } from "../protocol";
import { openLocalTable } from "./new_local_table";
import { colourName, GAME_TITLES } from "../table/seat_names";
import { tt } from "../table/texts";
import { computerRecord } from "../solo/computer_record";
import { st } from "../solo/review_texts";

type Mode = "computer" | "same_device";
type Strength = "leicht" | "mittel" | "stark";
type Choice = { value: string; de: string; en: string };

/** The options each game offers here, as the seeds name them (first entry = default). */
const GAME_OPTIONS: Record<string, Array<{ key: string; label: "map" | "endRule" | "layout" | "winTarget" | "moveLimitOption"; choices: Choice[] }>> = {
  hexagon: [
    { key: "map", label: "map", choices: [
      { value: "klassisch", de: "Klassisch", en: "Classic" },
      { value: "dreiloch", de: "Dreiloch", en: "Three holes" },
      { value: "krater", de: "Krater", en: "Crater" },
      { value: "burggraben", de: "Burggraben", en: "Moat" },
      { value: "saeulen", de: "Säulen", en: "Pillars" },
      { value: "zufall", de: "Zufall", en: "Random" },
    ] },
    { key: "end_rule", label: "endRule", choices: [
      { value: "auffuellen", de: "Auffüllen", en: "Fill up" },
      { value: "aussetzen", de: "Aussetzen", en: "Pass" },
    ] },
  ],
  bullet: [
    { key: "layout", label: "layout", choices: [
      { value: "standard", de: "Standard", en: "Standard" },
      { value: "belgisch", de: "Belgisches Gänseblümchen", en: "Belgian Daisy" },
      { value: "deutsch", de: "Deutsches Gänseblümchen", en: "German Daisy" },
    ] },
    { key: "win_target", label: "winTarget", choices: [
      { value: "6", de: "6 Kugeln", en: "6 marbles" },
      { value: "4", de: "4 Kugeln", en: "4 marbles" },
    ] },
    { key: "move_limit", label: "moveLimitOption", choices: [
      { value: "", de: "aus", en: "off" },
      { value: "100", de: "100 Züge", en: "100 moves" },
    ] },
  ],
  general: [], // no options: 40 pieces, set up at the table (seed 002)
  hanse: [], // two Ratssiegel win a match (the engine's default)
};

const CLOCKS: Array<[string, TableClockSetting | null]> = [
  ["ohne", null],
  ["3+2", { base_ms: 180_000, inc_ms: 2_000 }],
  ["5+3", { base_ms: 300_000, inc_ms: 3_000 }],
  ["10+5", { base_ms: 600_000, inc_ms: 5_000 }],
  ["15+10", { base_ms: 900_000, inc_ms: 10_000 }],
];

const STRENGTHS: Strength[] = ["leicht", "mittel", "stark"];

function select(name: string, choices: Array<{ value: string; text: string }>, value: string): HTMLSelectElement {
  const node = el("select", { name, "data-testid": `option-${name}` });
  for (const choice of choices) node.append(el("option", { value: choice.value, selected: choice.value === value }, choice.text));
  return node;
}

export class StartPanel {
  readonly root = el("main", { class: "start-panel" });
  private game = "hexagon";
  private seat = 0;
  private readonly problem = el("p", { class: "form-error", role: "alert", "data-testid": "start-error" });
  private readonly preview = el("div", { class: "option-preview", "data-testid": "preview" });
  private previewBoard: Board | null = null;
  private previewAsked = 0; // answers to older requests are dropped

  constructor(private readonly mode: Mode) {
    this.draw();
  }

  private draw(): void {
    const form = el("form", { class: "card start-form", "data-testid": `start-${this.mode}` });
    form.append(el("h2", {}, this.mode === "computer" ? tt("againstComputer") : tt("sameDevice")));
    const games = el("div", { class: "game-choice", role: "radiogroup" });
    for (const game of Object.keys(GAME_OPTIONS)) {
      const button = el("button", { type: "button", "aria-pressed": String(game === this.game), "data-game": game, "data-testid": `game-${game}` }, GAME_TITLES[game]);
      button.addEventListener("click", () => {
        this.game = game;
        this.draw();
      });
      games.append(button);
    }
    form.append(games);
    const fields: Array<[string, HTMLSelectElement]> = [];
    for (const option of GAME_OPTIONS[this.game]) {
      const field = select(option.key, option.choices.map((c) => ({ value: c.value, text: lang() === "en" ? c.en : c.de })), option.choices[0].value);
      fields.push([option.key, field]);
      form.append(el("label", {}, el("span", {}, tt(option.label)), field));
    }
    const readOptions = (): Record<string, unknown> => {
      const options: Record<string, unknown> = {};
      for (const [key, field] of fields) {
        options[key] = key === "win_target" ? Number(field.value) : key === "move_limit" ? (field.value ? Number(field.value) : null) : field.value;
      }
      return options;
    };
    for (const [, field] of fields) field.addEventListener("change", () => void this.showPreview(readOptions()));
    form.append(this.preview);
    void this.showPreview(readOptions());
    let strength: HTMLSelectElement | null = null;
    if (this.mode === "computer") {
      strength = select("strength", STRENGTHS.map((s) => ({ value: s, text: tt(s) })), "mittel");
      form.append(el("label", {}, el("span", {}, tt("strength")), strength));
      const swap = el("button", { type: "button", "data-testid": "swap" }, tt("swapColours"));
      swap.addEventListener("click", () => {
        this.seat = 1 - this.seat;
        this.draw();
      });
      form.append(el("p", { class: "colour-line", "data-testid": "your-colour" }, `${tt("youPlay")}: ${colourName(this.game, this.seat)} `, swap));
    }
    let clock: HTMLSelectElement | null = null;
    if (this.mode === "same_device") {
      clock = select("clock", CLOCKS.map(([name]) => ({ value: name, text: name === "ohne" ? tt("noClock") : name })), "ohne");
      form.append(el("label", {}, el("span", {}, tt("clock")), clock));
    }
    const start = el("button", { type: "submit", class: "primary big", "data-testid": "start" }, tt("start"));
    form.append(this.problem, start);
    if (this.mode === "computer") form.append(this.recordTable());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const options = readOptions();
      const chosenClock = clock ? CLOCKS.find(([name]) => name === clock!.value)?.[1] ?? null : null;
      void this.start(start, options, (strength?.value as Strength | undefined) ?? null, chosenClock);
    });
    this.root.replaceChildren(form);
  }

  /** The start position for these options, drawn by the game's board (the lobby's preview route);
   * "?" where it is drawn only at the start (Zufall). */
  private async showPreview(options: Record<string, unknown>): Promise<void> {
    const asked = ++this.previewAsked;
    const factory = boardFor(this.game);
    let view: GameView | null = null;
    try {
      const response = await fetch(`/api/games/${this.game}/preview?options=${encodeURIComponent(JSON.stringify(options))}`, { credentials: "same-origin", headers: { "X-Lang": lang() } });
      view = response.ok ? ((await response.json()) as { view: GameView | null }).view : null;
    } catch {
      view = null;
    }
    if (asked !== this.previewAsked) return;
    this.previewBoard?.destroy();
    this.previewBoard = null;
    if (!view || !factory) {
      this.preview.replaceChildren(el("span", { class: "unknown" }, "?"));
      return;
    }
    this.previewBoard = factory({ element: this.preview, onMove: () => undefined });
    this.previewBoard.render(view, { you: null, interactive: false, lastMove: null });
  }

  private recordTable(): HTMLElement {
    // Battlehanse has the Tipp: matches with one do not count and are shown apart.
    const withHints = this.game === "hanse";
    const rows = STRENGTHS.map((s) => {
      const record = computerRecord(this.game, s);
      const row = el("tr", { "data-testid": `record-${s}` }, el("th", {}, tt(s)), el("td", {}, String(record.win)), el("td", {}, String(record.draw)), el("td", {}, String(record.loss)));
      if (withHints) row.append(el("td", { "data-testid": `record-hinted-${s}` }, s === "stark" ? "–" : String(record.hinted)));
      return row;
    });
    const head = el("tr", {}, el("th"), el("th", {}, tt("winsShort")), el("th", {}, tt("drawsShort")), el("th", {}, tt("lossesShort")));
    if (withHints) head.append(el("th", { title: st("hintTitle") }, st("withHint")));
    return el("table", { class: "local-record" }, el("caption", {}, tt("balance")), head, ...rows);
  }

  private async start(button: HTMLButtonElement, options: Record<string, unknown>, strength: Strength | null, clock: TableClockSetting | null): Promise<void> {
    button.disabled = true;
    this.problem.textContent = "";
    try {
      const gameId = await openLocalTable({
        game: this.game as "hexagon" | "bullet" | "general" | "hanse",
        mode: this.mode,
        options,
        strength: this.mode === "computer" ? strength : null,
        seat: this.mode === "computer" ? this.seat : null,
        clock: this.mode === "same_device" ? clock : null,
      });
      location.hash = `#/partie/${gameId}`;
    } catch (error) {
      this.problem.textContent = error instanceof Error ? error.message : String(error);
      button.disabled = false;
    }
  }
}
