// The Wartesaal: chat on the left, everyone here on the right, live over Socket.IO.
import { io, type Socket } from "socket.io-client";
import { ChallengeDesk } from "./challenge/desk";
import { SeekPanel } from "./challenge/seek_panel";
import { clear, el } from "./dom";
import { Rankings } from "./lists/rankings";
import { RunningGames } from "./live/running_games";
import { QuickMatchPanel } from "./quickmatch/quick_match_panel";
import { qt } from "./quickmatch/texts";
import { label, lang, onLangChange, t } from "./i18n";
import { mailboxBadge } from "./mailbox/mailbox_badge";
import { connectLobby } from "./profile/lobby_link";
import { profileLink } from "./profile/profile_link";
import { MARKS } from "./profile/game_marks";
import { puzzlesCard } from "./puzzles/aufgaben_links";
import {
  CHAT_MAX_LENGTH,
  type ChatMessage,
  type ClientToServerEvents,
  type Player,
  type ServerToClientEvents,
  type User,
} from "./protocol";

type LobbySocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const ERROR_SHOWN_MS = 6000;

export class Wartesaal {
  readonly root: HTMLElement;
  private readonly socket: LobbySocket;
  private readonly messages = el("ol", { class: "messages", "data-testid": "messages", "aria-live": "polite" });
  private readonly players = el("ul", { class: "players", "data-testid": "players" });
  private readonly notice = el("p", { class: "notice", role: "alert", "data-testid": "chat-error" });
  private readonly connection = el("p", { class: "connection", "data-testid": "connection" });
  private playerList: Player[] = [];
  private playersVersion = -1;
  // Chat messages that arrived since this socket (re)connected and before its welcome.
  private early: ChatMessage[] | null = [];
  private noticeTimer = 0;
  private readonly challenges: ChallengeDesk;
  private readonly rankings: Rankings;
  private readonly quickMatch: QuickMatchPanel;
  private readonly seeks: SeekPanel;
  private readonly running = new RunningGames(() => this.renderPlayers());

  constructor(
    private user: User,
    private readonly onUser: (user: User) => void,
    private readonly onSignedOut: () => void,
  ) {
    this.root = el(
      "main",
      { class: "wartesaal" },
      el("section", { class: "card chat" }, label(el("h2"), "chat"), this.messages, this.notice, this.chatForm()),
      el("aside", { class: "card here" }, label(el("h2"), "here"), this.players),
    );
    this.root.prepend(this.connection);
    this.showConnection("connecting");
    // The cookie authenticates the socket; ``auth`` only carries the language, read at every (re)connect.
    this.socket = io({ auth: (send) => send({ lang: lang() }) });
    this.challenges = new ChallengeDesk(this.socket, () => this.user.id);
    this.rankings = new Rankings(() => this.user.id);
    // The challenge panels float over every page (a Revanche request reaches a player still
    // at the table); the lists sit under the player list.
    document.body.append(this.challenges.root);
    this.quickMatch = new QuickMatchPanel(this.socket);
    this.root.querySelector("aside.here")?.prepend(this.quickMatch.root);
    this.seeks = new SeekPanel(this.socket, () => this.user.id);
    this.quickMatch.root.after(this.seeks.root);
    this.root.querySelector("aside.here")?.append(this.running.root, this.rankings.root, puzzlesCard());
    this.listen();
    // A profile page challenges through this socket while the Wartesaal is open.
    connectLobby({
      challenge: (userId, game) => this.socket.emit("challenge:create", { to_user_id: userId, game }),
      player: (userId) => this.playerList.find((p) => p.user_id === userId),
    });
    onLangChange(() => {
      if (this.socket.connected) this.socket.emit("lang:set", { lang: lang() });
      this.renderPlayers();
      this.running.draw();
    });
  }

  close(): void {
    connectLobby(null);
    this.challenges.close();
    this.seeks.close();
    this.challenges.root.remove();
    this.running.close();
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }

  private chatForm(): HTMLFormElement {
    const input = el("input", {
      name: "text",
      maxlength: String(CHAT_MAX_LENGTH),
      autocomplete: "off",
      "data-testid": "chat-input",
    });
    label(input, "chatPlaceholder", "placeholder");
    const counter = el("span", { class: "counter" }, `0/${CHAT_MAX_LENGTH}`);
    input.addEventListener("input", () => (counter.textContent = `${input.value.length}/${CHAT_MAX_LENGTH}`));
    const form = el(
      "form",
      { class: "say" },
      input,
      counter,
      label(el("button", { type: "submit", class: "primary", "data-testid": "chat-send" }), "send"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      this.socket.emit("chat:send", { text });
      input.value = "";
      counter.textContent = `0/${CHAT_MAX_LENGTH}`;
    });
    return form;
  }

