// "Kostenlos spielen" on a game page: a table against the computer (Mittel, the game's
// usual options) opens at once; the player lands on it as if started from #/computer.
import { openLocalTable } from "../local/new_local_table";

type GameName = "hexagon" | "bullet" | "general" | "hanse";

/** Each game's usual options (seeds: "Alles steht von Anfang an auf …"). */
const USUAL_OPTIONS: Record<GameName, Record<string, unknown>> = {
  hexagon: { map: "klassisch", end_rule: "auffuellen" },
  bullet: { layout: "standard", win_target: 6, move_limit: null },
  general: {},
  hanse: {},
};

/** Open a computer table for ``game``; resolves with its id, rejects with the server's message. */
export function startAgainstComputer(game: GameName): Promise<number> {
  return openLocalTable({ game, mode: "computer", options: USUAL_OPTIONS[game], strength: "mittel", seat: 0, clock: null });
}
