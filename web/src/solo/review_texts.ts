// Texts of Tipp, Rückblick and the record against the computer (seed 000's words), German first.
import { textsOf } from "../i18n";

const TEXTS = {
  hint: { de: "Tipp", en: "Hint" },
  hintTitle: { de: "Der starke Computer rechnet deinen Zug und setzt die Auswahl – du drückst selbst. Eine Partie mit Tipp zählt nicht für die Bilanz.", en: "The strong computer works out your move and sets the selection – you press the button yourself. A match with a hint does not count for your record." },
  hintThinking: { de: "Der starke Computer rechnet …", en: "The strong computer is thinking …" },
  hintSet: { de: "Tipp: die Auswahl ist gesetzt – drücke selbst.", en: "Hint: the selection is set – press the button yourself." },
  hintLate: { de: "Der Tipp kam zu spät; die Partie ist weiter.", en: "The hint came too late; the game has moved on." },
  hintMarked: { de: "Partie mit Tipp – zählt nicht für die Bilanz.", en: "Match with a hint – does not count for your record." },
  withHint: { de: "mit Tipp (zählt nicht)", en: "with hint (not counted)" },
  review: { de: "Rückblick", en: "Review" },
  reviewAsk: { de: "Rückblick anfordern", en: "Request review" },
  reviewMore: { de: "Rückblick ergänzen (neue Züge)", en: "Extend review (new moves)" },
  reviewExplain: { de: "Zu jedem deiner Züge rechnet der starke Computer nach, was besser gewesen wäre. Grün = guter Zug, Gelb = kleine Abweichung, Rot = hier sind Punkte liegen geblieben.", en: "For each of your moves the strong computer works out what would have been better. Green = good move, yellow = small deviation, red = points were left lying here." },
  reviewQueued: { de: "Wartet auf den Rechner …", en: "Waiting for the computer …" },
  reviewRunning: { de: "Der starke Computer rechnet", en: "The strong computer is working" },
  reviewFailed: { de: "Der Rückblick ist fehlgeschlagen.", en: "The review failed." },
  reviewDone: { de: "Fertig", en: "Done" },
  reviewGood: { de: "guter Zug", en: "good move" },
  better: { de: "besser", en: "better" },
  points: { de: "Punkte", en: "points" },
  point: { de: "Punkt", en: "point" },
  reviewJump: { de: "Tippe einen Zug an, um zu der Stelle zu springen.", en: "Tap a move to jump to that position." },
  makePublic: { de: "Für alle sichtbar machen", en: "Make visible to everyone" },
  makePrivate: { de: "Nur für mich", en: "Only for me" },
  isPublic: { de: "Öffentlich: jeder mit dem Link sieht diesen Rückblick.", en: "Public: anyone with the link sees this review." },
  ofSeat: { de: "Rückblick von Platz", en: "Review of seat" },
} as const;

export type SoloTextKey = keyof typeof TEXTS;

export const st = textsOf(TEXTS);
