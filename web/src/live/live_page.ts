// #/live: the running Wartesaal games; a click opens the table as a spectator.
import { el } from "../dom";
import type { TableSummary } from "../protocol";
import { gameApi } from "../game_socket";
import { tt } from "../table/texts";
import { gameRow } from "./game_list";

const REFRESH_MS = 5000;

export class LivePage {
  readonly root = el("main", { class: "list-page card", "data-testid": "live-page" });
  private readonly list = el("ul", { class: "game-list", "data-testid": "live-games" });
  private readonly problem = el("p", { class: "form-error", role: "alert" });
  private timer = 0;

  constructor() {
    this.root.append(el("h2", {}, tt("live")), this.list, this.problem);
    void this.refresh();
    // New games start and others end while the page is open.
    this.timer = window.setInterval(() => void this.refresh(), REFRESH_MS);
  }

  close(): void {
    window.clearInterval(this.timer);
  }

  private async refresh(): Promise<void> {
    try {
      const { games } = await gameApi<{ games: TableSummary[] }>("/api/games/live");
      this.problem.textContent = "";
      if (games.length === 0) {
        this.list.replaceChildren(el("li", { class: "empty" }, tt("liveEmpty")));
        return;
      }
      this.list.replaceChildren(...games.map((g) => gameRow(g, `#/partie/${g.game_id}`)));
    } catch (error) {
      this.problem.textContent = error instanceof Error ? error.message : String(error);
    }
  }
}
