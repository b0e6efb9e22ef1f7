// #/spiel/<game>: a game's own page (modelled on seed 002's opening): the pitch,
// the controls, how often it was played, the players' stars, Kostenlos spielen, and the
// Anleitung — "In 60 Sekunden" first, then the full rules. #/spiel lists the four games.
import "./game_page.css";
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import { lobbyJson } from "../api";
import type { GameFigures } from "../protocol";
import { startAgainstComputer } from "./free_play";
import type { Both, GameText } from "./game_text";
import { BULLET_TEXT } from "./rules_bullet";
import { GENERAL_TEXT } from "./rules_general";
import { HANSE_TEXT } from "./rules_hanse";
import { HEXAGON_TEXT } from "./rules_hexagon";
import { gt } from "./texts";
import { puzzlesHref } from "../puzzles/aufgaben_links";
import { at } from "../puzzles/texts";

export const GAME_TEXTS: GameText[] = [HEXAGON_TEXT, BULLET_TEXT, GENERAL_TEXT, HANSE_TEXT];

function pick(text: Both): string {
  return lang() === "en" ? text.en : text.de;
}

async function request(path: string, body?: object): Promise<GameFigures> {
  const data = await lobbyJson<{ figures?: GameFigures }>(path, body);
  if (!data.figures) throw new Error(lang() === "en" ? "No figures for this game." : "Keine Zahlen zu diesem Spiel.");
  return data.figures;
}

/** "★★★★☆" for an average (rounded to half stars shown as full when ≥ .5). */
function starRow(average: number): string {
  const full = Math.round(average);
  return "★".repeat(full) + "☆".repeat(5 - full);
}

export class GamePage {
  readonly root = el("main", { class: "game-page", "data-testid": "game-page" });
  private figures: GameFigures | null = null;
  private problem = "";
  private note = "";
  private closed = false;

  constructor(private readonly text: GameText) {
    this.root.dataset.game = text.game;
    onLangChange(() => !this.closed && this.draw());
    this.draw();
    void this.load();
  }

  close(): void {
    this.closed = true;
  }

  private async load(): Promise<void> {
    try {
      this.figures = await request(`/api/spiel/${this.text.game}`);
      this.problem = "";
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
    }
    if (!this.closed) this.draw();
  }

  private async rate(stars: number): Promise<void> {
    try {
      this.figures = await request(`/api/spiel/${this.text.game}/sterne`, { stars });
      this.problem = "";
      this.note = gt("rateThanks");
    } catch (error) {
      this.problem = error instanceof Error ? error.message : String(error);
      this.note = "";
    }
    if (!this.closed) this.draw();
    this.root.querySelector<HTMLButtonElement>(`[data-stars="${stars}"]`)?.focus();
  }

  private draw(): void {
    const t = this.text;
    this.root.replaceChildren(
      gameTabs(t.game),
      el("h2", { "data-testid": "game-title" }, t.title),
      el("p", { class: "pitch", "data-testid": "pitch" }, pick(t.pitch)),
      el("dl", { class: "facts" },
        el("dt", {}, gt("controls")), el("dd", { "data-testid": "controls" }, pick(t.controls)),
        el("dt", {}, pick({ de: "Handy & Tablet", en: "Phone & tablet" })), el("dd", { "data-testid": "phone" }, pick(t.phone).replace(/^[^:]*:\s*/, "")),
        el("dt", {}, gt("played")), el("dd", { "data-testid": "plays" }, this.figures ? `${this.figures.plays.toLocaleString(lang())} ×` : "…")),
      this.starsSection(),
      this.freeSection(),
      this.rulesSection(),
    );
  }

  private starsSection(): HTMLElement {
    const section = el("section", { class: "game-stars", "data-testid": "stars" });
    const figures = this.figures;
    if (figures && figures.stars_average !== null && figures.stars_count > 0) {
      const average = Number(figures.stars_average);
      const shown = average.toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      const count = `${figures.stars_count} ${figures.stars_count === 1 ? gt("ratingOne") : gt("ratingMany")}`;
      section.append(el("p", { class: "stars-summary", "data-testid": "stars-summary", "aria-label": `${shown} ${gt("ofFive")} (${count})` },
        el("span", { class: "star-row", "aria-hidden": "true" }, starRow(average)), ` ${shown} ${gt("ofFive")} (${count})`));
    } else {
      section.append(el("p", { class: "stars-summary", "data-testid": "stars-summary" }, figures ? gt("notRated") : "…"));
    }
    if (figures?.may_rate) {
      const group = el("div", { class: "game-rate", role: "group", "aria-label": gt("yourRating"), "data-testid": "rate" }, el("span", {}, `${gt("yourRating")}: `));
      for (let stars = 1; stars <= 5; stars++) {
        const chosen = figures.my_stars !== null && stars <= figures.my_stars;
        const button = el("button", { type: "button", class: chosen ? "star chosen" : "star", "data-stars": String(stars),
          "aria-pressed": String(figures.my_stars === stars), "aria-label": `${stars} ${stars === 1 ? gt("star") : gt("stars")}` }, chosen ? "★" : "☆");
        button.addEventListener("click", () => void this.rate(stars));
        group.append(button);
      }
      section.append(group);
    } else if (figures) {
      section.append(el("p", { class: "hint", "data-testid": "rate-hint" }, gt("rateHint")));
    }
    if (this.note) section.append(el("p", { class: "hint", "data-testid": "rate-note" }, this.note));
    if (this.problem) section.append(el("p", { class: "form-error", role: "alert", "data-testid": "game-page-error" }, this.problem));
    return section;
  }

