// Challenges in the Wartesaal: "challenge to …" beside a name, and one settings panel per
// open challenge that both sides see. Every change is sent as a proposal; the other side
// confirms with Annehmen; when both agree the lobby starts the game and both browsers
// open #/partie/<id>. The server decides what is valid; this only shows and asks.
import type { Socket } from "socket.io-client";
import { boardFor } from "../boards";
import type { Board } from "../boards/board";
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import type { Challenge, ChallengeSettings, ClientToServerEvents, GameView, Player, ServerToClientEvents } from "../protocol";
import { CHALLENGE_GAMES, CLOCKS, GAMES } from "./game_options";
import { ct } from "./texts";
import "./challenge.css";

type LobbySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const CLOSED_SHOWN_MS = 5000;
const STAKE_MIN = 10;
const STAKE_MAX = 100;
// Guests hold no Taler and play no staked game (the server refuses it). Their names, and only
// theirs, begin with "Gast-": a registered name may not (shared/accounts.py, name_reserved).
const isGuestName = (name: string): boolean => name.toLowerCase().startsWith("gast-");

export class ChallengeDesk {
  readonly root: HTMLElement;
  private readonly list = el("div", { class: "challenge-list", "data-testid": "challenges" });
  private readonly challenges = new Map<string, { challenge: Challenge; received: number }>();
  private readonly previews = new Map<string, Board>();
  private ticker = 0;
  private menuOpenFor: number | null = null; // whose challenge menu is open (see offerMenu)

  constructor(
    private readonly socket: LobbySocket,
    private readonly myId: () => number,
  ) {
    this.root = el("section", { class: "card challenges", hidden: true }, el("h2", {}, ct("challenges")), this.list);
    socket.on("challenge:update", ({ challenge }) => this.update(challenge));
    socket.on("challenge:started", ({ challenge_id, game_id }) => {
      // The panel has done its job; left open it would cover the table's side panel.
      this.previews.get(challenge_id)?.destroy();
      this.previews.delete(challenge_id);
      this.challenges.delete(challenge_id);
      this.render();
      location.hash = `#/partie/${game_id}`;
    });
    onLangChange(() => this.render());
    // The expiry countdown.
    this.ticker = window.setInterval(() => this.tick(), 1000);
  }

  close(): void {
    window.clearInterval(this.ticker);
    for (const board of this.previews.values()) board.destroy();
  }

  /** The little menu beside a player's name: challenge them to one of the games.
   *
   * The player list is drawn anew whenever anyone's presence changes; the menu opened for a
   * player is remembered here, so a redraw between opening it and picking a game keeps it
   * open instead of taking the button from under the pointer. */
  offerMenu(player: Player): HTMLElement {
    const menu = el("span", { class: "challenge-menu" });
    const open = el("button", { type: "button", class: "link", "data-testid": "challenge-open", title: ct("challengeWith") }, "⚔");
    const close = (): void => {
      this.menuOpenFor = null;
      menu.replaceChildren(open);
    };
    const showGames = (): void => {
      this.menuOpenFor = player.user_id;
      menu.replaceChildren(
        ...CHALLENGE_GAMES.map((game) => {
          const pick = el("button", { type: "button", "data-testid": `challenge-${game}` }, GAMES[game].title);
          pick.addEventListener("click", () => {
            this.socket.emit("challenge:create", { to_user_id: player.user_id, game });
            close();
          });
          return pick;
        }),
        this.cancelButton(close),
      );
    };
    open.addEventListener("click", showGames);
    if (this.menuOpenFor === player.user_id) showGames();
    else menu.append(open);
    return menu;
  }

  private cancelButton(onClick: () => void): HTMLButtonElement {
    const cancel = el("button", { type: "button", class: "link" }, ct("cancel"));
    cancel.addEventListener("click", onClick);
    return cancel;
  }

  private update(challenge: Challenge): void {
    this.challenges.set(challenge.id, { challenge, received: Date.now() });
    if (!["open", "agreed"].includes(challenge.status)) {
      window.setTimeout(() => {
        const entry = this.challenges.get(challenge.id);
        if (entry && entry.challenge.status === challenge.status) {
          this.challenges.delete(challenge.id);
          this.previews.get(challenge.id)?.destroy();
          this.previews.delete(challenge.id);
          this.render();
        }
      }, CLOSED_SHOWN_MS);
    }
    this.render();
  }

