// The app's routes (hash based, so links work for anyone and need no server routes): the table
// pages #/partie/<id>, #/nachspielen/<id>, #/computer, #/zuzweit, #/live, #/meine-partien, and
// #/spiel[/<game>], #/spieler/<id>, #/postfach, #/aufgaben/<game> and the solo pages; #/ is the Wartesaal.
import "./table/table.css";
import { el } from "./dom";
import { StartPanel } from "./local/start_panel";
import { LivePage } from "./live/live_page";
import { MyGamesPage } from "./mygames/my_games_page";
import { gamePageFor, gamesNavLink } from "./gamepage/game_page";
import { MailboxPage } from "./mailbox/mailbox_page";
import { puzzlesPageFor } from "./puzzles/aufgaben_page";
import { ProfilePage } from "./profile/profile_page";
import type { User } from "./protocol";
import { ReplayPage } from "./replay/replay_page";
import { soloNavLink } from "./solo/solo_nav";
import { soloPageFor } from "./solo/solo_routes";
import { TablePage } from "./table/table_page";
import { tt, type TableTextKey } from "./table/texts";

export interface Page {
  readonly root: HTMLElement;
  close(): void;
}

/** The page for ``hash``, or null for the Wartesaal itself. */
export function pageFor(hash: string, user: User): Page | null {
  const path = hash.replace(/^#\/?/, "");
  const [name, arg] = path.split("/");
  const id = Number(arg);
  switch (name) {
    case "partie":
      return Number.isInteger(id) && id > 0 ? new TablePage(id) : null;
    case "nachspielen":
      return Number.isInteger(id) && id > 0 ? new ReplayPage(id) : null;
    case "computer":
      return { root: new StartPanel("computer").root, close: () => undefined };
    case "zuzweit":
      return { root: new StartPanel("same_device").root, close: () => undefined };
    case "live":
      return new LivePage();
    case "meine-partien":
      return new MyGamesPage(user);
    case "spiel":
      return gamePageFor(arg);
    case "spieler":
      return Number.isInteger(id) && id > 0 ? new ProfilePage(id, user) : null;
    case "postfach":
      return new MailboxPage(user);
    case "aufgaben":
      return puzzlesPageFor(arg);
    default:
      return soloPageFor(name, arg, user); // #/tagesmarkt, #/handelsaufgaben[/<id>], else null
  }
}

const LINKS: Array<[string, TableTextKey | null]> = [
  ["#/", null],
  ["#/computer", "againstComputer"],
  ["#/zuzweit", "sameDevice"],
  ["#/live", "live"],
  ["#/meine-partien", "myGames"],
];

/** The navigation between the Wartesaal and the table pages: a row of links on wide screens,
 * a small menu where the header has no room for them (redrawn on a language switch). */
export function tableNav(): HTMLElement & { redraw(): void } {
  const nav = el("nav", { class: "pages", "data-testid": "pages" });
  const links = (): HTMLAnchorElement[] =>
    [...LINKS.map(([href, key]) => el("a", { href, "data-testid": `nav-${href.slice(2) || "wartesaal"}` }, key ? tt(key) : "Wartesaal")), gamesNavLink(), soloNavLink()];
  const draw = (): void => {
    const menu = el("details", { class: "pages-menu" }, el("summary", { "data-testid": "pages-menu" }, `${tt("menu")} ▾`), el("div", { class: "pages-popup" }, ...links()));
    // Choosing a page closes the menu.
    menu.addEventListener("click", (event) => {
      if ((event.target as Element).closest("a")) menu.open = false;
    });
    // Escape closes the open menu, like a dialog, and gives the focus back to its button.
    menu.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !menu.open) return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
    });
    nav.replaceChildren(el("div", { class: "pages-row" }, ...links()), menu);
  };
  draw();
  return Object.assign(nav, { redraw: draw });
}
