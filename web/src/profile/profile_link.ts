// A player's name as a link to their profile (#/spieler/<id>): in the Wartesaal list,
// the lists and at the tables.
import { el } from "../dom";

export function profileLink(userId: number, name: string, extra: Record<string, string> = {}): HTMLAnchorElement {
  return el("a", { href: `#/spieler/${userId}`, class: "profile-link", "data-testid": "profile-link", ...extra }, name);
}
