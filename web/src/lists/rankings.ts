// Rangliste (Elo), Monatsliste and ewige Liste (points), per game, in the Wartesaal.
// Read from the lobby's /api/rating/lists (forwarded to the rating service). Battlehanse
// also links its Tagesliste (#/tagesmarkt).
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import { CHALLENGE_GAMES, GAMES } from "../challenge/game_options";
import { ct } from "../challenge/texts";
import { profileLink } from "../profile/profile_link";

type Kind = "elo" | "month" | "all";
const KINDS: Kind[] = ["elo", "month", "all"];

interface Entry {
  rank: number;
  user_id: number;
  name: string;
  elo?: number;
  points?: number;
  games: number;
}

export class Rankings {
  readonly root: HTMLElement;
  private game: string = CHALLENGE_GAMES[0];
  private kind: Kind = "elo";
  private readonly body = el("div", { class: "ranking-body", "data-testid": "ranking" });
  private readonly controls = el("div", { class: "tabs" });
  private readonly heading = el("h2");
  // What the body shows now (a list, "none yet" or "unavailable"), drawn again at once on a
  // language switch instead of keeping the old language until the next fetch returns.
  private shown: { game: string; kind: Kind; draw: () => void } | null = null;

  constructor(private readonly myId: () => number) {
    this.root = el("section", { class: "rankings", "data-testid": "rankings" }, this.heading, this.controls, this.body);
    onLangChange(() => this.refresh());
    this.refresh();
  }

  refresh(): void {
    this.heading.textContent = ct("rankings");
    this.controls.replaceChildren(
      ...CHALLENGE_GAMES.map((game) => this.tab(GAMES[game].title, this.game === game, `ranking-game-${game}`, () => (this.game = game))),
      el("span", { class: "gap" }, " "),
      ...KINDS.map((kind) => this.tab(ct(kind), this.kind === kind, `ranking-kind-${kind}`, () => (this.kind = kind))),
      // Battlehanse's Tagesliste (the ten best of today's Tagesmarkt) lives on the Tagesmarkt page.
      ...(this.game === "hanse" ? [el("a", { href: "#/tagesmarkt", class: "daily-list", "data-testid": "ranking-daily" }, lang() === "en" ? "Daily list" : "Tagesliste")] : []),
    );
    const game = this.game;
    const kind = this.kind;
    if (this.shown && this.shown.game === game && this.shown.kind === kind) this.shown.draw();
    const draw = (what: () => void): void => {
      if (game !== this.game || kind !== this.kind) return; // another list was asked for meanwhile
      this.shown = { game, kind, draw: what };
      what();
    };
    fetch(`/api/rating/lists?game=${game}&kind=${kind}`, { headers: { "X-Lang": lang() }, credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((data: { entries: Entry[] }) => draw(() => this.show(data.entries)))
      .catch(() => draw(() => this.body.replaceChildren(el("p", { class: "hint" }, ct("listUnavailable")))));
  }

  private tab(text: string, pressed: boolean, testId: string, choose: () => void): HTMLButtonElement {
    const button = el("button", { type: "button", "aria-pressed": String(pressed), "data-testid": testId }, text);
    button.addEventListener("click", () => {
      choose();
      this.refresh();
    });
    return button;
  }

  private show(entries: Entry[]): void {
    if (entries.length === 0) {
      this.body.replaceChildren(el("p", { class: "hint" }, ct("listEmpty")));
      return;
    }
    const valueHead = this.kind === "elo" ? "Elo" : ct("points");
    const rows = entries.map((entry) =>
      el(
        "tr",
        { class: entry.user_id === this.myId() ? "me" : undefined },
        el("td", {}, String(entry.rank)),
        el("td", {}, profileLink(entry.user_id, entry.name)),
        el("td", {}, String(this.kind === "elo" ? entry.elo : entry.points)),
        el("td", {}, String(entry.games)),
      ),
    );
    this.body.replaceChildren(
      el(
        "table",
        {},
        el("thead", {}, el("tr", {}, el("th", {}, ct("rank")), el("th", {}, ct("player")), el("th", {}, valueHead), el("th", {}, ct("games")))),
        el("tbody", {}, ...rows),
      ),
    );
  }
}