  private freeSection(): HTMLElement {
    const problem = el("p", { class: "form-error", role: "alert" });
    const play = el("button", { type: "button", class: "primary big", "data-testid": "play-free" }, gt("againstComputer"));
    play.addEventListener("click", async () => {
      play.disabled = true;
      play.textContent = gt("starting");
      try {
        location.hash = `#/partie/${await startAgainstComputer(this.text.game)}`;
      } catch (error) {
        problem.textContent = error instanceof Error ? error.message : String(error);
        play.disabled = false;
        play.textContent = gt("againstComputer");
      }
    });
    return el("section", { class: "free", "data-testid": "free" },
      el("h3", {}, gt("playFree")),
      el("p", {}, gt("playFreeText")),
      el("p", { class: "free-actions" }, play, " ", el("a", { href: "#/", "data-testid": "challenge-link" }, gt("challenge")), " · ",
        el("a", { href: "#/zuzweit" }, gt("sameDevice")), " · ",
        el("a", { href: puzzlesHref(this.text.game), "data-testid": "aufgaben-link" }, this.text.game === "hanse" ? at("tradingPuzzles") : at("puzzles"))),
      problem);
  }

  private rulesSection(): HTMLElement {
    const t = this.text;
    const line = (key: "goal" | "yourTurn" | "end" | "tip", text: Both) => el("p", {}, el("strong", {}, `${gt(key)}: `), pick(text));
    const quick = el("section", { class: "in-60", "data-testid": "in-60" },
      el("h4", {}, gt("in60")),
      line("goal", t.summary.goal), line("yourTurn", t.summary.turn), line("end", t.summary.end), line("tip", t.summary.tip));
    const full = t.rules.map((section) => el("section", { class: "rules-section" },
      el("h4", {}, pick(section.heading)), ...section.paragraphs.map((p) => el("p", {}, pick(p)))));
    return el("section", { class: "anleitung", "data-testid": "anleitung" },
      el("h2", {}, gt("howToPlay")),
      el("h3", {}, `${t.title.replace(/^\S+\s(?=Battle)/, "")}: ${gt("rulesTitle")}`),
      el("p", { class: "lead" }, gt("rulesLead")),
      quick,
      ...full);
  }
}

/** Links between the four game pages (the current one marked). */
function gameTabs(current: string | null): HTMLElement {
  return el("nav", { class: "game-tabs", "aria-label": gt("games") },
    ...GAME_TEXTS.map((t) => el("a", { href: `#/spiel/${t.game}`, "data-testid": `game-link-${t.game}`, "aria-current": t.game === current ? "page" : undefined }, t.title)));
}

/** #/spiel: the four games, each with its pitch. */
export class GamesOverview {
  readonly root = el("main", { class: "game-page games-overview", "data-testid": "games-overview" });
  private closed = false;

  constructor() {
    onLangChange(() => !this.closed && this.draw());
    this.draw();
  }

  close(): void {
    this.closed = true;
  }

  private draw(): void {
    this.root.replaceChildren(
      el("h2", {}, gt("games")),
      el("p", {}, gt("gamesIntro")),
      el("ul", { class: "game-list" }, ...GAME_TEXTS.map((t) => el("li", {},
        el("h3", {}, el("a", { href: `#/spiel/${t.game}`, "data-testid": `overview-${t.game}` }, t.title)),
        el("p", {}, pick(t.pitch))))),
    );
  }
}

/** The page for ``#/spiel[/<game>]``. */
export function gamePageFor(game: string | undefined): GamePage | GamesOverview {
  const text = GAME_TEXTS.find((t) => t.game === game);
  return text ? new GamePage(text) : new GamesOverview();
}

/** The "Spiele" link for the header's page navigation. */
export function gamesNavLink(): HTMLAnchorElement {
  return el("a", { href: "#/spiel", "data-testid": "nav-spiel" }, gt("games"));
}
