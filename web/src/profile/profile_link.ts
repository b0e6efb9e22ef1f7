// A player's name as a link to their profile (#/spieler/<id>): in the Wartesaal list,
// the lists and at the tables.
import { el } from "../dom";

export function profileLink(userId: number, name: string, extra: Record<string, string> = {}): HTMLAnchorElement {
  return el("a", { href: `#/spieler/${userId}`, class: "profile-link", "data-testid": "profile-link", ...extra }, name);
}

/** A name at a table: the profile opens in a new tab, so the table stays open (leaving a
 * running game loses it). Computer seats and unknown players stay plain text. */
export function tableNameLink(userId: number | null | undefined, text: string): Node {
  if (userId === null || userId === undefined) return document.createTextNode(text);
  return el("a", { href: `#/spieler/${userId}`, target: "_blank", rel: "noopener", class: "profile-link", "data-testid": "profile-link" }, text);
}
