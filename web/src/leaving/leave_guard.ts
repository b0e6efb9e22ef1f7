// "Wer die Partie verlässt, verliert sie" (seeds 000, 001, 002): while you sit at a running
// Wartesaal game the line under the header says so; once you have left its table for another
// page, it says you have left and links back, counting down the 30 seconds the game service
// waits before the game is lost (services/game/presence/seat_connections.py). Reloading the page is
// fine (you return to the table), so nothing stops a navigation: the warning is shown, not asked.
import { el } from "../dom";
import { onLangChange, textsOf } from "../i18n";
import type { TableStatePayload } from "../protocol";
import { onTableSocket } from "../game_socket";
import "./leave_guard.css";

const LEAVE_AFTER_MS = 30_000;
const TEXTS = {
  warning: { de: "Wer die Partie verlässt, verliert sie.", en: "Whoever leaves the game loses it." },
  left: { de: "Du hast deine laufende Partie verlassen. Wer die Partie verlässt, verliert sie –", en: "You have left your running game. Whoever leaves the game loses it –" },
  back: { de: "zurück an den Tisch", en: "back to the table" },
  seconds: { de: "noch {n} s", en: "{n} s left" },
} as const;

const text = textsOf(TEXTS);

/** Whether ``state`` is a game its viewer would lose by leaving. */
function losesByLeaving(state: TableStatePayload): boolean {
  return state.you !== null && state.mode === "wartesaal" && state.status === "running";
}

export class LeaveGuard {
  readonly banner = el("p", { class: "leave-warning", role: "status", "data-testid": "leave-warning", hidden: true });
  private seated = new Set<number>(); // running Wartesaal games the user sits at, as last seen
  private shownGame: number | null = null; // the table on screen now
  private left: { gameId: number; at: number } | null = null;
  private ticker = 0;
  private listening = false;

  constructor() {
    onLangChange(() => this.draw());
  }

  /** The page now shown is ``hash`` (called on every route). */
  shown(hash: string): void {
    const match = /^#\/partie\/(\d+)/.exec(hash);
    const gameId = match ? Number(match[1]) : null;
    if (this.shownGame !== null && this.shownGame !== gameId && this.seated.has(this.shownGame)) {
      this.left = { gameId: this.shownGame, at: Date.now() };
    }
    this.shownGame = gameId;
    if (gameId !== null && this.left?.gameId === gameId) this.left = null; // back in time
    if (gameId !== null) this.listen();
    this.draw();
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    // Every table page opens a socket of its own: listen to each.
    onTableSocket((socket) => {
      socket.on("table:state", (state) => {
        if (losesByLeaving(state)) this.seated.add(state.game_id);
        else this.seated.delete(state.game_id);
        this.draw();
      });
    });
  }

  private draw(): void {
    window.clearInterval(this.ticker);
    if (this.shownGame !== null && this.seated.has(this.shownGame)) {
      this.banner.replaceChildren(text("warning"));
      this.banner.hidden = false;
      return;
    }
    const left = this.left;
    const remaining = left ? LEAVE_AFTER_MS - (Date.now() - left.at) : 0;
    if (left && remaining > 0 && this.seated.has(left.gameId)) {
      const seconds = Math.ceil(remaining / 1000);
      this.banner.replaceChildren(
        `${text("left")} `,
        el("a", { href: `#/partie/${left.gameId}`, "data-testid": "leave-back" }, text("back")),
        ` (${text("seconds", { n: String(seconds) })})`,
      );
      this.banner.hidden = false;
      this.ticker = window.setInterval(() => this.draw(), 1000);
      return;
    }
    this.left = null;
    this.banner.hidden = true;
    this.banner.replaceChildren();
  }
}
