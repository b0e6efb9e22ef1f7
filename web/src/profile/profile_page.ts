// #/spieler/<id>: a player's name, Elo and record per game, recent games (each opening its
// replay) and a button per game that challenges them directly: in the Wartesaal and free,
// the challenge panel opens for both; otherwise an invitation goes to their Postfach.
import { el } from "../dom";
import { lang } from "../i18n";
import type { ChallengeSettings, Invitation, PlayedGame, Profile, User } from "../protocol";
import { gameLabel, PROFILE_GAMES } from "./game_marks";
import { lobbyJson } from "../api";
import { lobbyLink } from "./lobby_link";
import { pt } from "./texts";
import "./profile.css";

type Clock = ChallengeSettings["clock"];
const CLOCKS: Clock[] = ["3+2", "5+3", "10+5", "15+10", "ohne"];
// Battlebullet in the Wartesaal always runs a clock; Battlegeneral is played without one (seeds 004, 002).
const UNTIMED_FORBIDDEN = new Set(["bullet"]);
const DEFAULT_CLOCK: Record<string, Clock> = { general: "ohne" };
const STAKE_MIN = 10;
const STAKE_MAX = 100;

export function opponentText(game: PlayedGame): string {
  const who = game.opponent;
  return who.user_id === null ? `${pt("computer")} (${who.computer ?? ""})` : who.name ?? "?";
}

export function resultText(result: PlayedGame["result"]): string {
  return pt(result);
}

export class ProfilePage {
  readonly root = el("main", { class: "list-page card profile-page", "data-testid": "profile-page" });
  private readonly problem = el("p", { class: "form-error", role: "alert", "data-testid": "profile-error" });
  private readonly action = el("div", { class: "profile-action", "data-testid": "profile-action", "aria-live": "polite" });
  private profile: Profile | null = null;

  constructor(
    private readonly userId: number,
    private readonly me: User,
  ) {
    this.root.append(el("p", {}, pt("loading")));
    void this.load();
  }

  close(): void {}

