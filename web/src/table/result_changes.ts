// The result box's line of what the game did to you: Elo ±n, Punkte ±10, Taler ±n, or
// "Nicht gewertet: zu kurz" (stakes back). The rating service settles a game a moment after
// its end, so this asks the lobby until it has; the header's Taler follow at once.
import { lobbyJson } from "../api";
import { announceBalance } from "../balance";
import { el } from "../dom";
import { counted, lang, signed } from "../i18n";
import type { MyGameResult } from "../protocol";
import { tt } from "./texts";

const POLL_MS = 700;
const GIVE_UP_MS = 30_000;

const POINTS = { de: ["Punkt", "Punkte"], en: ["point", "points"] } as const;

export class ResultChanges {
  readonly root = el("p", { class: "result-changes", "data-testid": "result-changes" });
  private result: MyGameResult | null = null;
  private timer = 0;
  private closed = false;

  constructor(private readonly gameId: number) {
    this.root.textContent = tt("settling");
    void this.poll(Date.now());
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
  }

  private async poll(started: number): Promise<void> {
    try {
      const result = await lobbyJson<MyGameResult>(`/api/my-games/${this.gameId}/result`);
      if (this.closed) return;
      if (result.settled) {
        this.result = result;
        if (result.balance !== null) announceBalance(result.balance);
        this.draw();
        return;
      }
    } catch {
      // Not signed in any more, or the lobby is away: say nothing rather than something wrong.
      this.root.textContent = "";
      return;
    }
    if (Date.now() - started > GIVE_UP_MS) {
      this.root.textContent = "";
      return;
    }
    this.timer = window.setTimeout(() => void this.poll(started), POLL_MS);
  }

  /** The line in the current language (again after a language switch). */
  draw(): void {
    const r = this.result;
    if (r === null) return;
    const taler = r.taler ?? 0;
    if (!r.rated) {
      this.root.textContent = tt("notRatedFriendly");
    } else if (!r.counted) {
      this.root.textContent = `${tt("notCountedShort")}${r.stake ? ` ${tt("stakeBack")}` : ""}`;
    } else {
      const parts: string[] = [];
      if (r.elo_before !== null && r.elo_after !== null) parts.push(`Elo ${signed(r.elo_after - r.elo_before)} (${r.elo_after})`);
      if (r.points !== null) parts.push(counted(r.points, POINTS, signed(r.points)));
      if (r.stake) parts.push(`${signed(taler)} Taler`);
      this.root.textContent = parts.join(" · ");
    }
    this.root.setAttribute("lang", lang());
  }
}
