// Texts of the Aufgaben pages, German first (the seeds' words), with complete English.
import { lang, textsOf } from "../i18n";

const TEXTS = {
  puzzles: { de: "Aufgaben", en: "Puzzles" },
  puzzlesFor: { de: "Aufgaben", en: "Puzzles" },
  intro: {
    de: "Lagen aus Partien des starken Computers. Zieh wie am Tisch: ein richtiger Zug wird mit dem besten Gegenzug beantwortet, bis die Aufgabe gelöst ist; ein falscher Zug beendet den Versuch und zeigt die Lösung.",
    en: "Positions from the strong computer's games. Move as at the table: a right move is answered with the best reply until the puzzle is solved; a wrong move ends the attempt and shows the solution.",
  },
  rated: { de: "Gewertet", en: "Rated" },
  streak: { de: "Serie", en: "Streak" },
  daily: { de: "Tagesaufgabe", en: "Daily puzzle" },
  streakRule: { de: "Löse Aufgaben in Folge, bis zum ersten Fehler. Sie werden immer schwerer.", en: "Solve puzzles in a row until the first mistake. They get harder and harder." },
  dailyRule: { de: "Heute haben alle dieselbe Aufgabe. Es zählt nur der erste Versuch – danach ist es Übung.", en: "Today everyone gets the same puzzle. Only the first attempt counts – after that it is practice." },
  theme: { de: "Thema", en: "Theme" },
  allThemes: { de: "Alle Themen", en: "All themes" },
  themeNext: { de: "Das Thema gilt ab der nächsten Aufgabe.", en: "The theme applies from the next puzzle." },
  yourRating: { de: "Deine Aufgabenwertung", en: "Your puzzle rating" },
  streakNow: { de: "Serie", en: "Streak" },
  streakBest: { de: "beste Serie", en: "best streak" },
  toMove: { de: "Am Zug", en: "To move" },
  you: { de: "du", en: "you" },
  yourMove: { de: "Dein Zug.", en: "Your move." },
  rightMove: { de: "Richtig! Der Gegner antwortet", en: "Right! The opponent answers" },
  solved: { de: "Gelöst!", en: "Solved!" },
  failed: { de: "Falsch. Die Lösung:", en: "Wrong. The solution:" },
  failedSealed: { de: "Falsch.", en: "Wrong." },
  solutionTomorrow: { de: "Die Lösung der Tagesaufgabe zeigt sich morgen – bis dahin bleibt sie für alle verborgen.", en: "The daily puzzle's solution shows tomorrow – until then it stays hidden for everyone." },
  wrongWas: { de: "Dein Zug", en: "Your move" },
  sending: { de: "…", en: "…" },
  practice: { de: "Übung: nur dein erster Versuch einer Aufgabe zählt.", en: "Practice: only your first attempt at a puzzle counts." },
  puzzleRating: { de: "Wertung der Aufgabe", en: "Puzzle rating" },
  themes: { de: "Themen", en: "Themes" },
  solution: { de: "Lösung", en: "Solution" },
  reply: { de: "Antwort", en: "reply" },
  start: { de: "Anfang", en: "Start" },
  back: { de: "◀ Zurück", en: "◀ Back" },
  forward: { de: "Vor ▶", en: "Forward ▶" },
  replay: { de: "Abspielen", en: "Play it" },
  next: { de: "Nächste Aufgabe", en: "Next puzzle" },
  newStreak: { de: "Neue Serie", en: "New streak" },
  reload: { de: "Neu laden", en: "Reload" },
  dailyDone: { de: "Die Tagesaufgabe ist für heute erledigt. Morgen gibt es eine neue.", en: "Today's puzzle is done. There is a new one tomorrow." },
  tradingPuzzles: { de: "Handelsaufgaben", en: "Trading puzzles" },
  count: { de: "Aufgaben", en: "puzzles" },
} as const;

export type PuzzleTextKey = keyof typeof TEXTS;

export const at = textsOf(TEXTS);

/** Each game's two sides, seat 0 first (the seeds' names). */
const SIDES: Record<string, { de: [string, string]; en: [string, string] }> = {
  hexagon: { de: ["Rubin", "Perle"], en: ["Ruby", "Pearl"] },
  bullet: { de: ["Weiß", "Schwarz"], en: ["White", "Black"] },
  general: { de: ["Rot", "Blau"], en: ["Red", "Blue"] },
};

export function sideName(game: string, seat: number): string {
  const sides = SIDES[game];
  return sides ? sides[lang() === "en" ? "en" : "de"][seat] : String(seat);
}
