// Texts of Schnelle Partie and of the running games in the Wartesaal, German first.
import { textsOf } from "../i18n";

const TEXTS = {
  quickMatch: { de: "Schnelle Partie", en: "Quick game" },
  quickHint: {
    de: "fordert den passendsten freien Gegner heraus: gleiches Spiel, nächste Elo-Zahl, eine Bedenkzeit, die ihr beide mögt.",
    en: "challenges the best-fitting free opponent: same game, nearest Elo, a time control you both like.",
  },
  game: { de: "Spiel", en: "Game" },
  clocks: { de: "Bedenkzeit (keine gewählt: jede)", en: "Time control (none chosen: any)" },
  noClock: { de: "ohne Uhr", en: "no clock" },
  searching: { de: "Suche einen Gegner für", en: "Looking for an opponent for" },
  waitingOne: { de: "wartet gerade", en: "waiting now" },
  waitingCount: { de: "warten gerade", en: "waiting now" },
  cancel: { de: "Abbrechen", en: "Cancel" },
  running: { de: "Laufende Partien", en: "Running games" },
  runningEmpty: { de: "Gerade läuft keine Partie.", en: "No game is running right now." },
  watch: { de: "Zuschauen", en: "Watch" },
  playsAgainst: { de: "spielt gegen", en: "plays" },
} as const;

export type QuickTextKey = keyof typeof TEXTS;

export const qt = textsOf(TEXTS);