  private render(): void {
    this.root.hidden = this.challenges.size === 0;
    this.list.replaceChildren(...[...this.challenges.values()].map(({ challenge }) => this.panel(challenge)));
  }

  private tick(): void {
    for (const { challenge, received } of this.challenges.values()) {
      const node = this.list.querySelector<HTMLElement>(`[data-challenge="${challenge.id}"] .expires`);
      if (node) node.textContent = this.expiryText(challenge, received);
    }
  }

  private expiryText(challenge: Challenge, received: number): string {
    const left = Math.max(0, Math.ceil((challenge.expires_in_ms - (Date.now() - received)) / 1000));
    return `${ct("expiresIn")} ${left} ${ct("seconds")}`;
  }

  private panel(challenge: Challenge): HTMLElement {
    const me = this.myId();
    const info = GAMES[challenge.game];
    const other = challenge.challenger.user_id === me ? challenge.challenged : challenge.challenger;
    const live = challenge.status === "open";
    const settings = challenge.settings;
    const propose = (change: Partial<ChallengeSettings>): void => {
      const next = { ...settings, ...change };
      if (!next.rated) next.stake = 0;
      this.socket.emit("challenge:propose", { challenge_id: challenge.id, settings: next });
    };
    const root = el("article", { class: "challenge", "data-challenge": challenge.id, "data-testid": "challenge-panel", "data-status": challenge.status });
    const title = `${info?.title ?? challenge.game}: ${challenge.challenger.name} ${ct("vs")} ${challenge.challenged.name}`;
    root.append(el("h3", {}, challenge.rematch_of !== null ? `${ct("rematchOf")} – ${title}` : title));

    // Bedenkzeit.
    const clocks = CLOCKS.filter((c) => c !== "ohne" || info?.untimedAllowed !== false);
    root.append(this.choiceRow(ct("clock"), "clock", clocks.map((c) => ({ value: c, text: c === "ohne" ? ct("noClock") : c })), settings.clock, live, (value) => propose({ clock: value as ChallengeSettings["clock"] })));
    // The game's options.
    for (const field of info?.options ?? []) {
      const current = (settings.options as Record<string, unknown>)[field.key] ?? null;
      root.append(
        this.choiceRow(field.label[lang()], field.key, field.choices.map((choice) => ({ value: choice.value, text: choice.label[lang()] })), current, live, (value) =>
          propose({ options: { ...settings.options, [field.key]: value } }),
        ),
      );
    }
    // Art and Einsatz.
    root.append(
      this.choiceRow(ct("kind"), "rated", [{ value: true, text: ct("rated") }, { value: false, text: ct("friendly") }], settings.rated, live, (value) => propose({ rated: value as boolean })),
    );
    const guest = [challenge.challenger, challenge.challenged].find((party) => isGuestName(party.name));
    const stake = el("input", { type: "number", min: "0", max: String(STAKE_MAX), step: "10", value: String(settings.stake), disabled: !live || !settings.rated || guest !== undefined, "data-testid": "challenge-stake" });
    stake.addEventListener("change", () => {
      const value = Math.round(Number(stake.value) || 0);
      propose({ stake: value > 0 ? Math.min(STAKE_MAX, Math.max(STAKE_MIN, value)) : 0 });
    });
    const stakeHint = guest
      ? el("small", { class: "hint", "data-testid": "challenge-guest-stake" }, `${guest.name} ${ct("guestNoStake")}`)
      : el("small", { class: "hint" }, ct("stakeHint"));
    root.append(el("label", { class: "row" }, el("span", {}, ct("stake")), stake, stakeHint));
    // ⇄ Farben tauschen (Battlehanse: Beginner tauschen): the server names who takes seat 0.
    root.append(this.seatsRow(challenge, live, () => propose({ swap: !settings.swap })));
    if (info?.preview !== false) root.append(this.previewBox(challenge));
    root.append(this.statusLine(challenge, other.name, me));
    if (live) root.append(this.actions(challenge, me));
    return root;
  }

