// Texts of the game pages (#/spiel, #/spiel/<game>), German first; the seed 002 page's words.
import { textsOf } from "../i18n";

const TEXTS = {
  games: { de: "Spiele", en: "Games" },
  gamesIntro: { de: "Vier Strategiespiele für zwei. Wähle ein Spiel für Regeln, Bewertung und eine schnelle Partie.", en: "Four strategy games for two. Pick one for its rules, rating and a quick game." },
  toGamePage: { de: "Zur Spielseite", en: "To the game page" },
  controls: { de: "Steuerung", en: "Controls" },
  played: { de: "Gespielt", en: "Played" },
  notRated: { de: "Noch nicht bewertet", en: "Not rated yet" },
  ofFive: { de: "von 5", en: "out of 5" },
  ratingOne: { de: "Bewertung", en: "rating" },
  ratingMany: { de: "Bewertungen", en: "ratings" },
  yourRating: { de: "Deine Bewertung", en: "Your rating" },
  rateHint: { de: "Bewerten kannst du, sobald du eine Partie gespielt hast.", en: "You can rate the game once you have played it." },
  rateThanks: { de: "Danke! Du kannst deine Bewertung jederzeit ändern.", en: "Thank you! You can change your rating at any time." },
  star: { de: "Stern", en: "star" },
  stars: { de: "Sterne", en: "stars" },
  playFree: { de: "Kostenlos spielen", en: "Play for free" },
  playFreeText: {
    de: "Kostenlos und zählt für die Monats-Bestenliste, wenn du im Wartesaal gegen andere spielst. Gegen den Computer geht es sofort los – als Gast ohne Anmeldung.",
    en: "Free, and it counts for the monthly leaderboard when you play others in the Wartesaal. Against the computer you start right away – as a guest, no sign-up needed.",
  },
  againstComputer: { de: "Gegen den Computer spielen", en: "Play against the computer" },
  challenge: { de: "Im Wartesaal herausfordern", en: "Challenge someone in the Wartesaal" },
  sameDevice: { de: "Zu zweit am selben Gerät", en: "Two on one device" },
  starting: { de: "Tisch wird geöffnet …", en: "Opening the table …" },
  howToPlay: { de: "Anleitung", en: "How to play" },
  rulesTitle: { de: "Regeln & Anleitung", en: "Rules & how to play" },
  rulesLead: { de: "So wird gespielt: Ziel, Ablauf und Wertung", en: "How it is played: aim, turns and scoring" },
  in60: { de: "In 60 Sekunden", en: "In 60 seconds" },
  goal: { de: "Ziel", en: "Aim" },
  yourTurn: { de: "Dein Zug", en: "Your turn" },
  end: { de: "Ende", en: "End" },
  tip: { de: "Tipp", en: "Tip" },
  unknownGame: { de: "Dieses Spiel gibt es hier nicht.", en: "There is no such game here." },
} as const;

export type GamePageTextKey = keyof typeof TEXTS;

export const gt = textsOf(TEXTS);
