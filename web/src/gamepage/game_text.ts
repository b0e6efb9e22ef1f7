// The shape of a game page's texts (one module per game: rules_<game>.ts), German first.
export interface Both {
  de: string;
  en: string;
}

export interface RulesSection {
  heading: Both;
  paragraphs: Both[];
}

export interface GameText {
  game: "hexagon" | "bullet" | "general" | "hanse";
  title: string;
  /** One line: what the game is. */
  pitch: Both;
  /** "Maus / Touch" and how it plays on a phone. */
  controls: Both;
  phone: Both;
  /** "In 60 Sekunden": the four lines of the quick summary. */
  summary: { goal: Both; turn: Both; end: Both; tip: Both };
  /** The full rules, in reading order. */
  rules: RulesSection[];
}