  /** Who plays which side and who begins, as the started game will have it; the ⇄ button swaps. */
  private seatsRow(challenge: Challenge, live: boolean, onSwap: () => void): HTMLElement {
    const info = GAMES[challenge.game];
    const firstIsChallenger = challenge.first_user_id === challenge.challenger.user_id;
    const [first, second] = firstIsChallenger ? [challenge.challenger, challenge.challenged] : [challenge.challenged, challenge.challenger];
    const swap = el("button", { type: "button", disabled: !live, "data-testid": "challenge-swap" }, info?.colours === false ? ct("swapStarter") : ct("swap"));
    swap.addEventListener("click", onSwap);
    const seat = (index: 0 | 1): string => info?.seats[index][lang()] ?? String(index + 1);
    const text = info?.colours === false
      ? `${first.name} ${ct("beginsFirstRound")}`
      : `${seat(0)}: ${first.name} (${ct("begins")}) · ${seat(1)}: ${second.name}`;
    return el("div", { class: "row" }, swap, el("span", { class: "hint", "data-testid": "challenge-seats" }, text));
  }

  private choiceRow(
    caption: string,
    key: string,
    choices: { value: unknown; text: string }[],
    current: unknown,
    enabled: boolean,
    onPick: (value: unknown) => void,
  ): HTMLElement {
    const row = el("div", { class: "row choices", "data-option": key }, el("span", {}, caption));
    for (const choice of choices) {
      const chosen = choice.value === current;
      const button = el("button", { type: "button", "aria-pressed": String(chosen), disabled: !enabled, "data-value": String(choice.value) }, choice.text);
      if (!chosen) button.addEventListener("click", () => onPick(choice.value));
      row.append(button);
    }
    return row;
  }

  private previewBox(challenge: Challenge): HTMLElement {
    const box = el("div", { class: "challenge-preview", "aria-label": ct("preview") });
    const factory = boardFor(challenge.game);
    if (!factory) return box;
    const query = encodeURIComponent(JSON.stringify(challenge.settings.options));
    fetch(`/api/games/${challenge.game}/preview?options=${query}`, { credentials: "same-origin", headers: { "X-Lang": lang() } })
      .then((response) => (response.ok ? response.json() : null))
      .then((data: { view: GameView | null } | null) => {
        this.previews.get(challenge.id)?.destroy();
        this.previews.delete(challenge.id);
        if (!data) return;
        if (data.view === null) {
          box.replaceChildren(el("span", { class: "unknown" }, ct("unknownPreview")));
          return;
        }
        const board = factory({ element: box, onMove: () => undefined });
        board.render(data.view, { you: null, interactive: false, lastMove: null });
        this.previews.set(challenge.id, board);
      })
      .catch(() => undefined);
    return box;
  }

  private statusLine(challenge: Challenge, otherName: string, me: number): HTMLElement {
    const line = el("p", { class: "status-line", "data-testid": "challenge-status" });
    if (challenge.status !== "open") {
      line.textContent = ct(`status_${challenge.status}` as Parameters<typeof ct>[0]);
      return line;
    }
    const iAgree = challenge.agreed.includes(me);
    if (iAgree) line.append(`${ct("waitingFor")} ${otherName} … `);
    else if (challenge.version === 1 && challenge.challenged.user_id === me) line.append(`${otherName} ${ct("newChallenge")} `);
    else line.append(`${otherName} ${ct("pleaseConfirm")} `);
    const entry = this.challenges.get(challenge.id);
    line.append(el("small", { class: "expires" }, this.expiryText(challenge, entry?.received ?? Date.now())));
    return line;
  }

  private actions(challenge: Challenge, me: number): HTMLElement {
    const row = el("div", { class: "actions" });
    if (!challenge.agreed.includes(me)) {
      const accept = el("button", { type: "button", class: "primary", "data-testid": "challenge-accept" }, ct("accept"));
      accept.addEventListener("click", () => {
        accept.disabled = true;
        this.socket.emit("challenge:accept", { challenge_id: challenge.id, version: challenge.version });
      });
      row.append(accept);
    }
    const mine = challenge.challenger.user_id === me;
    const end = el("button", { type: "button", "data-testid": "challenge-decline" }, ct(mine ? "withdraw" : "decline"));
    end.addEventListener("click", () => this.socket.emit("challenge:decline", { challenge_id: challenge.id }));
    row.append(end);
    return row;
  }
}
