// The colours of the seats as the players call them (display only; seat 0 moves first).
import { lang } from "../i18n";
import { gameLabel, PROFILE_GAMES } from "../profile/game_marks";
import type { TableSeat } from "../protocol";
import { tt } from "./texts";

const COLOURS: Record<string, [[string, string], [string, string]]> = {
  hexagon: [["Rubin", "Ruby"], ["Perle", "Pearl"]],
  bullet: [["Weiß", "White"], ["Schwarz", "Black"]],
  general: [["Rot", "Red"], ["Blau", "Blue"]],
  hanse: [["Erster", "First"], ["Zweiter", "Second"]],
};

export const GAME_TITLES: Record<string, string> = Object.fromEntries(PROFILE_GAMES.map((game) => [game, gameLabel(game)]));

/** Who sits on a seat as the table names them: the player's name, "Computer (Stark)", or at
 * one device (both seats one account) "Spieler 1" / "Spieler 2". */
export function seatPerson(seat: TableSeat, index: number, mode: string): string {
  if (mode === "same_device") return `${lang() === "en" ? "Player" : "Spieler"} ${index + 1}`;
  if (seat.computer) return `${tt("computer")} (${tt(seat.computer)})`;
  return seat.name ?? "?";
}

export function colourName(game: string, seat: number): string {
  const names = COLOURS[game]?.[seat];
  if (!names) return `${seat + 1}`;
  return lang() === "en" ? names[1] : names[0];
}
