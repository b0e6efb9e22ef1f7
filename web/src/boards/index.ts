// Which board draws which game. Battlegeneral and Battlehanse plug in here later.
import type { BoardFactory } from "./board";
import { bulletBoard } from "./bullet";
import { generalBoard } from "./general";
import { hanseBoard } from "./hanse";
import { hexagonBoard } from "./hexagon";

const BOARDS: Record<string, BoardFactory> = { hexagon: hexagonBoard, bullet: bulletBoard, general: generalBoard, hanse: hanseBoard };

export function boardFor(game: string): BoardFactory | null {
  return BOARDS[game] ?? null;
}
