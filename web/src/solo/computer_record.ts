// Your record against the computer per game and strength, kept by this device. A match in
// which you asked for a Tipp does not count (seed 000): it is only counted apart. Whether a
// match had a Tipp is asked from the game service (which stores it on the game); the
// device's own note is the fallback when that cannot be reached.
import { localRecord, type LocalOutcome, recordLocalResult } from "../local/record_store";
import type { Review, TableStatePayload } from "../protocol";
import { gameApi } from "../game_socket";

const HINTED_KEY = "spielcenter.computer-record.hinted"; // game:strength → matches with a Tipp
const HINTED_GAMES_KEY = "spielcenter.hinted-games"; // ids of tables where this device asked for a Tipp

function loadJson<T>(key: string, empty: T): T {
  try {
    const data = JSON.parse(localStorage.getItem(key) ?? "null") as unknown;
    return data && typeof data === "object" ? (data as T) : empty;
  } catch {
    return empty;
  }
}

/** Note on this device that a Tipp was asked for at table ``gameId``. */
export function noteHint(gameId: number): void {
  const ids = loadJson<number[]>(HINTED_GAMES_KEY, []);
  if (!ids.includes(gameId)) localStorage.setItem(HINTED_GAMES_KEY, JSON.stringify([...ids, gameId].slice(-200)));
}

export function hintNoted(gameId: number): boolean {
  return loadJson<number[]>(HINTED_GAMES_KEY, []).includes(gameId);
}

/** Matches with a Tipp against ``strength`` (not part of the record). */
export function hintedMatches(game: string, strength: string): number {
  return loadJson<Record<string, number>>(HINTED_KEY, {})[`${game}:${strength}`] ?? 0;
}

/** Wins, draws and losses per strength, and the matches with a Tipp apart. */
export function computerRecord(game: string, strength: string): { win: number; draw: number; loss: number; hinted: number } {
  return { ...localRecord(game, strength), hinted: hintedMatches(game, strength) };
}

async function hadHint(gameId: number): Promise<boolean> {
  try {
    const review = await gameApi<Review>(`/api/games/${gameId}/review`);
    return review.hints > 0 || hintNoted(gameId);
  } catch {
    return hintNoted(gameId);
  }
}

/** Count a match against the computer that just ended: in the record, or apart if it had a Tipp. */
export async function recordComputerMatch(payload: TableStatePayload): Promise<void> {
  if (payload.mode !== "computer" || payload.you === null || !payload.result) return;
  const strength = payload.seats.find((seat) => seat.computer)?.computer;
  if (!strength) return;
  const winner = payload.result.winner;
  const outcome: LocalOutcome = winner === null ? "draw" : winner === payload.you ? "win" : "loss";
  if (payload.game === "hanse" && (await hadHint(payload.game_id))) {
    const all = loadJson<Record<string, number>>(HINTED_KEY, {});
    const key = `${payload.game}:${strength}`;
    all[key] = (all[key] ?? 0) + 1;
    localStorage.setItem(HINTED_KEY, JSON.stringify(all));
    return;
  }
  recordLocalResult(payload.game, strength, outcome);
}
