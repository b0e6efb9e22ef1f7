// #/handelsaufgaben: the 24 Battlehanse puzzles with your stars; #/handelsaufgaben/<id>: one
// puzzle on the Battlehanse board. You choose as in the game and press its button; the server
// judges the move (the board only offers the view's legal moves) and keeps your best stars.
import "./solo.css";
import type { Board } from "../boards/board";
import { describeMove } from "../boards/hanse";
import { boardFor } from "../boards/index";
import { el } from "../dom";
import type { GameView, Puzzle, PuzzleAnswer, PuzzleList, PuzzleMoveValue } from "../protocol";
import { lobbyJson } from "../api";
import { soloTabs } from "./solo_nav";
import { st, starMarks } from "./texts";

type Kind = "punkte" | "bester_zug";

function kindName(kind: Kind): string {
  return st(kind === "punkte" ? "kind_punkte" : "kind_bester_zug");
}

/** "Punkte 3" from "punkte-03". */
function title(id: string, kind: Kind): string {
  return `${kindName(kind)} ${Number(id.split("-").pop())}`;
}

/** A move in words, as the Handelskasten says it ("Du verkaufst 3 Pelz: …"), from the view's effect. */
function moveWords(view: GameView, text: string): string {
  const found = view.game === "hanse" ? view.legal_moves.find((m) => m.text === text) : undefined;
  return found ? describeMove(found.effect) : text;
}

