// The solo pages' links: one in the header ("Allein im Kontor"), and a row on each solo page.
import { el } from "../dom";
import { st } from "./texts";

export function soloNavLink(): HTMLAnchorElement {
  return el("a", { href: "#/tagesmarkt", "data-testid": "nav-solo" }, st("alone"));
}

export function soloTabs(current: "tagesmarkt" | "handelsaufgaben"): HTMLElement {
  const tab = (name: "tagesmarkt" | "handelsaufgaben", text: string) =>
    el("a", { href: `#/${name}`, "aria-current": name === current ? "page" : undefined, "data-testid": `solo-tab-${name}` }, text);
  return el("nav", { class: "solo-tabs" }, tab("tagesmarkt", st("dailyMarket")), " · ", tab("handelsaufgaben", st("puzzles")));
}
