// Links to the Aufgaben pages: one per game, for the Wartesaal and the game pages.
import { el } from "../dom";
import { onLangChange } from "../i18n";
import { gameLabel } from "../profile/game_marks";
import { at } from "./texts";

export const PUZZLE_GAMES = ["hexagon", "bullet", "general"] as const;

/** The address of a game's puzzles (Battlehanse's are its Handelsaufgaben). */
export function puzzlesHref(game: string): string {
  return game === "hanse" ? "#/handelsaufgaben" : `#/aufgaben/${game}`;
}

function fill(card: HTMLElement): void {
  card.replaceChildren(
    el("h3", {}, at("puzzles")),
    el("p", {}, ...[...PUZZLE_GAMES, "hanse"].flatMap((game, i) => [
      i > 0 ? " · " : "",
      el("a", { href: puzzlesHref(game), "data-testid": `aufgaben-link-${game}` }, game === "hanse" ? `${gameLabel(game)} (${at("tradingPuzzles")})` : gameLabel(game)),
    ])));
}

// Held weakly, as i18n's labels: a Wartesaal dropped at logout takes its card with it.
const cards: Array<WeakRef<HTMLElement>> = [];
onLangChange(() => {
  for (let i = cards.length - 1; i >= 0; i--) {
    const card = cards[i].deref();
    if (card === undefined) cards.splice(i, 1);
    else fill(card);
  }
});

/** A small card for the Wartesaal: "Aufgaben" and a link per game, in the language chosen now. */
export function puzzlesCard(): HTMLElement {
  const card = el("section", { class: "aufgaben-links", "data-testid": "aufgaben-links" });
  fill(card);
  cards.push(new WeakRef(card));
  return card;
}
