// The Tagesmarkt line at the table itself: "Tagesmarkt 30.11. – dieser Versuch zählt" or why
// it is practice. The lobby decides (GET /api/tagesmarkt/versuch/<id>); it is asked again
// after Zug zurück (the table gets shorter) and after a Tipp, which turn the attempt into practice.
import { lobbyJson } from "../api";
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import type { DailyAttempt, DailyAttemptAnswer, TableStatePayload } from "../protocol";
import type { GameSocket } from "../game_socket";
import { st } from "./texts";

const PRACTICE = {
  guest: { de: "Übung: als Gast zählt kein Versuch.", en: "practice: a guest's attempts do not count." },
  later: { de: "Übung: nur der erste Versuch des Tages zählt.", en: "practice: only the day's first attempt counts." },
  assisted: { de: "Übung: mit Zug zurück oder Tipp gespielt.", en: "practice: played with undo or a hint." },
} as const;

function shortDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number);
  if (lang() !== "en") return `${date}.${month}.`;
  return new Date(year, month - 1, date).toLocaleDateString("en", { day: "numeric", month: "short" });
}

export class DailyLine {
  readonly root = el("p", { class: "daily-line", "data-testid": "daily-line", hidden: true });
  private attempt: DailyAttempt | null = null;
  private plies: number | null = null;
  private closed = false;
  private readonly onState = (payload: TableStatePayload) => this.stateArrived(payload);
  private readonly onHint = () => void this.load();

  /** Only a Battlehanse table of one's own against the computer may be a Tagesmarkt attempt. */
  static possible(state: TableStatePayload): boolean {
    return state.game === "hanse" && state.mode === "computer" && state.you !== null;
  }

  constructor(private readonly socket: GameSocket, private readonly gameId: number, plies: number) {
    this.plies = plies;
    socket.on("table:state", this.onState);
    socket.on("ai_hint", this.onHint);
    onLangChange(() => this.draw());
    void this.load();
  }

  close(): void {
    this.closed = true;
    this.socket.off("table:state", this.onState);
    this.socket.off("ai_hint", this.onHint);
  }

  private stateArrived(payload: TableStatePayload): void {
    if (payload.game_id !== this.gameId) return;
    const shorter = this.plies !== null && payload.moves.length < this.plies;
    this.plies = payload.moves.length;
    if (shorter && this.attempt?.counts) void this.load();
  }

  private async load(): Promise<void> {
    try {
      const answer = await lobbyJson<DailyAttemptAnswer>(`/api/tagesmarkt/versuch/${this.gameId}`);
      if (this.closed) return;
      this.attempt = answer.attempt;
      this.draw();
    } catch {
      // Without the line the table still plays; the Tagesmarkt page says the rules.
    }
  }

  private draw(): void {
    const attempt = this.attempt;
    this.root.hidden = attempt === null;
    if (attempt === null) return;
    const de = lang() !== "en";
    const what = attempt.counts || attempt.practice_reason === null
      ? (de ? "dieser Versuch zählt. Zug zurück oder Tipp machen ihn zur Übung." : "this attempt counts. Undo or a hint turn it into practice.")
      : PRACTICE[attempt.practice_reason][de ? "de" : "en"];
    this.root.classList.toggle("counts", attempt.counts);
    this.root.replaceChildren(el("strong", {}, `${st("dailyMarket")} ${shortDay(attempt.day)}`), ` – ${what}`);
  }
}