  private async load(): Promise<void> {
    try {
      this.profile = await lobbyJson<Profile>(`/api/players/${this.userId}`);
      this.render(this.profile);
    } catch (error) {
      this.root.replaceChildren(this.problem);
      this.problem.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  /** Here and free now? The Wartesaal's live list knows best; the profile's answer otherwise. */
  private presence(): "free" | "playing" | "away" {
    const link = lobbyLink();
    const live = link ? link.player(this.userId) : this.profile?.here ? { status: this.profile.status } : undefined;
    if (!live) return "away";
    return live.status === "frei" ? "free" : "playing";
  }

  private render(profile: Profile): void {
    const state = this.presence();
    const stateText = state === "free" ? pt("inWartesaal") : state === "playing" ? pt("playing") : pt("away");
    const heading = el("h2", { "data-testid": "profile-name" }, profile.name);
    if (profile.guest) heading.append(el("small", { class: "tag" }, ` (${pt("guest")})`));
    const table = el("table", { class: "my-stats profile-games", "data-testid": "profile-games" },
      el("caption", {}, pt("profile")),
      el("tr", {}, el("th", {}, pt("game")), el("th", {}, pt("elo")), el("th", {}, pt("wins")), el("th", {}, pt("losses")), el("th", {}, pt("draws"))),
      ...profile.games.map((g) =>
        el("tr", { "data-game": g.game },
          el("th", {}, gameLabel(g.game)),
          el("td", { title: `${g.rated_games} ${pt("ratedGames")}` }, String(g.elo)),
          el("td", {}, String(g.wins)), el("td", {}, String(g.losses)), el("td", {}, String(g.draws)))),
    );
    const mine = profile.user_id === this.me.id;
    const buttons = el("div", { class: "profile-play", "data-testid": "profile-play" });
    if (mine) buttons.append(el("p", { class: "hint" }, pt("itsYou")));
    else {
      for (const game of PROFILE_GAMES) {
        const button = el("button", { type: "button", "data-testid": `play-${game}` }, `${gameLabel(game)} ${pt("play")}`);
        button.addEventListener("click", () => this.play(game));
        buttons.append(button);
      }
    }
    const recent = el("ul", { class: "game-list", "data-testid": "profile-recent" });
    if (profile.recent.length === 0) recent.append(el("li", { class: "empty" }, pt("noGames")));
    for (const game of profile.recent) {
      const date = new Date(game.finished_at).toLocaleString(lang(), { dateStyle: "short", timeStyle: "short" });
      recent.append(el("li", { class: "game-row" },
        el("a", { href: `#/nachspielen/${game.game_id}`, "data-testid": "profile-replay" },
          el("span", { class: "game-title" }, gameLabel(game.game)),
          el("span", { class: "outcome" }, `${resultText(game.result)} ${pt("against")} ${opponentText(game)}`),
          el("span", { class: "meta" }, game.kind === "rated" ? pt("rated") : game.kind === "friendly" ? pt("friendly") : pt("computerGames")),
          el("time", { datetime: game.finished_at }, date))));
    }
    this.root.replaceChildren(
      heading,
      el("p", { class: `presence ${state}`, "data-testid": "profile-presence" }, stateText),
      table, buttons, this.action, this.problem,
      el("h3", {}, pt("recent")), recent,
    );
  }

  private play(game: (typeof PROFILE_GAMES)[number]): void {
    this.problem.textContent = "";
    const state = this.presence();
    const link = lobbyLink();
    if (state === "free" && link) {
      link.challenge(this.userId, game);
      this.action.replaceChildren(el("p", { class: "hint", "data-testid": "challenge-sent" }, pt("challengeSent")));
      return;
    }
    this.action.replaceChildren(this.invitationForm(game, state === "playing"));
  }

  private invitationForm(game: string, busy: boolean): HTMLElement {
    const name = this.profile?.name ?? "?";
    let clock: Clock = DEFAULT_CLOCK[game] ?? "5+3";
    let rated = true;
    const form = el("form", { class: "invitation-form", "data-testid": "invitation-form" },
      el("h3", {}, `${gameLabel(game)}`),
      el("p", { class: "hint" }, `${name} ${busy ? pt("busyInvite") : pt("notHereInvite")}`));
    const clockRow = el("div", { class: "row choices", "data-option": "clock" }, el("span", {}, pt("clock")));
    const kindRow = el("div", { class: "row choices", "data-option": "rated" }, el("span", {}, pt("kind")));
    const stake = el("input", { type: "number", min: "0", max: String(STAKE_MAX), step: "10", value: "0", "data-testid": "invitation-stake" });
    const draw = (): void => {
      clockRow.replaceChildren(el("span", {}, pt("clock")), ...CLOCKS.filter((c) => c !== "ohne" || !UNTIMED_FORBIDDEN.has(game)).map((c) => {
        const b = el("button", { type: "button", "aria-pressed": String(c === clock), "data-value": c }, c === "ohne" ? pt("noClock") : c);
        b.addEventListener("click", () => { clock = c; draw(); });
        return b;
      }));
      kindRow.replaceChildren(el("span", {}, pt("kind")), ...[true, false].map((value) => {
        const b = el("button", { type: "button", "aria-pressed": String(value === rated), "data-value": String(value) }, value ? pt("rated") : pt("friendly"));
        b.addEventListener("click", () => { rated = value; draw(); });
        return b;
      }));
      stake.disabled = !rated;
      if (!rated) stake.value = "0";
    };
    draw();
    const send = el("button", { type: "submit", class: "primary", "data-testid": "invitation-send" }, pt("sendInvitation"));
    const cancel = el("button", { type: "button" }, pt("cancel"));
    cancel.addEventListener("click", () => this.action.replaceChildren());
    form.append(clockRow, kindRow,
      el("label", { class: "row" }, el("span", {}, pt("stake")), stake, el("small", { class: "hint" }, pt("stakeHint"))),
      el("div", { class: "actions" }, send, cancel));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      send.disabled = true;
      this.problem.textContent = "";
      const value = Math.round(Number(stake.value) || 0);
      const body = { to_user_id: this.userId, game, clock, rated, stake: rated && value > 0 ? Math.min(STAKE_MAX, Math.max(STAKE_MIN, value)) : 0 };
      try {
        await lobbyJson<{ invitation: Invitation }>("/api/postfach/invitations", body);
        this.action.replaceChildren(el("p", { class: "hint", "data-testid": "invitation-sent" }, pt("invitationSent")));
      } catch (error) {
        send.disabled = false;
        this.problem.textContent = error instanceof Error ? error.message : String(error);
      }
    });
    return form;
  }
}
