// The choices of each game's options as the panel offers them. Only labels and the
// order of the choices live here; the server (the engine) decides what is valid.
import type { Language } from "../protocol";
import { gameLabel } from "../profile/game_marks";

type Label = Record<Language, string>;

export interface OptionChoice {
  value: string | number | null;
  label: Label;
}

export interface OptionField {
  key: string;
  label: Label;
  choices: OptionChoice[];
}

export interface GameInfo {
  title: string;
  options: OptionField[];
  /** Battlebullet in the Wartesaal always runs a clock (seed 004). */
  untimedAllowed: boolean;
  seats: [Label, Label];
  /** false: a card game without colours (⇄ swaps who begins the first round). */
  colours?: boolean;
  /** false: no start position worth a preview (Battlehanse deals at random). */
  preview?: boolean;
}

const l = (de: string, en: string): Label => ({ de, en });

export const GAMES: Record<string, GameInfo> = {
  hexagon: {
    title: gameLabel("hexagon"),
    untimedAllowed: true,
    seats: [l("Rubin", "Ruby"), l("Perle", "Pearl")],
    options: [
      {
        key: "map",
        label: l("Karte", "Map"),
        choices: [
          { value: "klassisch", label: l("Klassisch", "Classic") },
          { value: "dreiloch", label: l("Dreiloch", "Three holes") },
          { value: "krater", label: l("Krater", "Crater") },
          { value: "burggraben", label: l("Burggraben", "Moat") },
          { value: "saeulen", label: l("Säulen", "Pillars") },
          { value: "zufall", label: l("Zufall", "Random") },
        ],
      },
      {
        key: "end_rule",
        label: l("Endregel", "End rule"),
        choices: [
          { value: "auffuellen", label: l("Auffüllen", "Fill up") },
          { value: "aussetzen", label: l("Aussetzen", "Pass") },
        ],
      },
    ],
  },
  bullet: {
    title: gameLabel("bullet"),
    untimedAllowed: false,
    seats: [l("Weiß", "White"), l("Schwarz", "Black")],
    options: [
      {
        key: "layout",
        label: l("Aufstellung", "Layout"),
        choices: [
          { value: "standard", label: l("Standard", "Standard") },
          { value: "belgisch", label: l("Belgisches Gänseblümchen", "Belgian daisy") },
          { value: "deutsch", label: l("Deutsches Gänseblümchen", "German daisy") },
        ],
      },
      {
        key: "win_target",
        label: l("Siegziel", "Win target"),
        choices: [
          { value: 6, label: l("6 Kugeln", "6 marbles") },
          { value: 4, label: l("4 Kugeln", "4 marbles") },
        ],
      },
      {
        key: "move_limit",
        label: l("Zuglimit", "Move limit"),
        choices: [
          { value: null, label: l("aus", "off") },
          { value: 100, label: l("100 Züge", "100 moves") },
        ],
      },
    ],
  },
  general: {
    title: gameLabel("general"),
    // Without a clock: five minutes per move (seed 002); the game service keeps the limit.
    untimedAllowed: true,
    seats: [l("Rot", "Red"), l("Blau", "Blue")],
    options: [],
  },
  hanse: {
    title: gameLabel("hanse"),
    untimedAllowed: true,
    seats: [l("Spieler 1", "Player 1"), l("Spieler 2", "Player 2")],
    colours: false,
    preview: false,
    // A match is won with two Ratssiegel (the engine's default); no other choice here.
    options: [],
  },
};

/** The games a player can be challenged to from the list (the others plug in with their boards). */
export const CHALLENGE_GAMES = ["hexagon", "bullet", "general", "hanse"] as const;

export const CLOCKS = ["3+2", "5+3", "10+5", "15+10", "ohne"] as const;
