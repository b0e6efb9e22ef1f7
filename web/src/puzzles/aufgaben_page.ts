// #/aufgaben/<game>: rated puzzles of Battlehexagon, Battlebullet and Battlegeneral. The board is
// the table's (BoardStage): the player moves as at the table, the server judges each move
// against the stored line and answers with the forced reply. Only when the attempt ends does
// the answer carry the solution, which the page then steps through (animated, or by hand).
import "./aufgaben.css";
import { ApiError, lobbyJson } from "../api";
import { el } from "../dom";
import { lang, onLangChange, signed } from "../i18n";
import { gameLabel } from "../profile/game_marks";
import type { GameView, PuzzleAttempt, PuzzlesOverview } from "../protocol";
import { BoardStage } from "../table/board_stage";
import { PUZZLE_GAMES, puzzlesHref } from "./aufgaben_links";
import { at, sideName } from "./texts";

type Mode = "rated" | "streak" | "daily";
const STEP_MS = 900; // one solution move per this long when the solution plays by itself
const REPLY_MS = 600; // a right move stands this long before the reply is shown
const MIN_BOARD_PX = 260; // below this the board is too small to play: the page scrolls instead

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class PuzzlesPage {
  readonly root = el("main", { class: "aufgaben-page card", "data-testid": "aufgaben-page" });
  private readonly head = el("div", { class: "aufgaben-head" });
  private readonly task = el("p", { class: "aufgabe-task", "data-testid": "aufgabe-task" });
  private readonly status = el("p", { class: "aufgabe-status", "data-testid": "aufgabe-status", "aria-live": "polite" });
  private readonly problem = el("p", { class: "form-error", role: "alert", "data-testid": "aufgabe-error" });
  private readonly result = el("section", { class: "aufgabe-result", "data-testid": "aufgabe-result" });
  private readonly boardWrap = el("div", { class: "aufgabe-board-wrap", "data-testid": "aufgabe-board" });
  private readonly controls = el("div", { class: "aufgaben-controls" });
  private readonly rule = el("p", { class: "hint aufgaben-rule" });
  private readonly side = el("aside", { class: "aufgaben-side" });
  private readonly body = el("div", { class: "aufgaben-body" }, this.boardWrap, this.side);
  private readonly onResize = () => this.fitBoard();
  private readonly stage: BoardStage;
  private overview: PuzzlesOverview | null = null;
  private attempt: PuzzleAttempt | null = null;
  private mode: Mode = "rated";
  private theme = "";
  private sending = false;
  private replyFrom: { view: GameView; move: string } | null = null; // a right move, before its reply
  private replyTimer = 0;
  private step = 0; // the solution step shown once the attempt has ended
  private timer = 0;
  private closed = false;
  private readonly stopLang: () => void;

  constructor(private readonly game: string) {
    this.stage = new BoardStage(game, (text) => void this.move(text));
    this.boardWrap.append(this.stage.host);
    this.stopLang = onLangChange(() => this.draw());
    window.addEventListener("resize", this.onResize);
    this.draw();
    void this.load();
  }

  close(): void {
    this.closed = true;
    window.removeEventListener("resize", this.onResize);
    window.clearInterval(this.timer);
    window.clearTimeout(this.replyTimer);
    this.stopLang();
    this.stage.destroy();
  }

  private async load(): Promise<void> {
    try {
      this.overview = await lobbyJson<PuzzlesOverview>(`/api/aufgaben/${this.game}/uebersicht`);
      if (this.closed) return;
      await this.fetchAttempt();
    } catch (error) {
      this.problem.textContent = message(error);
      this.draw();
    }
  }

  private async fetchAttempt(): Promise<void> {
    window.clearInterval(this.timer);
    this.problem.textContent = "";
    const query = new URLSearchParams();
    if (this.mode === "streak") query.set("modus", "serie");
    if (this.mode !== "daily" && this.theme) query.set("thema", this.theme);
    const path = this.mode === "daily" ? `/api/aufgaben/${this.game}/daily` : `/api/aufgaben/${this.game}${query.size ? `?${query}` : ""}`;
    try {
      this.attempt = await lobbyJson<PuzzleAttempt>(path);
      this.step = 0;
      this.stage.setFlipped(this.stage.turnedFor(this.attempt.seat));
    } catch (error) {
      this.attempt = null;
      this.problem.textContent = message(error);
    }
    if (!this.closed) this.draw();
  }

  private async move(text: string): Promise<void> {
    const attempt = this.attempt;
    if (!attempt || attempt.status !== "open" || this.sending) return;
    this.sending = true;
    this.problem.textContent = "";
    this.status.textContent = at("sending");
    try {
      this.attempt = await lobbyJson<PuzzleAttempt>(`/api/aufgaben/${this.game}/versuch/${attempt.attempt_id}`, { ply: attempt.ply, move: text });
      if (this.attempt.reply_from) {
        this.replyFrom = { view: this.attempt.reply_from, move: text };
        window.clearTimeout(this.replyTimer);
        this.replyTimer = window.setTimeout(() => {
          this.replyFrom = null;
          if (!this.closed) this.draw();
        }, REPLY_MS);
      }
      if (this.attempt.status !== "open") await this.refreshOverview();
      if (this.attempt.status === "failed") this.playSolution(true);
    } catch (error) {
      this.problem.textContent = message(error);
      if (error instanceof ApiError && (error.info.code === "aufgabe_stale" || error.info.code === "aufgabe_over")) {
        this.problem.append(" ", this.button("aufgabe-reload", at("reload"), () => void this.fetchAttempt()));
      }
    } finally {
      this.sending = false;
      if (!this.closed) this.draw();
    }
  }

  private async refreshOverview(): Promise<void> {
    try {
      this.overview = await lobbyJson<PuzzlesOverview>(`/api/aufgaben/${this.game}/uebersicht`);
    } catch {
      // the attempt itself says what changed; the head keeps the previous figures
    }
  }

  /** The solution from its start, one move per STEP_MS; after a wrong move that move stays on
   * the board for one step first (step -1). */
  private playSolution(afterWrongMove = false): void {
    window.clearInterval(this.timer);
    this.step = afterWrongMove ? -1 : 0;
    this.timer = window.setInterval(() => {
      const views = this.attempt?.solution_views ?? [];
      if (this.closed || this.step >= views.length - 1) {
        window.clearInterval(this.timer);
        return;
      }
      this.step += 1;
      this.draw();
    }, STEP_MS);
  }

  private button(testid: string, text: string, action: () => void): HTMLButtonElement {
    const button = el("button", { type: "button", "data-testid": testid }, text);
    button.addEventListener("click", action);
    return button;
  }

  /** Beside the panel (a wide window) the board takes the window's height below its top, so that
   * the whole page fits without scrolling; stacked (a narrow one) it keeps a height of its own. */
  private fitBoard(): void {
    if (!this.boardWrap.isConnected) return;
    if (!window.matchMedia("(min-width: 56rem)").matches) {
      this.boardWrap.style.height = "";
      return;
    }
    const top = this.boardWrap.getBoundingClientRect().top + window.scrollY;
    const height = Math.max(MIN_BOARD_PX, window.innerHeight - top);
    this.boardWrap.style.height = `${height}px`;
    // What lies below the board (the card's padding, the page's margin) is measured, not guessed.
    const excess = document.documentElement.scrollHeight - window.innerHeight;
    if (excess > 0) this.boardWrap.style.height = `${Math.max(MIN_BOARD_PX, height - excess)}px`;
  }

  private draw(): void {
    this.drawHead();
    const attempt = this.attempt;
    const panel: Node[] = [];
    if (attempt) {
      const side = `${at("toMove")}: ${sideName(this.game, attempt.seat)} (${at("you")})`;
      this.task.replaceChildren(el("strong", {}, lang() === "en" ? attempt.task.en : attempt.task.de), " · ",
        el("span", { "data-testid": "aufgabe-side" }, side));
      this.drawStatus(attempt);
      this.drawBoard(attempt);
      this.drawResult(attempt);
      panel.push(this.task, this.status, this.problem, this.controls);
      // The rule explains the start; once the attempt has ended its result needs the room.
      if (attempt.status === "open") panel.push(this.rule);
      panel.push(this.result);
    } else {
      panel.push(this.problem, this.controls, this.rule);
    }
    this.side.replaceChildren(...panel);
    this.root.replaceChildren(this.head, ...(attempt ? [this.body] : panel));
    this.fitBoard();
    // Which attempt the page shows, for tests and tools (nothing a player could not know).
    this.root.dataset.attempt = attempt ? String(attempt.attempt_id) : "";
    this.root.dataset.puzzle = attempt?.puzzle_id ?? "";
    this.root.dataset.ply = attempt ? String(attempt.ply) : "";
  }

  private drawHead(): void {
    const tabs = el("nav", { class: "aufgaben-tabs" }, ...[...PUZZLE_GAMES, "hanse"].flatMap((game, i) => [i > 0 ? " · " : "",
      el("a", { href: puzzlesHref(game), "aria-current": game === this.game ? "page" : undefined, "data-testid": `aufgaben-tab-${game}` }, gameLabel(game))]));
    const modes = el("div", { class: "aufgaben-modes", role: "group" }, ...(["rated", "streak", "daily"] as Mode[]).map((mode) => {
      const button = this.button(`aufgabe-mode-${mode}`, at(mode), () => {
        if (this.mode === mode) return;
        this.mode = mode;
        void this.fetchAttempt();
      });
      button.setAttribute("aria-pressed", String(this.mode === mode));
      return button;
    }));
    const themes = el("select", { "data-testid": "aufgabe-theme", "aria-label": at("theme"), disabled: this.mode === "daily" },
      el("option", { value: "" }, at("allThemes")),
      ...(this.overview?.themes ?? []).map((t) => el("option", { value: t.key, selected: t.key === this.theme }, lang() === "en" ? t.en : t.de)));
    themes.addEventListener("change", () => {
      this.theme = themes.value;
      if (this.attempt?.status !== "open") void this.fetchAttempt();
      else this.status.textContent = at("themeNext");
    });
    const figures = el("span", { class: "aufgaben-figures" });
    const rating = this.attempt?.player ?? this.overview?.player;
    if (rating) figures.append(el("span", { "data-testid": "aufgabe-player-rating", "data-rating": String(rating.rating) },
      `${at("yourRating")}: ${rating.rating} ±${rating.rd}`));
    const streak = this.attempt?.streak ?? this.overview?.streak;
    if (streak) figures.append(" · ", el("span", { "data-testid": "aufgabe-streak", "data-length": String(streak.length) },
      `${at("streakNow")}: ${streak.length} (${at("streakBest")}: ${streak.best})`));
    if (this.overview) figures.append(" · ", el("span", { "data-testid": "aufgaben-count" }, `${this.overview.count.toLocaleString(lang())} ${at("count")}`));
    this.rule.textContent = this.mode === "streak" ? at("streakRule") : this.mode === "daily" ? at("dailyRule") : at("intro");
    this.controls.replaceChildren(modes, el("label", {}, `${at("theme")}: `, themes));
    this.head.replaceChildren(tabs, el("div", { class: "aufgaben-title" }, el("h2", {}, `${at("puzzlesFor")}: ${gameLabel(this.game)}`), figures));
  }

  private drawStatus(attempt: PuzzleAttempt): void {
    this.status.dataset.status = attempt.status;
    if (attempt.status === "solved") this.status.textContent = at("solved");
    else if (attempt.status === "failed") this.status.textContent = `${at("wrongWas")} ${attempt.wrong_move ?? ""}: ${at(attempt.solution_from ? "failedSealed" : "failed")}`;
    else if (attempt.ply > 0 && attempt.last_move) this.status.textContent = `${at("rightMove")}: ${attempt.last_move}. ${at("yourMove")}`;
    else this.status.textContent = at("yourMove");
  }

  private drawBoard(attempt: PuzzleAttempt): void {
    const views = attempt.solution_views;
    const interactive = attempt.status === "open" && !this.sending && !this.replyFrom;
    this.boardWrap.dataset.interactive = String(interactive);
    if (attempt.status === "failed" && views && views.length > 0) {
      // The solution replaces the wrong move on the board, step by step.
      if (this.step >= 0) {
        const step = Math.min(this.step, views.length - 1);
        this.stage.render(views[step], { you: attempt.seat, interactive: false, lastMove: step > 0 ? attempt.solution![step - 1] : null });
        return;
      }
    }
    if (this.replyFrom) {
      this.stage.render(this.replyFrom.view, { you: attempt.seat, interactive: false, lastMove: this.replyFrom.move });
      return;
    }
    this.stage.render(attempt.view, { you: attempt.seat, interactive, lastMove: attempt.last_move });
  }

  private drawResult(attempt: PuzzleAttempt): void {
    if (attempt.status === "open") {
      this.result.replaceChildren();
      return;
    }
    const items: Node[] = [];
    const change = attempt.change;
    if (change) {
      items.push(el("p", { "data-testid": "aufgabe-rating-change", "data-after": String(change.player_after) },
        `${at("yourRating")}: ${change.player_before} → ${change.player_after} (${signed(change.player_after - change.player_before)})`));
      items.push(el("p", { "data-testid": "aufgabe-puzzle-rating", "data-after": String(change.puzzle_after) },
        `${at("puzzleRating")}: ${change.puzzle_before} → ${change.puzzle_after}`));
    } else {
      items.push(el("p", { "data-testid": "aufgabe-practice" }, at("practice")));
      if (attempt.puzzle_rating !== null) items.push(el("p", { "data-testid": "aufgabe-puzzle-rating", "data-after": String(attempt.puzzle_rating) },
        `${at("puzzleRating")}: ${attempt.puzzle_rating}`));
    }
    if (attempt.solution_from) items.push(el("p", { "data-testid": "aufgabe-solution-tomorrow" }, at("solutionTomorrow")));
    if (attempt.themes.length > 0) items.push(el("p", { "data-testid": "aufgabe-themes" },
      `${at("themes")}: ${attempt.themes.map((t) => (lang() === "en" ? t.en : t.de)).join(", ")}`));
    const line = attempt.solution ?? [];
    const views = attempt.solution_views ?? [];
    if (attempt.status === "failed" && views.length > 0) {
      const go = (step: number) => {
        window.clearInterval(this.timer);
        this.step = Math.max(0, Math.min(step, views.length - 1));
        this.draw();
      };
      // The solver's moves and, marked, the opponent's replies between them.
      items.push(el("ol", { class: "aufgabe-solution", "data-testid": "aufgabe-solution", "aria-label": at("solution") },
        ...line.map((text, i) => {
          const reply = i % 2 === 1;
          return el("li", { class: [i + 1 === this.step ? "current" : "", reply ? "reply" : ""].join(" ").trim() || undefined,
            "data-testid": "aufgabe-solution-move", "data-reply": String(reply) },
            `${i + 1}. ${sideName(this.game, reply ? 1 - attempt.seat : attempt.seat)}${reply ? ` (${at("reply")})` : ""}: ${text}`);
        })));
      items.push(el("p", { class: "aufgabe-steps" },
        this.button("aufgabe-step-start", at("start"), () => go(0)), " ",
        this.button("aufgabe-step-back", at("back"), () => go(this.step - 1)), " ",
        el("span", { "data-testid": "aufgabe-step", "data-step": String(Math.max(this.step, 0)) }, `${Math.max(this.step, 0)} / ${views.length - 1}`), " ",
        this.button("aufgabe-step-forward", at("forward"), () => go(this.step + 1)), " ",
        this.button("aufgabe-step-play", at("replay"), () => { this.playSolution(); this.draw(); })));
    }
    if (this.mode === "daily") items.push(el("p", {}, at("dailyDone")));
    else {
      const nextText = this.mode === "streak" && attempt.status === "failed" ? at("newStreak") : at("next");
      items.push(el("p", {}, this.button("aufgabe-next", nextText, () => void this.fetchAttempt())));
    }
    this.result.replaceChildren(...items);
  }
}

/** The page for ``#/aufgaben/<game>``, or null for a game without puzzles here. */
export function puzzlesPageFor(game: string | undefined): PuzzlesPage | null {
  return game && (PUZZLE_GAMES as readonly string[]).includes(game) ? new PuzzlesPage(game) : null;
}
