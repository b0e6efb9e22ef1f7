// Texts of the solo pages (Tagesmarkt, Handelsaufgaben), German first, in the seed's words.
import { textsOf } from "../i18n";

const TEXTS = {
  alone: { de: "Allein im Kontor", en: "Alone in the Kontor" },
  dailyMarket: { de: "Tagesmarkt", en: "Daily market" },
  puzzles: { de: "Handelsaufgaben", en: "Trading puzzles" },
  dailyRules: {
    de: "Eine Runde gegen den Computer (Mittel). Heute haben alle denselben Nachziehstapel und dieselben Ratsmarken, du beginnst. Gewertet wird dein Punktabstand zum Computer am Rundenende. Es zählt nur der erste Versuch des Tages – danach ist es Übung.",
    en: "One round against the computer (Medium). Today everyone gets the same deck and the same Ratsmarken, and you begin. Your score is your point difference to the computer at the round's end. Only the day's first attempt counts – after that it is practice.",
  },
  assistWarning: { de: "Zug zurück oder Tipp machen den Versuch zur Übung.", en: "Undo or a hint turn the attempt into practice." },
  today: { de: "Heute", en: "Today" },
  play: { de: "Tagesmarkt spielen", en: "Play the daily market" },
  practice: { de: "Üben", en: "Practise" },
  practiceAgain: { de: "Nochmal üben", en: "Practise again" },
  continueAttempt: { de: "Zu deinem Versuch", en: "To your attempt" },
  attemptRunning: { de: "Dein Versuch läuft.", en: "Your attempt is running." },
  yourScore: { de: "Dein Ergebnis heute", en: "Your score today" },
  noCountedAttempt: { de: "Heute zählt für dich kein Versuch mehr (abgebrochen, aufgegeben, mit Zug zurück oder Tipp gespielt, oder als Gast geübt) – alles Weitere ist Übung.", en: "No attempt counts for you today any more (aborted, resigned, played with undo or a hint, or practised as a guest) – everything else is practice." },
  notYet: { de: "Du hast heute noch nicht gespielt.", en: "You have not played today." },
  streak: { de: "Serie", en: "Streak" },
  practiceCount: { de: "Übungsrunden heute", en: "practice rounds today" },
  needsAccount: { de: "Für die Tagesliste musst du angemeldet sein. Üben kannst du auch als Gast.", en: "The daily list needs an account. As a guest you can practise." },
  dailyList: { de: "Tagesliste", en: "Daily list" },
  rank: { de: "Platz", en: "Rank" },
  player: { de: "Spieler", en: "Player" },
  points: { de: "Punkte", en: "Points" },
  emptyList: { de: "Heute hat noch niemand eine Runde beendet.", en: "Nobody has finished a round today yet." },
  kind_punkte: { de: "Punkte", en: "Points" },
  kind_bester_zug: { de: "Bester Zug", en: "Best move" },
  task_punkte: { de: "Hol mit einem Zug möglichst viele Punkte (Ratsmarken zählen mit ihrem Mittelwert 2 / 5 / 9).", en: "Take as many points as possible with one move (Ratsmarken count at their means 2 / 5 / 9)." },
  task_bester_zug: { de: "Finde den Zug, den der starke Computer klar vorn sieht.", en: "Find the move the strong computer clearly prefers." },
  howTo: { de: "Du wählst wie im Spiel und drückst den Knopf.", en: "Choose as in the game and press the button." },
  yourStars: { de: "Deine Sterne", en: "Your stars" },
  practiceAnswer: {
    de: "Übung: Sterne gibt es nur für die erste Antwort – danach kennst du die Lösung.",
    en: "Practice: stars count only for your first answer – after it you know the solution.",
  },
  yourMove: { de: "Dein Zug", en: "Your move" },
  bestMoves: { de: "Die besten Züge", en: "The best moves" },
  value: { de: "Wert", en: "Value" },
  move: { de: "Zug", en: "Move" },
  tryAgain: { de: "Nochmal versuchen", en: "Try again" },
  nextPuzzle: { de: "Nächste Aufgabe", en: "Next puzzle" },
  allPuzzles: { de: "Alle Aufgaben", en: "All puzzles" },
  starsTotal: { de: "Sterne gesamt", en: "Stars in total" },
  puzzleRating: { de: "Deine Aufgabenwertung", en: "Your puzzle rating" },
  ratingRule: { de: "Deine erste Antwort zu einer Aufgabe bewegt deine Aufgabenwertung (Glicko-2, wie bei den Aufgaben der anderen Spiele): drei Sterne zählen als gelöst.", en: "Your first answer to a puzzle moves your puzzle rating (Glicko-2, as for the other games' puzzles): three stars count as solved." },
  starRule_punkte: { de: "3 Sterne: die meisten Punkte · 2: höchstens 2 weniger · 1: irgendein Zug mit Punkten.", en: "3 stars: the most points · 2: at most 2 fewer · 1: any move that takes points." },
  starRule_bester_zug: { de: "3 Sterne: der Zug des starken Computers · 2: weniger als 3 Punkte schlechter · 1: weniger als 6.", en: "3 stars: the strong computer's move · 2: less than 3 points worse · 1: less than 6." },
} as const;

export type SoloTextKey = keyof typeof TEXTS;

export const st = textsOf(TEXTS);

/** "★★☆" for 2 of 3 stars. */
export function starMarks(stars: number): string {
  return "★".repeat(stars) + "☆".repeat(Math.max(0, 3 - stars));
}
