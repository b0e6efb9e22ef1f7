// Battlegeneral's pieces for the player: names, how each moves and fights (seed 002),
// and the Karten-Info text. The hint about the position uses only what the view
// holds for this seat — own ranks and ranks shown in fights — so an unseen enemy
// piece stays unseen here too.
import type { Language } from "../protocol";

/** Rank tokens as the engine writes them, from the Feldmarschall down (the click-to-place order). */
export const TOKENS = ["10", "9", "8", "7", "6", "5", "4", "3", "2", "S", "B", "F"] as const;
export type Token = (typeof TOKENS)[number];

export const ARMY: Record<Token, number> = { "10": 1, "9": 1, "8": 2, "7": 3, "6": 4, "5": 4, "4": 4, "3": 5, "2": 8, S: 1, B: 6, F: 1 };

const NAMES: Record<Token, [string, string]> = {
  "10": ["Feldmarschall", "Marshal"], "9": ["General", "General"], "8": ["Oberst", "Colonel"], "7": ["Major", "Major"],
  "6": ["Hauptmann", "Captain"], "5": ["Leutnant", "Lieutenant"], "4": ["Unteroffizier", "Sergeant"], "3": ["Mineur", "Miner"],
  "2": ["Aufklärer", "Scout"], S: ["Spion", "Spy"], B: ["Mine", "Mine"], F: ["Fahne", "Flag"],
};

export const SEAT_NAMES: Array<Record<Language, string>> = [{ de: "Rot", en: "Red" }, { de: "Blau", en: "Blue" }];

/**
 * What happens to a setup that is not finished (the rules line the table shows during the
 * setup). It says what the server does: services/game/rules/move_limits.py gives Battlegeneral
 * five minutes per move in the Wartesaal, and table.py runs that time only when a single
 * seat may act — while both set up, nobody's time runs.
 */
export const SETUP_TIME_RULE: Record<Language, string> = {
  de: "Zeit bei der Aufstellung: Solange beide aufstellen, läuft keine Zugzeit. Sobald eine Seite Fertig gedrückt hat, hat die andere für jede weitere Aktion 5 Minuten – wer sie überschreitet, verlässt die Partie und verliert sie. Gegen den Computer und zu zweit an einem Gerät gibt es keine Zugzeit.",
  en: "Time during the setup: while both are setting up, no move time runs. Once one side has pressed Done, the other has 5 minutes for each further action – whoever exceeds them leaves the game and loses it. Against the computer and for two on one device there is no move time.",
};

export function rankName(token: string, language: Language): string {
  const names = NAMES[token as Token];
  return names ? names[language === "en" ? 1 : 0] : token;
}

/** The number the engine compares (Spion 1 … Feldmarschall 10, Mine 11, Fahne 12). */
function code(token: string): number {
  return token === "S" ? 1 : token === "B" ? 11 : token === "F" ? 12 : Number(token);
}

/** Does `attacker` win when it strikes `defender`? (the engine's fight rule, seed 002) */
export function attackerWins(attacker: string, defender: string): boolean {
  if (defender === "F") return true;
  if (defender === "B") return attacker === "3";
  if (attacker === "S" && defender === "10") return true;
  return code(attacker) > code(defender);
}

const movable = (token: string): boolean => token !== "B" && token !== "F";

function movesText(token: string, language: Language): string {
  const de = language !== "en";
  if (!movable(token)) return de ? "Zieht nie und greift nie an." : "Never moves and never attacks.";
  if (token === "2") return de ? "Zieht beliebig weit in gerader Linie, ohne zu springen." : "Moves any distance in a straight line, never jumping.";
  return de ? "Zieht ein Feld waagerecht oder senkrecht." : "Moves one square sideways or straight.";
}

function list(tokens: string[], language: Language): string {
  return tokens.length === 0 ? (language === "en" ? "none" : "keine") : tokens.map((t) => rankName(t, language)).join(", ");
}

/** Whom `token` beats as attacker and who beats it when attacked. */
function fightText(token: string, language: Language): string[] {
  const de = language !== "en";
  const others = TOKENS.filter((t) => t !== "F");
  const beaten = movable(token) ? others.filter((d) => attackerWins(token, d) && d !== token) : [];
  const losesTo = others.filter((a) => movable(a) && attackerWins(a, token));
  const lines = [];
  if (movable(token)) lines.push(`${de ? "Schlägt" : "Beats"}: ${list(beaten, language)}${token === "S" ? (de ? " (nur als Angreifer)" : " (only when attacking)") : ""}`);
  lines.push(`${de ? "Unterliegt" : "Loses to"}: ${list(losesTo, language)}`);
  return lines;
}

export interface KnownPiece {
  id: number;
  owner: number;
  rank: string | null;
  moved: boolean;
  scouted: boolean;
  revealed: boolean;
}

/** What the seat knows of the board: its own pieces, the enemy's pieces, the captured per seat. */
export interface Knowledge {
  you: number | null;
  pieces: KnownPiece[];
  captured: Array<Array<{ id: number; rank: string }>>;
}

/** Enemy pieces of each rank not yet seen (neither captured nor revealed on the board). */
function unseenEnemy(k: Knowledge, enemy: number): Record<string, number> {
  const left: Record<string, number> = { ...ARMY };
  for (const p of k.captured[enemy] ?? []) left[p.rank] -= 1;
  for (const p of k.pieces) if (p.owner === enemy && p.rank !== null) left[p.rank] -= 1;
  return left;
}

/** The Karten-Info lines for a piece as this seat sees it. */
export function cardInfo(piece: KnownPiece, k: Knowledge, language: Language): { title: string; lines: string[] } {
  const de = language !== "en";
  const side = SEAT_NAMES[piece.owner][language];
  if (piece.rank === null) {
    const seen: string[] = [];
    if (piece.scouted) seen.push(de ? "ist wie ein Aufklärer gelaufen" : "ran like a scout");
    else if (piece.moved) seen.push(de ? "hat gezogen (keine Mine, keine Fahne)" : "has moved (no mine, no flag)");
    else seen.push(de ? "hat noch nicht gezogen" : "has not moved yet");
    return { title: `${de ? "Verdeckte Figur" : "Hidden piece"} (${side})`, lines: [de ? `Bekannt: ${seen.join(", ")}.` : `Known: ${seen.join(", ")}.`] };
  }
  const lines = [movesText(piece.rank, language), ...fightText(piece.rank, language)];
  if (k.you !== null) {
    if (piece.owner === k.you) {
      const left = unseenEnemy(k, 1 - k.you);
      const stronger = TOKENS.filter((t) => movable(t) && left[t] > 0 && attackerWins(t, piece.rank!) && t !== piece.rank);
      const text = stronger.map((t) => `${left[t]}× ${rankName(t, language)}`).join(", ");
      lines.push(de ? `Noch ungesehene stärkere Gegner: ${text || "keine"}.` : `Stronger enemies not yet seen: ${text || "none"}.`);
    } else {
      const own = new Set(k.pieces.filter((p) => p.owner === k.you && p.rank !== null && movable(p.rank)).map((p) => p.rank!));
      const beaters = TOKENS.filter((t) => own.has(t) && attackerWins(t, piece.rank!));
      lines.push(de ? `Schlagen kannst du sie mit: ${list(beaters, language)}.` : `You can beat it with: ${list(beaters, language)}.`);
    }
  }
  return { title: `${rankName(piece.rank, language)} (${piece.rank}) · ${side}`, lines };
}
