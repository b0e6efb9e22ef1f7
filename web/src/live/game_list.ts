// A list of games (live or finished) as rows of links; shared by Live and Meine Partien.
import { el } from "../dom";
import { lang } from "../i18n";
import type { TableSummary } from "../protocol";
import { colourName, GAME_TITLES } from "../table/seat_names";
import { resultReason, tt } from "../table/texts";

function seatText(summary: TableSummary, seat: number): string {
  const entry = summary.seats[seat];
  const who = entry?.computer ? `${tt("computer")} (${tt(entry.computer)})` : entry?.name ?? "?";
  return `${who} (${colourName(summary.game, seat)})`;
}

function clockText(summary: TableSummary): string {
  if (!summary.clock) return tt("noClock");
  return `${Math.round(summary.clock.base_ms / 60000)}+${Math.round(summary.clock.inc_ms / 1000)}`;
}

const KIND_TEXT: Record<TableSummary["kind"], Parameters<typeof tt>[0]> = {
  rated: "rated", friendly: "friendly", computer: "kindComputer", daily: "kindDaily", same_device: "kindSameDevice",
};

/** One row: game, players, clock, plies, and (finished) the result; the whole row is the link. */
export function gameRow(summary: TableSummary, href: string, viewer: number | null = null): HTMLElement {
  const result = summary.result;
  let outcome = "";
  if (result) {
    const mySeat = viewer === null ? -1 : summary.seats.findIndex((s) => s.user_id === viewer);
    if (result.winner === null) outcome = tt("drawn");
    else if (mySeat >= 0) outcome = result.winner === mySeat ? tt("won") : tt("lost");
    else outcome = `${colourName(summary.game, result.winner)} ${tt("wins")}.`;
    outcome += ` ${resultReason(result)}`;
  }
  const when = summary.finished_at ?? summary.created_at;
  const date = when ? new Date(when).toLocaleString(lang(), { dateStyle: "short", timeStyle: "short" }) : "";
  return el("li", { class: "game-row", "data-game-id": String(summary.game_id) },
    el("a", { href, "data-testid": "game-link" },
      el("span", { class: "game-title" }, GAME_TITLES[summary.game] ?? summary.game),
      el("span", { class: "players" }, `${seatText(summary, 0)} – ${seatText(summary, 1)}`),
      el("span", { class: "meta", "data-kind": summary.kind },
        `${clockText(summary)} · ${tt(KIND_TEXT[summary.kind])}${summary.stake ? ` · ${summary.stake} Taler` : ""} · ${summary.plies} ${tt(summary.plies === 1 ? "ply" : "plies")}`),
      outcome ? el("span", { class: "outcome" }, outcome) : null,
      el("time", {}, date)));
}