  private listen(): void {
    this.socket.on("connect", () => this.showConnection(null));
    this.socket.on("disconnect", () => {
      this.early = [];
      this.showConnection("disconnected");
    });
    this.socket.on("connect_error", (error) => {
      // Refused (no valid session any more): back to the entry page.
      if ((error as Error & { data?: { code?: string } }).data?.code === "not_logged_in") {
        this.close();
        this.onSignedOut();
      }
    });
    this.socket.on("welcome", ({ user, history }) => {
      this.user = user;
      this.onUser(user);
      // A message sent while this socket joined reaches it before the welcome, whose history
      // was read before that message was stored: shown after the history, not wiped with the list.
      const last = history.length ? history[history.length - 1].id : 0;
      const shown = [...history, ...(this.early ?? []).filter((message) => message.id > last)];
      this.early = null;
      clear(this.messages);
      if (shown.length === 0) this.messages.append(label(el("li", { class: "empty" }), "chatEmpty"));
      for (const message of shown) this.addMessage(message);
    });
    this.socket.on("chat:message", ({ message }) => {
      if (this.early) this.early.push(message);
      else this.addMessage(message);
    });
    // The Postfach badge: fresh at every (re)connect, then pushed on every change.
    this.socket.on("connect", () => void mailboxBadge.refresh());
    this.socket.on("postfach:changed", ({ count }) => mailboxBadge.set(count));
    this.socket.on("players", ({ version, players }) => {
      // Snapshots come from several lobby processes; an older one may arrive late.
      if (version < this.playersVersion) return;
      this.playersVersion = version;
      this.playerList = players;
      this.renderPlayers();
      this.running.playersChanged(players); // a game may have started or ended
    });
    this.socket.on("error", ({ code, message }) => {
      // This session logged out (in another tab, say): the server closes its sockets; back to the entry page.
      if (code === "session_ended") {
        this.close();
        this.onSignedOut();
        return;
      }
      this.showNotice(message);
    });
  }

  private addMessage(message: ChatMessage): void {
    this.messages.querySelector("li.empty")?.remove();
    const time = new Date(message.ts).toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" });
    const mine = message.user_id === this.user.id;
    this.messages.append(
      el(
        "li",
        { class: mine ? "mine" : undefined, "data-testid": "message" },
        el("time", { datetime: message.ts }, time),
        el("strong", {}, message.name),
        el("span", { class: "text" }, message.text),
      ),
    );
    this.messages.scrollTop = this.messages.scrollHeight;
  }

  private renderPlayers(): void {
    clear(this.players);
    for (const player of this.playerList) {
      const me = player.user_id === this.user.id;
      this.players.append(
        el(
          "li",
          { "data-testid": "player", class: me ? "me" : undefined },
          el("span", { class: "name" }, profileLink(player.user_id, player.name), me ? el("small", {}, ` (${t("you")})`) : null),
          eloText(player) ? el("small", { class: "player-elo", "data-testid": "player-elo" }, eloText(player)) : null,
          el("span", { class: `status ${player.status}` }, t(player.status === "frei" ? "statusFree" : "statusPlaying")),
          this.opponentOf(player),
          me || player.status !== "frei" ? null : this.challenges.offerMenu(player),
        ),
      );
    }
  }

  /** "spielt gegen Bert (Battlehexagon)": a link to watch that table. */
  private opponentOf(player: Player): HTMLElement | null {
    const playing = player.status === "frei" ? null : this.running.gameOf(player.user_id);
    if (!playing) return null;
    return el("a", { class: "plays-against", href: `#/partie/${playing.gameId}`, "data-testid": "plays-against" },
      `${qt("playsAgainst")} ${playing.opponent}`);
  }

  private showConnection(state: "connecting" | "disconnected" | null): void {
    // A fresh span each time: a cleared state must not come back on a language switch.
    this.connection.replaceChildren(...(state ? [label(el("span"), state)] : []));
  }

  private showNotice(message: string): void {
    this.notice.textContent = message;
    window.clearTimeout(this.noticeTimer);
    this.noticeTimer = window.setTimeout(() => (this.notice.textContent = ""), ERROR_SHOWN_MS);
  }
}

/** The Elo beside a name: per game, where the player has one ("⬢ 1520 · ● 1480"). */
function eloText(player: Player): string {
  return Object.entries(player.elo)
    .filter(([, elo]) => elo !== null)
    .map(([game, elo]) => `${MARKS[game] ?? game} ${elo}`)
    .join(" · ");
}
