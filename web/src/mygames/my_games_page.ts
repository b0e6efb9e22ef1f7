// #/meine-partien: my finished games, newest first, each opening its replay; above them
// a small statistic per game (won, drawn, lost).
import { el } from "../dom";
import type { TableSummary, User } from "../protocol";
import { gameRow } from "../live/game_list";
import { gameApi } from "../table/game_socket";
import { GAME_TITLES } from "../table/seat_names";
import { tt } from "../table/texts";

export class MyGamesPage {
  readonly root = el("main", { class: "list-page card", "data-testid": "my-games-page" });
  private readonly list = el("ul", { class: "game-list", "data-testid": "my-games" });
  private readonly stats = el("table", { class: "my-stats", "data-testid": "my-stats" });
  private readonly problem = el("p", { class: "form-error", role: "alert" });

  constructor(private readonly user: User) {
    this.root.append(el("h2", {}, tt("myGames")), this.stats, this.list, this.problem);
    void this.load();
  }

  close(): void {}

  private async load(): Promise<void> {
    try {
      const { games } = await gameApi<{ games: TableSummary[] }>("/api/my-games");
      if (games.length === 0) {
        this.list.replaceChildren(el("li", { class: "empty" }, tt("myGamesEmpty")));
        return;
      }
      this.list.replaceChildren(...games.map((g) => gameRow(g, `#/nachspielen/${g.game_id}`, this.user.id)));
      this.drawStats(games);
    } catch (error) {
      this.problem.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  private drawStats(games: TableSummary[]): void {
    const byGame = new Map<string, [number, number, number]>();
    for (const game of games) {
      const seat = game.seats.findIndex((s) => s.user_id === this.user.id);
      if (seat < 0 || !game.result) continue;
      const row = byGame.get(game.game) ?? [0, 0, 0];
      const winner = game.result.winner;
      row[winner === null ? 1 : winner === seat ? 0 : 2] += 1;
      byGame.set(game.game, row);
    }
    this.stats.replaceChildren(
      el("caption", {}, tt("statistics")),
      el("tr", {}, el("th"), el("th", {}, tt("winsShort")), el("th", {}, tt("drawsShort")), el("th", {}, tt("lossesShort"))),
      ...[...byGame].map(([game, [w, d, l]]) => el("tr", {}, el("th", {}, GAME_TITLES[game] ?? game), el("td", {}, String(w)), el("td", {}, String(d)), el("td", {}, String(l)))),
    );
  }
}
