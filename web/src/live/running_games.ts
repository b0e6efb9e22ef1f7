// Who plays whom, in the Wartesaal: the running Wartesaal games (names, game); a click on
// one opens its table as a spectator. Read from the game service's /api/games/live, again
// when the player list shows someone begin or stop playing, and every REFRESH_MS besides.
import { el } from "../dom";
import type { Player, TableSummary } from "../protocol";
import { qt } from "../quickmatch/texts";
import { gameApi } from "../game_socket";
import { GAME_TITLES } from "../table/seat_names";
import "./running_games.css";

const REFRESH_MS = 15_000;
const SOON_MS = 300; // a burst of list changes costs one request

export class RunningGames {
  readonly root = el("section", { class: "running-games", "data-testid": "running-games" });
  private readonly list = el("ul", { class: "game-list" });
  private games: TableSummary[] = [];
  private timer = 0;
  private soon = 0;
  private playing = ""; // who was playing in the last player list

  constructor(private readonly onChange: () => void) {
    this.timer = window.setInterval(() => void this.refresh(), REFRESH_MS);
    this.draw();
    void this.refresh();
  }

  close(): void {
    window.clearInterval(this.timer);
    window.clearTimeout(this.soon);
  }

  /** A new player list: ask again shortly if someone began or stopped playing (only then can
   * the running games differ, so a join or a chat costs the game service nothing). */
  playersChanged(players: Player[]): void {
    const playing = players.filter((p) => p.status !== "frei").map((p) => p.user_id).sort((a, b) => a - b).join(",");
    if (playing === this.playing) return;
    this.playing = playing;
    window.clearTimeout(this.soon);
    this.soon = window.setTimeout(() => void this.refresh(), SOON_MS);
  }

  /** The running game of ``userId``, if any: its game and the opponent's name. */
  gameOf(userId: number): { game: string; opponent: string; gameId: number } | null {
    for (const summary of this.games) {
      const seat = summary.seats.findIndex((s) => s.user_id === userId);
      if (seat >= 0) return { game: summary.game, opponent: summary.seats[1 - seat]?.name ?? "?", gameId: summary.game_id };
    }
    return null;
  }

  draw(): void {
    const rows = this.games.map((g) =>
      el("li", { "data-game-id": String(g.game_id) },
        el("a", { href: `#/partie/${g.game_id}`, "data-testid": "running-game", title: qt("watch") },
          el("span", { class: "game-title" }, GAME_TITLES[g.game] ?? g.game),
          " ",
          el("span", { class: "players" }, `${g.seats[0]?.name ?? "?"} – ${g.seats[1]?.name ?? "?"}`))),
    );
    this.list.replaceChildren(...(rows.length ? rows : [el("li", { class: "empty" }, qt("runningEmpty"))]));
    this.root.replaceChildren(el("h2", {}, qt("running")), this.list);
  }

  private async refresh(): Promise<void> {
    try {
      const { games } = await gameApi<{ games: TableSummary[] }>("/api/games/live");
      this.games = games;
      this.draw();
      this.onChange();
    } catch {
      // The game service is away for a moment: keep the last list; the next refresh tries again.
    }
  }
}
