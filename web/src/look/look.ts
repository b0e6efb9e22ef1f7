// Ansicht: how the boards look on this device (seeds 001 and 004) — Battlehexagon's
// Fassung, Battlebullet's board and 2D/3D, cell names, the background music. Kept in
// localStorage; applied as CSS variables and data attributes on <html>, which the
// boards' CSS reads, so the board code only draws shapes with class names.
import { BULLET_BOARDS, type BulletBoardName, HEXAGON_FRAMES, type HexagonFrameName } from "./themes";

export type Depth = "2d" | "3d";

export interface Look {
  hexFrame: HexagonFrameName;
  bulletBoard: BulletBoardName;
  bulletDepth: Depth;
  cellNames: boolean;
  /** Which of the five musics (0–4). */
  music: number;
  musicOn: boolean;
}

export const MUSIC_COUNT = 5;
const STORAGE_KEY = "spielcenter.look";
// The tables remember their switches per game under these keys (table/board_stage.ts);
// the Ansicht's cell-name switch sets them, so table and Ansicht agree.
const CELL_NAME_KEYS = ["spielcenter.board.hexagon.names", "spielcenter.board.bullet.names"];

const DEFAULT: Look = { hexFrame: "gold", bulletBoard: "edelstahl", bulletDepth: "2d", cellNames: false, music: 0, musicOn: false };

/** What is stored, each field checked on its own (an old or hand-edited entry keeps what is valid). */
function read(): Look {
  let raw: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}");
    if (parsed && typeof parsed === "object") raw = parsed as Record<string, unknown>;
  } catch {
    raw = {};
  }
  const music = Number(raw.music);
  return {
    hexFrame: typeof raw.hexFrame === "string" && raw.hexFrame in HEXAGON_FRAMES ? (raw.hexFrame as HexagonFrameName) : DEFAULT.hexFrame,
    bulletBoard: typeof raw.bulletBoard === "string" && raw.bulletBoard in BULLET_BOARDS ? (raw.bulletBoard as BulletBoardName) : DEFAULT.bulletBoard,
    bulletDepth: raw.bulletDepth === "3d" ? "3d" : "2d",
    cellNames: typeof raw.cellNames === "boolean" ? raw.cellNames : DEFAULT.cellNames,
    music: Number.isInteger(music) && music >= 0 && music < MUSIC_COUNT ? music : DEFAULT.music,
    musicOn: raw.musicOn === true,
  };
}

let current = read();
const listeners = new Set<(look: Look) => void>();

export function look(): Look {
  return current;
}

export function setLook(change: Partial<Look>): void {
  current = { ...current, ...change };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(current));
  if (change.cellNames !== undefined) for (const key of CELL_NAME_KEYS) localStorage.setItem(key, String(change.cellNames));
  applyLook();
  for (const listener of [...listeners]) listener(current);
}

/** Be told about every change; returns the function that stops it. */
export function onLookChange(listener: (look: Look) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Be told when the Wabennamen switch itself changes (a new frame or board is no such change:
 * it must not undo a table's own names toggle); returns the function that stops it. */
export function onCellNamesChange(listener: (names: boolean) => void): () => void {
  let names = current.cellNames;
  return onLookChange((chosen) => {
    if (chosen.cellNames === names) return;
    names = chosen.cellNames;
    listener(names);
  });
}

/** Put the chosen theme onto <html>: CSS variables for colours, data attributes for the rest. */
export function applyLook(): void {
  const root = document.documentElement;
  const frame = HEXAGON_FRAMES[current.hexFrame];
  const board = BULLET_BOARDS[current.bulletBoard];
  const variables: Record<string, string> = {
    "--hex-frame": frame.frame, "--hex-cell": frame.cell, "--hex-text": frame.text, "--hex-rubin": frame.rubin, "--hex-perle": frame.perle,
    "--bullet-frame": board.frame, "--bullet-hole": board.hole, "--bullet-text": board.text, "--bullet-white": board.white, "--bullet-black": board.black,
  };
  for (const [name, value] of Object.entries(variables)) root.style.setProperty(name, value);
  root.dataset.hexFrame = current.hexFrame;
  root.dataset.bulletBoard = current.bulletBoard;
  root.dataset.bulletDepth = current.bulletDepth;
  root.dataset.look = "on";
}
