// #/meine-partien: my finished games, newest first, each opening its replay; above them the
// statistics per game and per opponent (from the lobby, counted the way profiles count),
// filters (game, opponent, result, rated/friendly/computer) and the Elo history as a chart.
import { el } from "../dom";
import { onLangChange } from "../i18n";
import type { EloHistory, EloPoint, MyGamesStatistics, Opponent, TableSummary, Tally, User } from "../protocol";
import { gameRow } from "../live/game_list";
import { gameApi } from "../game_socket";
import { tt } from "../table/texts";
import { gameLabel, PROFILE_GAMES } from "../profile/game_marks";
import { lobbyJson } from "../api";
import { profileLink } from "../profile/profile_link";
import { pt } from "../profile/texts";
import { eloChart } from "./elo_chart";
import "../profile/profile.css";

type Filters = { game: string; opponent: string; result: string; kind: string };

function opponentName(o: Opponent): string {
  return o.user_id === null ? `${pt("computer")} (${o.computer ? tt(o.computer) : ""})` : o.name ?? "?";
}

export class MyGamesPage {
  readonly root = el("main", { class: "list-page card", "data-testid": "my-games-page" });
  private readonly list = el("ul", { class: "game-list", "data-testid": "my-games" });
  private readonly stats = el("table", { class: "my-stats", "data-testid": "my-stats" });
  private readonly byOpponent = el("table", { class: "my-stats", "data-testid": "my-stats-opponents" });
  private readonly filterForm = el("form", { class: "stats-filters", "data-testid": "my-filters" });
  private readonly chart = el("section", { class: "elo-history", "data-testid": "elo-history" });
  private readonly problem = el("p", { class: "form-error", role: "alert" });
  private readonly filters: Filters = { game: "", opponent: "", result: "", kind: "" };
  private games: TableSummary[] = [];
  private history: Record<string, EloPoint[]> = {};
  private chartGame = "";
  private opponents: Opponent[] = [];
  private request = 0;
  private readonly heading = el("h2", {}, tt("myGames"));
  // A language switch redraws the page in the new language (rows, statistics, filters, chart).
  private readonly stopLang = onLangChange(() => {
    this.heading.textContent = tt("myGames");
    void this.refresh();
  });

  constructor(private readonly user: User) {
    this.root.append(this.heading, this.filterForm, this.stats, this.byOpponent, this.chart, this.list, this.problem);
    void this.load();
  }

  close(): void {
    this.stopLang();
  }

  private async load(): Promise<void> {
    const [games, history] = await Promise.allSettled([
      gameApi<{ games: TableSummary[] }>("/api/my-games"),
      lobbyJson<EloHistory>(`/api/players/${this.user.id}/elo-history`),
    ]);
    if (games.status === "fulfilled") this.games = games.value.games;
    else this.problem.textContent = games.reason instanceof Error ? games.reason.message : String(games.reason);
    if (history.status === "fulfilled") this.history = history.value.history as Record<string, EloPoint[]>;
    await this.refresh();
  }

  /** Statistics for the current filters, then the list of the games passing them. */
  private async refresh(): Promise<void> {
    const mine = ++this.request;
    const query = new URLSearchParams(Object.entries(this.filters).filter(([, v]) => v !== "")).toString();
    try {
      const stats = await lobbyJson<MyGamesStatistics>(`/api/my-games/statistics${query ? `?${query}` : ""}`);
      if (mine !== this.request) return; // a newer filter choice is on its way
      this.opponents = stats.opponents;
      this.drawFilters();
      this.drawStats(stats);
      this.drawList(query ? new Set(stats.game_ids) : null);
    } catch (error) {
      this.problem.textContent = error instanceof Error ? error.message : String(error);
      this.drawList(null);
    }
    this.drawChart();
  }

  private drawFilters(): void {
    const select = (key: keyof Filters, choices: Array<[string, string]>): HTMLLabelElement => {
      const box = el("select", { name: key, "data-testid": `filter-${key}` },
        el("option", { value: "" }, pt("all")),
        ...choices.map(([value, text]) => el("option", { value, selected: value === this.filters[key] }, text)));
      box.addEventListener("change", () => {
        this.filters[key] = box.value;
        if (key === "game" && box.value) this.chartGame = box.value;
        void this.refresh();
      });
      return el("label", {}, el("span", {}, pt(key)), box);
    };
    this.filterForm.replaceChildren(
      el("span", { class: "caption" }, pt("filters")),
      select("game", PROFILE_GAMES.map((g) => [g, gameLabel(g)])),
      select("opponent", this.opponents.map((o) => [o.key, opponentName(o)])),
      select("result", [["win", pt("win")], ["loss", pt("loss")], ["draw", pt("draw")]]),
      select("kind", [["rated", pt("rated")], ["friendly", pt("friendly")], ["computer", pt("computerGames")]]),
    );
  }

  private drawStats(stats: MyGamesStatistics): void {
    const head = (first: string): HTMLTableRowElement =>
      el("tr", {}, el("th", {}, first), el("th", {}, tt("winsShort")), el("th", {}, tt("drawsShort")), el("th", {}, tt("lossesShort")));
    const cells = (t: Tally): HTMLTableCellElement[] => [el("td", {}, String(t.wins)), el("td", {}, String(t.draws)), el("td", {}, String(t.losses))];
    const perGame = stats.per_game as Record<string, Tally>;
    this.stats.replaceChildren(
      el("caption", {}, tt("statistics")),
      head(pt("game")),
      ...Object.entries(perGame).map(([game, t]) => el("tr", { "data-game": game }, el("th", {}, gameLabel(game)), ...cells(t))),
    );
    this.byOpponent.replaceChildren(
      el("caption", {}, pt("byOpponent")),
      head(pt("opponent")),
      ...stats.per_opponent.map((row) => el("tr", { "data-opponent": row.opponent.key, "data-testid": "opponent-row" },
        el("th", {}, row.opponent.user_id === null ? opponentName(row.opponent) : profileLink(row.opponent.user_id, opponentName(row.opponent))),
        ...cells(row))),
    );
  }

  private drawChart(): void {
    const withHistory = PROFILE_GAMES.filter((g) => (this.history[g] ?? []).length > 0);
    if (!withHistory.includes(this.chartGame as (typeof PROFILE_GAMES)[number])) this.chartGame = withHistory[0] ?? "";
    const tabs = el("div", { class: "row choices" }, ...withHistory.map((game) => {
      const tab = el("button", { type: "button", "aria-pressed": String(game === this.chartGame), "data-value": game }, gameLabel(game));
      tab.addEventListener("click", () => { this.chartGame = game; this.drawChart(); });
      return tab;
    }));
    const points = this.history[this.chartGame] ?? [];
    this.chart.replaceChildren(
      el("h3", {}, pt("eloHistory")),
      withHistory.length ? tabs : el("p", { class: "empty" }, pt("noEloHistory")),
      points.length ? eloChart(points, `${pt("eloHistory")} ${gameLabel(this.chartGame)}`) : "",
    );
  }

  /** ``only``: the ids passing the filters (null: no filter, every finished game). */
  private drawList(only: Set<number> | null): void {
    const shown = only ? this.games.filter((g) => only.has(g.game_id)) : this.games;
    if (shown.length === 0) {
      this.list.replaceChildren(el("li", { class: "empty" }, this.games.length ? pt("noMatch") : tt("myGamesEmpty")));
      return;
    }
    this.list.replaceChildren(...shown.map((g) => gameRow(g, `#/nachspielen/${g.game_id}`, this.user.id)));
  }
}
