// Each game's symbol and name as the profile's buttons say them ("⬢ Battlehexagon spielen"):
// ⬢ and ● from the seeds, ⚑ the flag Battlegeneral is won by, ⚓ the Hanse's harbour.
export const PROFILE_GAMES = ["hexagon", "bullet", "general", "hanse"] as const;

/** The one symbol of each game, wherever a game is named (lists, tabs, Elo, menus, rules). */
export const MARKS: Record<string, string> = { hexagon: "⬢", bullet: "●", general: "⚑", hanse: "⚓" };
const NAMES: Record<string, string> = {
  hexagon: "Battlehexagon",
  bullet: "Battlebullet",
  general: "Battlegeneral",
  hanse: "Battlehanse",
};

export function gameLabel(game: string): string {
  return `${MARKS[game] ?? ""} ${NAMES[game] ?? game}`.trim();
}
