// The colours of every Ansicht theme, in one place: look.ts puts them into CSS variables
// that the boards' CSS reads, and tests/browser/test_contrast.py checks their WCAG contrast
// (text ≥ 4.5 against what it is written on, pieces ≥ 3 against the cells they stand on).
// Keep this file plain data (no imports): the test bundles and evaluates it with esbuild.

export interface Named {
  de: string;
  en: string;
}

/** Battlehexagon: the Fassung (the frame around each Wabe) and the colours it comes with. */
export interface HexagonFrame extends Named {
  frame: string; // cell outline, the Fassung itself
  cell: string; // an empty Wabe
  text: string; // Wabennamen
  rubin: string;
  perle: string;
}

/** Battlebullet: the board's material. */
export interface BulletBoardTheme extends Named {
  frame: string; // the board around the holes
  hole: string;
  text: string; // Feldnamen (written on the holes)
  white: string;
  black: string;
}

export const HEXAGON_FRAMES = {
  gold: { de: "Gold", en: "Gold", frame: "#d9a92b", cell: "#2a2118", text: "#f0e4c2", rubin: "#ec4060", perle: "#f4f1ea" },
  rotgold: { de: "Rotgold", en: "Rose gold", frame: "#e8957a", cell: "#2b1b1d", text: "#f6dcd2", rubin: "#f0506a", perle: "#f4f1ea" },
  silber: { de: "Silber", en: "Silver", frame: "#c3c9d0", cell: "#1f2329", text: "#e6eaef", rubin: "#ec4060", perle: "#f4f1ea" },
  jade: { de: "Jade", en: "Jade", frame: "#5cc79a", cell: "#10261e", text: "#d6f2e4", rubin: "#f0506a", perle: "#f4f1ea" },
} satisfies Record<string, HexagonFrame>;

export const BULLET_BOARDS = {
  edelstahl: { de: "Edelstahl", en: "Stainless steel", frame: "#858d96", hole: "#767e87", text: "#000000", white: "#f7f7f4", black: "#141418" },
  porzellan: { de: "Porzellan", en: "Porcelain", frame: "#7890b5", hole: "#6f89b2", text: "#000000", white: "#fbfaf6", black: "#141418" },
  holz: { de: "Holz", en: "Wood", frame: "#a8784e", hole: "#976c48", text: "#000000", white: "#f7f3ea", black: "#141418" },
} satisfies Record<string, BulletBoardTheme>;

export type HexagonFrameName = keyof typeof HEXAGON_FRAMES;
export type BulletBoardName = keyof typeof BULLET_BOARDS;
