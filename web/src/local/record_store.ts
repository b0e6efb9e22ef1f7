// Your record against the computer, per game and strength, kept on this device only.
const KEY = "spielcenter.computer-record";

export type LocalOutcome = "win" | "draw" | "loss";
export type LocalRecord = Record<LocalOutcome, number>;

function load(): Record<string, LocalRecord> {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? "{}") as unknown;
    return data && typeof data === "object" ? (data as Record<string, LocalRecord>) : {};
  } catch {
    return {};
  }
}

export function localRecord(game: string, strength: string): LocalRecord {
  const stored: Partial<LocalRecord> = load()[`${game}:${strength}`] ?? {};
  return { win: stored.win ?? 0, draw: stored.draw ?? 0, loss: stored.loss ?? 0 };
}

export function recordLocalResult(game: string, strength: string, outcome: LocalOutcome): void {
  const all = load();
  const key = `${game}:${strength}`;
  const record = localRecord(game, strength);
  record[outcome] += 1;
  all[key] = record;
  localStorage.setItem(KEY, JSON.stringify(all));
}