function formatValue(value: unknown): string {
  const n = Number(value);
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

export class PuzzleListPage {
  readonly root = el("main", { class: "solo-page card", "data-testid": "puzzles-page" });
  private closed = false;

  constructor() {
    void this.load();
  }

  close(): void {
    this.closed = true;
  }

  private async load(): Promise<void> {
    const problem = el("p", { class: "form-error", role: "alert" });
    try {
      const list = await lobbyJson<PuzzleList>("/api/handelsaufgaben");
      if (this.closed) return;
      const section = (kind: Kind) => el("section", {},
        el("h3", {}, kindName(kind)),
        el("p", {}, st(kind === "punkte" ? "task_punkte" : "task_bester_zug")),
        el("ul", { class: "puzzle-grid" }, ...list.puzzles.filter((p) => p.kind === kind).map((p) =>
          el("li", {}, el("a", { href: `#/handelsaufgaben/${p.id}`, "data-testid": `puzzle-link-${p.id}`, "data-stars": String(p.stars) },
            title(p.id, p.kind), " ", el("span", { class: "stars" }, starMarks(p.stars)))))));
      this.root.replaceChildren(soloTabs("handelsaufgaben"), el("h2", {}, st("puzzles")),
        el("p", { "data-testid": "puzzle-total" }, `${st("starsTotal")}: ${list.stars} / ${list.max_stars}`),
        el("p", { "data-testid": "puzzle-rating", "data-rating": String(list.rating.rating) }, `${st("puzzleRating")}: ${list.rating.rating} ±${list.rating.rd}`),
        el("p", { class: "hint" }, st("ratingRule")),
        el("p", {}, st("howTo")), section("punkte"), section("bester_zug"));
    } catch (error) {
      problem.textContent = error instanceof Error ? error.message : String(error);
      this.root.replaceChildren(soloTabs("handelsaufgaben"), problem);
    }
  }
}

export class PuzzlePage {
  readonly root = el("main", { class: "solo-page card", "data-testid": "puzzle-page" });
  private readonly boardHost = el("div", { class: "puzzle-board" });
  private readonly result = el("section", { class: "puzzle-result", "data-testid": "puzzle-result" });
  private readonly problem = el("p", { class: "form-error", role: "alert", "data-testid": "puzzle-error" });
  private readonly bestStars = el("span", { class: "stars", "data-testid": "puzzle-best-stars" });
  private board: Board | null = null;
  private puzzle: Puzzle | null = null;
  private next: string | null = null;
  private sending = false;

  constructor(private readonly id: string) {
    void this.load();
  }

  close(): void {
    this.board?.destroy();
    this.board = null;
  }

  private async load(): Promise<void> {
    try {
      const [puzzle, list] = await Promise.all([
        lobbyJson<Puzzle>(`/api/handelsaufgaben/${encodeURIComponent(this.id)}`),
        lobbyJson<PuzzleList>("/api/handelsaufgaben"),
      ]);
      const ids = list.puzzles.map((p) => p.id);
      this.next = ids[ids.indexOf(puzzle.id) + 1] ?? null;
      this.puzzle = puzzle;
      this.draw();
    } catch (error) {
      this.problem.textContent = error instanceof Error ? error.message : String(error);
      this.root.replaceChildren(soloTabs("handelsaufgaben"), this.problem);
    }
  }

  private draw(): void {
    const puzzle = this.puzzle!;
    const kind = puzzle.kind as Kind;
    this.root.replaceChildren(
      soloTabs("handelsaufgaben"),
      el("h2", {}, `${st("puzzles")}: ${title(puzzle.id, kind)} `, this.bestStars),
      el("p", { "data-testid": "puzzle-task" }, st(kind === "punkte" ? "task_punkte" : "task_bester_zug"), " ", st("howTo")),
      el("p", { class: "hint" }, st(kind === "punkte" ? "starRule_punkte" : "starRule_bester_zug")),
      this.boardHost, this.problem, this.result);
    this.bestStars.textContent = starMarks(puzzle.stars);
    this.showBoard(true);
  }

  private showBoard(interactive: boolean): void {
    const puzzle = this.puzzle!;
    if (!this.board) {
      const factory = boardFor("hanse");
      if (!factory) return;
      this.board = factory({ element: this.boardHost, onMove: (text) => void this.answer(text) });
    }
    this.board.render(puzzle.view, { you: puzzle.seat, interactive, lastMove: null });
  }

  private async answer(move: string): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    this.problem.textContent = "";
    try {
      const practice = this.puzzle!.attempts > 0; // the solution was shown before: no stars (server rule)
      const answer = await lobbyJson<PuzzleAnswer>(`/api/handelsaufgaben/${encodeURIComponent(this.id)}`, { move });
      this.puzzle = { ...this.puzzle!, stars: answer.best_stars, attempts: this.puzzle!.attempts + 1 };
      this.bestStars.textContent = starMarks(answer.best_stars);
      this.showBoard(false);
      this.showResult(answer, practice);
    } catch (error) {
      this.problem.textContent = error instanceof Error ? error.message : String(error);
      this.showBoard(true);
    } finally {
      this.sending = false;
    }
  }

  private showResult(answer: PuzzleAnswer, practice: boolean): void {
    const view = this.puzzle!.view;
    const row = (entry: PuzzleMoveValue) =>
      el("tr", { "data-testid": "puzzle-best-move", "data-move": entry.move, class: entry.move === answer.move ? "mine" : undefined },
        el("td", {}, moveWords(view, entry.move)), el("td", { class: "num" }, formatValue(entry.value)));
    const again = el("button", { type: "button", "data-testid": "puzzle-again" }, st("tryAgain"));
    again.addEventListener("click", () => {
      this.result.replaceChildren();
      this.draw();
    });
    const links = [again, el("a", { href: "#/handelsaufgaben", "data-testid": "puzzle-all" }, st("allPuzzles"))];
    if (this.next) links.push(el("a", { href: `#/handelsaufgaben/${this.next}`, class: "button", "data-testid": "puzzle-next" }, st("nextPuzzle")));
    this.result.replaceChildren(
      el("p", { class: "stars big", "data-testid": "puzzle-stars", "data-stars": String(answer.stars) }, `${st("yourStars")}: ${starMarks(answer.stars)}`),
      ...(practice ? [el("p", { "data-testid": "puzzle-practice" }, st("practiceAnswer"))] : []),
      ...(answer.rating_change ? [el("p", { "data-testid": "puzzle-rating-change", "data-after": String(answer.rating_change.player_after) },
        `${st("puzzleRating")}: ${answer.rating_change.player_before} → ${answer.rating_change.player_after}`)] : []),
      el("p", { "data-testid": "puzzle-your-move" }, `${st("yourMove")}: ${moveWords(view, answer.move)} (${st("value")} ${formatValue(answer.value)})`),
      el("h3", {}, st("bestMoves")),
      el("table", { class: "puzzle-best" }, el("tr", {}, el("th", {}, st("move")), el("th", {}, st("value"))), ...answer.best.map(row)),
      el("p", {}, ...links));
  }
}
