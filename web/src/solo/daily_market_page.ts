// #/tagesmarkt: today's Battlehanse round against Mittel (the same deal for everyone), the
// Tagesliste of the ten best and your streak. The server decides which attempt counts.
import "./solo.css";
import { el } from "../dom";
import { counted, lang, signed } from "../i18n";
import type { DailyMarket, DailyStart, User } from "../protocol";
import { lobbyJson } from "../api";
import { soloTabs } from "./solo_nav";
import { st } from "./texts";

const POINTS = { de: ["Punkt", "Punkte"], en: ["point", "points"] } as const;
const DAYS = { de: ["Tag in Folge", "Tage in Folge"], en: ["day in a row", "days in a row"] } as const;

export class DailyMarketPage {
  readonly root = el("main", { class: "solo-page card", "data-testid": "daily-market-page" });
  private readonly problem = el("p", { class: "form-error", role: "alert", "data-testid": "daily-error" });
  private closed = false;

  constructor(private readonly user: User) {
    void this.load();
  }

  close(): void {
    this.closed = true;
  }

  private async load(): Promise<void> {
    try {
      const market = await lobbyJson<DailyMarket>("/api/tagesmarkt");
      if (!this.closed) this.draw(market);
    } catch (error) {
      this.root.replaceChildren(soloTabs("tagesmarkt"), this.problem);
      this.problem.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private draw(market: DailyMarket): void {
    const day = new Date(`${market.day}T12:00:00`).toLocaleDateString(lang(), { weekday: "long", day: "numeric", month: "long", year: "numeric" });
    const mine = market.mine;
    const status = el("div", { class: "daily-status", "data-testid": "daily-status" });
    const start = (text: string, primary: boolean) => {
      const button = el("button", { type: "button", class: primary ? "primary big" : "", "data-testid": "daily-start" }, text);
      button.addEventListener("click", () => void this.start(button));
      return button;
    };
    if (market.needs_account || mine === null) {
      status.append(el("p", { "data-testid": "daily-needs-account" }, st("needsAccount")), start(st("practice"), false));
    } else {
      if (mine.counted_game_id !== null && mine.counted_score === null) {
        status.append(el("p", {}, st("attemptRunning"), " ", el("a", { href: `#/partie/${mine.counted_game_id}`, "data-testid": "daily-continue" }, st("continueAttempt"))));
      } else if (mine.counted_score !== null) {
        status.append(el("p", { "data-testid": "daily-score" }, `${st("yourScore")}: ${counted(mine.counted_score, POINTS, signed(mine.counted_score))}`));
      } else if (mine.played_today) {
        status.append(el("p", {}, st("noCountedAttempt")));
      } else {
        status.append(el("p", {}, st("notYet")));
      }
      status.append(el("p", { "data-testid": "daily-streak" }, `${st("streak")}: ${counted(mine.streak, DAYS)}`));
      if (mine.practice_today) status.append(el("p", {}, `${st("practiceCount")}: ${mine.practice_today}`));
      status.append(mine.played_today ? start(st("practiceAgain"), false) : start(st("play"), true));
    }
    const rows = market.entries.map((entry) =>
      el("tr", { "data-testid": "daily-entry", class: entry.name === this.user.name ? "me" : undefined },
        el("td", {}, String(entry.rank)), el("td", {}, entry.name), el("td", { class: "num" }, signed(entry.score))));
    const list = el("section", { class: "daily-list" },
      el("h3", {}, `${st("dailyList")} – ${day}`),
      rows.length
        ? el("table", { "data-testid": "daily-list" }, el("tr", {}, el("th", {}, st("rank")), el("th", {}, st("player")), el("th", {}, st("points"))), ...rows)
        : el("p", { "data-testid": "daily-list-empty" }, st("emptyList")));
    this.root.replaceChildren(soloTabs("tagesmarkt"), el("h2", {}, `${st("dailyMarket")} · ${st("today")}: ${day}`), el("p", { class: "solo-rules" }, st("dailyRules"), " ", st("assistWarning")), status, this.problem, list);
  }

  private async start(button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    this.problem.textContent = "";
    try {
      const started = await lobbyJson<DailyStart>("/api/tagesmarkt/start", {});
      location.hash = `#/partie/${started.game_id}`;
    } catch (error) {
      this.problem.textContent = error instanceof Error ? error.message : String(error);
      button.disabled = false;
    }
  }
}
