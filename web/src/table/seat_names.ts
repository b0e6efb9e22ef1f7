// The colours of the seats as the players call them (display only; seat 0 moves first).
import { lang } from "../i18n";

const COLOURS: Record<string, [[string, string], [string, string]]> = {
  hexagon: [["Rubin", "Ruby"], ["Perle", "Pearl"]],
  bullet: [["Weiß", "White"], ["Schwarz", "Black"]],
  general: [["Rot", "Red"], ["Blau", "Blue"]],
  hanse: [["Erster", "First"], ["Zweiter", "Second"]],
};

export const GAME_TITLES: Record<string, string> = {
  hexagon: "⬢ Battlehexagon",
  bullet: "● Battlebullet",
  general: "Battlegeneral",
  hanse: "Battlehanse",
};

export function colourName(game: string, seat: number): string {
  const names = COLOURS[game]?.[seat];
  if (!names) return `${seat + 1}`;
  return lang() === "en" ? names[1] : names[0];
}
