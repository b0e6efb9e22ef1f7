// Texts of the challenge panel and the lists, German first.
import { lang } from "../i18n";

const TEXTS = {
  challenges: { de: "Herausforderungen", en: "Challenges" },
  challengeWith: { de: "Herausfordern zu …", en: "Challenge to …" },
  cancel: { de: "Abbrechen", en: "Cancel" },
  vs: { de: "gegen", en: "vs" },
  clock: { de: "Bedenkzeit", en: "Time control" },
  noClock: { de: "ohne Uhr (10 Min. je Zug)", en: "no clock (10 min per move)" },
  kind: { de: "Art", en: "Type" },
  rated: { de: "Gewertet", en: "Rated" },
  friendly: { de: "Freundschaft", en: "Friendly" },
  stake: { de: "Einsatz (Taler)", en: "Stake (Taler)" },
  stakeHint: { de: "0 oder 10–100, nur gewertet", en: "0 or 10–100, rated only" },
  guestNoStake: {
    de: "spielt als Gast – Gäste haben keine Taler und spielen ohne Einsatz. Wählt Freundschaft oder Gewertet ohne Einsatz; mit einem Konto gibt es Taler.",
    en: "is playing as a guest – guests hold no Taler and play without a stake. Choose Friendly or Rated without a stake; an account comes with Taler.",
  },
  swap: { de: "⇄ Farben tauschen", en: "⇄ Swap colours" },
  begins: { de: "beginnt", en: "begins" },
  swapStarter: { de: "⇄ Beginner tauschen", en: "⇄ Swap who begins" },
  beginsFirstRound: { de: "beginnt die erste Runde", en: "begins the first round" },
  accept: { de: "Annehmen", en: "Accept" },
  decline: { de: "Ablehnen", en: "Decline" },
  withdraw: { de: "Zurückziehen", en: "Withdraw" },
  waitingFor: { de: "Warte auf", en: "Waiting for" },
  pleaseConfirm: { de: "hat etwas geändert – bitte bestätigen.", en: "changed something – please confirm." },
  newChallenge: { de: "fordert dich heraus – meist fehlt nur die Bedenkzeit.", en: "challenges you – usually only the time needs agreeing." },
  expiresIn: { de: "verfällt in", en: "expires in" },
  seconds: { de: "s", en: "s" },
  status_declined: { de: "Abgelehnt.", en: "Declined." },
  status_withdrawn: { de: "Zurückgezogen.", en: "Withdrawn." },
  status_expired: { de: "Abgelaufen.", en: "Expired." },
  status_started: { de: "Die Partie beginnt …", en: "The game is starting …" },
  status_agreed: { de: "Einig – die Partie wird angelegt …", en: "Agreed – creating the game …" },
  rematchOf: { de: "Revanche", en: "Rematch" },
  preview: { de: "Vorschau", en: "Preview" },
  unknownPreview: { de: "?", en: "?" },
  seekTitle: { de: "Gegner suchen", en: "Find an opponent" },
  seekHint: {
    de: "findet jemanden in deiner Spielstärke (Elo) – du kannst solange weiter stöbern.",
    en: "finds someone of your strength (Elo) – you can keep looking around meanwhile.",
  },
  seekStart: { de: "Gegner suchen", en: "Find an opponent" },
  seekMine: { de: "Du suchst einen Gegner für", en: "You are looking for an opponent for" },
  seekFor: { de: "für", en: "for" },
  seekOther: { de: "sucht einen Gegner", en: "is looking for an opponent" },
  seekTake: { de: "Annehmen", en: "Accept" },
  seekNone: { de: "Gerade sucht niemand.", en: "Nobody is looking right now." },
  rankings: { de: "Ranglisten", en: "Rankings" },
  elo: { de: "Rangliste", en: "Rating list" },
  month: { de: "Monatsliste", en: "This month" },
  all: { de: "Ewige Liste", en: "All time" },
  rank: { de: "Platz", en: "Rank" },
  player: { de: "Spieler", en: "Player" },
  points: { de: "Punkte", en: "Points" },
  games: { de: "Partien", en: "Games" },
  listEmpty: { de: "Noch keine gewertete Partie.", en: "No rated game yet." },
  listUnavailable: { de: "Die Liste ist gerade nicht erreichbar.", en: "The list is unavailable right now." },
} as const;

export type ChallengeTextKey = keyof typeof TEXTS;

export function ct(key: ChallengeTextKey): string {
  return TEXTS[key][lang()];
}
