// The solo pages behind the routes #/tagesmarkt, #/handelsaufgaben and #/handelsaufgaben/<id>.
import type { User } from "../protocol";
import { DailyMarketPage } from "./daily_market_page";
import { PuzzleListPage, PuzzlePage } from "./puzzles_page";

export interface SoloPage {
  readonly root: HTMLElement;
  close(): void;
}

/** The solo page for a route's name and argument, or null when the route is not one of them. */
export function soloPageFor(name: string, arg: string | undefined, user: User): SoloPage | null {
  if (name === "tagesmarkt") return new DailyMarketPage(user);
  if (name === "handelsaufgaben") return arg ? new PuzzlePage(arg) : new PuzzleListPage();
  return null;
}
