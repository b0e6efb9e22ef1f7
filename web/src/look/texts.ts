// Texts of the Ansicht dialog and the header's music switch, German first.
import { textsOf } from "../i18n";

const TEXTS = {
  look: { de: "Ansicht", en: "View" },
  lookTitle: { de: "Ansicht und Musik", en: "View and music" },
  lookHint: { de: "Gilt für dieses Gerät.", en: "Applies to this device." },
  hexFrame: { de: "Battlehexagon – Fassung der Waben", en: "Battlehexagon – frame of the cells" },
  bulletBoard: { de: "Battlebullet – Brett", en: "Battlebullet – board" },
  depth: { de: "Darstellung", en: "Display" },
  names: { de: "Feldnamen / Wabennamen zeigen", en: "Show cell names" },
  music: { de: "Musik", en: "Music" },
  musicOn: { de: "♪ Musik an", en: "♪ Music on" },
  musicOff: { de: "♪ Musik aus", en: "♪ Music off" },
  musicSwitch: { de: "Hintergrundmusik an oder aus", en: "Background music on or off" },
  close: { de: "Schließen", en: "Close" },
} as const;

export type LookTextKey = keyof typeof TEXTS;

export const lt = textsOf(TEXTS);
