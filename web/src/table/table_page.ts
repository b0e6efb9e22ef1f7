// #/partie/<id>: play or watch one table. Every table:state is the whole table for this
// browser; the page draws it, keeps the clocks running between messages, and sends the
// chosen moves and actions. Views seen during this visit are kept per ply, so ◀ ▶ can
// step back through them without the client knowing the rules.
import { el } from "../dom";
import { lang, onLangChange } from "../i18n";
import type { ErrorPayload, GameView, TablePresencePayload, TableSeat, TableStatePayload } from "../protocol";
import { ownFirst } from "../boards/board";
import { BoardStage } from "./board_stage";
import { TableClock } from "./clock";
import { gameApi, NoWebSocket, releaseTableSocket, tableSocket, type GameSocket } from "../game_socket";
import { LagMeter } from "./lag_meter";
import { recordComputerMatch } from "../solo/computer_record";
import { HintControl } from "../solo/hint_control";
import { DailyLine } from "../solo/daily_line";
import { ReviewPanel } from "../solo/review_panel";
import { MoveList } from "./move_list";
import { tableNameLink } from "../profile/profile_link";
import { requestRematch } from "./rematch";
import { colourName, GAME_TITLES, seatPerson } from "./seat_names";
import { pauseCountdownLine, pauseContinueLine } from "./pause_status";
import { ResultChanges } from "./result_changes";
import { resultReason, tt } from "./texts";

const NOTICE_MS = 6000;

/** The phase of games that have phases (Battlegeneral's setup, Battlehanse's pause between rounds). */
function phaseOf(view: GameView): string | undefined {
  return "phase" in view ? view.phase : undefined;
}

function minutesSeconds(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function seatLabel(seat: TableSeat, game: string, index: number, mode: string): string {
  const who = seatPerson(seat, index, mode);
  const elo = seat.elo !== null && seat.elo !== undefined ? ` (${seat.elo})` : "";
  return `${who}${elo} · ${colourName(game, index)}`;
}

export class TablePage {
  readonly root = el("main", { class: "table-page", "data-testid": "table-page" });
  private socket: GameSocket | null = null;
  private stage: BoardStage | null = null;
  private state: TableStatePayload | null = null;
  private readonly views = new Map<number, GameView>(); // ply → view seen
  private shownPly: number | null = null; // null: follow the game
  private readonly clock = new TableClock();
  private readonly moveList = new MoveList((ply) => this.show(ply));
  private readonly topLine = el("div", { class: "player-line top" });
  private readonly bottomLine = el("div", { class: "player-line bottom" });
  private readonly status = el("p", { class: "table-status", "data-testid": "table-status", "aria-live": "polite" });
  private readonly offers = el("div", { class: "offers", "data-testid": "offers" });
  // A player without a connection to this table: since when (this browser's clock) and when a claim is allowed.
  private readonly away = new Map<number, { sinceMs: number; claimAfterMs: number }>();
  private readonly presenceLine = el("div", { class: "presence", "data-testid": "presence", "aria-live": "polite" });
  private presenceTimer = 0;
  private lag: LagMeter | null = null;
  private readonly controls = el("div", { class: "controls" });
  private readonly notice = el("p", { class: "notice", role: "alert", "data-testid": "table-error" });
  private readonly resultPanel = el("div", { class: "result-panel card", "data-testid": "result", hidden: true });
  // After "Tisch ansehen": the result box gone, a bar under the table leads back (seed 000, "Nach der Partie").
  private readonly afterBar = el("div", { class: "after-bar", "data-testid": "after-bar", hidden: true });
  private tableViewed = false;
  private readonly navigation = el("div", { class: "navigation" });
  private readonly boardArea = el("section", { class: "board-area" });
  private readonly side = el("aside", { class: "table-side card" });
  private resultTimer = 0;
  private resultShown = false;
  private resignArmed = false;
  private noticeTimer = 0;
  private hint: HintControl | null = null; // Tipp (Battlehanse against Leicht and Mittel)
  private review: ReviewPanel | null = null; // Rückblick on the Rundentafel and at the end (Battlehanse)
  private daily: DailyLine | null = null; // "Tagesmarkt 30.11. – dieser Versuch zählt"
  private reviewAtEnd = false;
  private changes: ResultChanges | null = null; // Elo, points and Taler of a finished Wartesaal game
  private closed = false;
  private readonly keyHandler = (event: KeyboardEvent) => this.key(event);
  private readonly onState = (payload: TableStatePayload) => this.received(payload);
  private readonly onError = (error: ErrorPayload) => this.refused(error);
  private readonly onPresence = (payload: TablePresencePayload) => this.presence(payload);
  private readonly onConnect = () => {
    this.everConnected = true;
    this.socket?.emit("table:join", { game_id: this.gameId });
  };
  private everConnected = false;
  // The game socket is WebSocket only: one that never got through is most likely blocked on the way.
  private readonly onConnectError = (error: Error & { data?: unknown }) => {
    if (!this.everConnected && error.data === undefined) this.showNotice(tt("webSocketBlocked"));
  };

  constructor(readonly gameId: number) {
    this.status.textContent = tt("loading");
    this.side.append(this.status, this.presenceLine, this.offers, this.navigation, this.moveList.root, this.controls, this.notice);
    this.boardArea.append(this.topLine, el("div", { class: "board-wrap" }), this.bottomLine, this.afterBar, this.resultPanel);
    this.root.append(this.boardArea, this.side);
    this.buildNavigation();
    document.addEventListener("keydown", this.keyHandler);
    onLangChange(() => {
      if (!this.closed) this.draw();
    });
    void this.connect();
  }

  close(): void {
    this.closed = true;
    this.clock.stop();
    this.lag?.stop();
    window.clearInterval(this.presenceTimer);
    window.clearTimeout(this.resultTimer);
    document.removeEventListener("keydown", this.keyHandler);
    this.stage?.destroy();
    this.hint?.close();
    this.review?.close();
    this.daily?.close();
    this.changes?.close();
    if (this.socket) {
      this.socket.emit("table:leave", { game_id: this.gameId });
      this.socket.off("table:state", this.onState);
      this.socket.off("error", this.onError);
      this.socket.off("table:presence", this.onPresence);
      this.socket.off("connect", this.onConnect);
      this.socket.off("connect_error", this.onConnectError);
      // The next page may have no table: the game socket of this one is not needed any more.
      releaseTableSocket(this.gameId);
    }
  }

  private async connect(): Promise<void> {
    try {
      this.socket = await tableSocket(this.gameId);
    } catch (error) {
      this.status.textContent = error instanceof NoWebSocket ? error.message
        : lang() === "en" ? "The game service cannot be reached." : "Der Spieldienst ist nicht erreichbar.";
      return;
    }
    if (this.closed) {
      releaseTableSocket(this.gameId);
      this.socket = null;
      return;
    }
    this.socket.on("table:state", this.onState);
    this.socket.on("error", this.onError);
    this.socket.on("table:presence", this.onPresence);
    this.lag = new LagMeter(this.socket);
    // Join now and after every reconnect (a reload or a dropped line returns to the table).
    this.socket.on("connect", this.onConnect);
    this.socket.on("connect_error", this.onConnectError);
    this.socket.io.on("reconnect_attempt", () => this.showNotice(tt("connectionLost")));
    if (this.socket.connected) this.onConnect();
  }

  private received(payload: TableStatePayload): void {
    if (payload.game_id !== this.gameId || this.closed) return;
    const first = this.state === null;
    const previous = this.state;
    // A take-back or undo shortens the game: views beyond it are no longer true.
    for (const ply of [...this.views.keys()]) if (ply > payload.moves.length) this.views.delete(ply);
    this.views.set(payload.moves.length, payload.view);
    this.state = payload;
    if (first && this.socket && DailyLine.possible(payload)) {
      this.daily = new DailyLine(this.socket, this.gameId, payload.moves.length);
      this.status.after(this.daily.root);
    }
    if (!this.stage || this.stage.game !== payload.game) {
      this.stage?.destroy();
      this.stage = new BoardStage(payload.game, (text) => this.move(text), () => this.drawPlayers());
      this.boardArea.querySelector(".board-wrap")!.replaceChildren(this.stage.host);
      this.stage.host.addEventListener("click", () => this.boardClicked());
      // The press counts too: a board redrawn between press and release (a state, the views
      // fetched after the end) gets no click at all in Chromium, and the result waited 10 s.
      this.stage.host.addEventListener("pointerdown", () => this.boardClicked());
      this.controls.before(this.stage.switches);
      // Your own colour at the bottom: the second seat sees the board turned.
      if (payload.mode !== "same_device" && this.stage.turnedFor(payload.you)) this.stage.setFlipped(true);
    }
    if (payload.moves.length !== previous?.moves.length) this.shownPly = null;
    const finished = payload.status !== "running";
    if (finished && !this.resultShown && this.resultTimer === 0) {
      // Joining a game that ended earlier: no reason to wait.
      const delay = first ? 0 : payload.final_position_delay_ms;
      this.resultTimer = window.setTimeout(() => this.showResult(), delay);
      if (previous?.status === "running") this.recordLocal(payload);
      if (payload.status === "finished") void this.loadAllViews();
      // A player's own Wartesaal game: what it did to Elo, points and Taler (the header follows).
      if (payload.status === "finished" && payload.mode === "wartesaal" && payload.you !== null) this.changes ??= new ResultChanges(this.gameId);
    }
    if (!finished) {
      this.resultShown = false;
      this.tableViewed = false;
      this.resultPanel.hidden = true;
      this.afterBar.hidden = true;
      window.clearTimeout(this.resultTimer);
      this.resultTimer = 0;
    }
    this.clock.update(payload.clocks, !finished);
    this.draw();
  }

  /** After the end every position is public: fetch them all, so ◀ ▶ reach back to the start. */
  private async loadAllViews(): Promise<void> {
    try {
      const data = await gameApi<{ plies?: Array<{ ply: number; view: GameView }> }>(`/api/games/${this.gameId}`);
      if (this.closed || !Array.isArray(data.plies)) return;
      for (const entry of data.plies) if (!this.views.has(entry.ply)) this.views.set(entry.ply, entry.view);
      this.draw();
    } catch {
      // Then only the positions seen during this visit can be stepped through.
    }
  }

  private refused(error: ErrorPayload): void {
    if (!error.event?.startsWith("table:")) return;
    this.showNotice(error.message);
    if (this.state) this.draw(); // re-enable the board
  }

  private showNotice(message: string): void {
    this.notice.textContent = message;
    window.clearTimeout(this.noticeTimer);
    this.noticeTimer = window.setTimeout(() => (this.notice.textContent = ""), NOTICE_MS);
  }

  private move(text: string): void {
    const state = this.state;
    if (!state || !this.socket) return;
    this.socket.emit("table:move", { game_id: this.gameId, version: state.version, move: text, lag_ms: this.lag?.lagMs() ?? null });
    // Until the answer comes, the board stays as it is but takes no second move.
    this.stage?.render(state.view, { you: state.you, interactive: false, lastMove: state.moves.at(-1) ?? null });
  }

  private emit(event: "table:resign" | "table:undo"): void;
  private emit(event: "table:draw" | "table:takeback", action: "offer" | "accept" | "decline"): void;
  private emit(event: "table:resign" | "table:undo" | "table:draw" | "table:takeback", action?: "offer" | "accept" | "decline"): void {
    if (!this.socket) return;
    if (event === "table:draw" || event === "table:takeback") this.socket.emit(event, { game_id: this.gameId, action: action! });
    else this.socket.emit(event, { game_id: this.gameId });
  }

  /** The ply shown on the board now. */
  private currentPly(): number {
    const total = this.state?.moves.length ?? 0;
    return this.shownPly ?? total;
  }

  private show(ply: number): void {
    const total = this.state?.moves.length ?? 0;
    const target = Math.max(0, Math.min(total, ply));
    if (!this.views.has(target)) return;
    this.shownPly = target === total ? null : target;
    this.draw();
  }

  /** ◀ ▶ step to the nearest ply whose view this visit has seen. */
  private step(direction: -1 | 1): void {
    const total = this.state?.moves.length ?? 0;
    for (let ply = this.currentPly() + direction; ply >= 0 && ply <= total; ply += direction) {
      if (this.views.has(ply)) {
        this.show(ply);
        return;
      }
    }
  }

  private buildNavigation(): void {
    const back = el("button", { type: "button", "data-testid": "nav-back", "aria-label": "◀" }, "◀");
    const forward = el("button", { type: "button", "data-testid": "nav-forward", "aria-label": "▶" }, "▶");
    back.addEventListener("click", () => this.step(-1));
    forward.addEventListener("click", () => this.step(1));
    this.navigation.append(back, forward);
  }

  /** ◀ ▶ only where they lead somewhere (not at the start, not during a setup without moves). */
  private drawNavigation(): void {
    const total = this.state?.moves.length ?? 0;
    const ply = this.currentPly();
    const seen = [...this.views.keys()];
    const [back, forward] = this.navigation.querySelectorAll<HTMLButtonElement>("button");
    back.disabled = !seen.some((p) => p < ply);
    forward.disabled = !seen.some((p) => p > ply && p <= total);
  }

  private key(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    if (event.key === "ArrowLeft") this.step(-1);
    else if (event.key === "ArrowRight") this.step(1);
  }

  private boardClicked(): void {
    // A click on the final position shows the result at once.
    if (this.state && this.state.status !== "running" && !this.resultShown) this.showResult();
  }

  private showResult(): void {
    window.clearTimeout(this.resultTimer);
    this.resultShown = true;
    this.drawResult();
  }

  private recordLocal(payload: TableStatePayload): void {
    // A Battlehanse match with a Tipp is counted apart, not in the record (seed 000).
    void recordComputerMatch(payload);
  }

  /** Battlehanse's Rückblick beside the board, under the moves (a tap on a judged move shows
   * its position): on the Rundentafel against the computer and once the match is over. */
  private syncReview(state: TableStatePayload): void {
    const finished = state.status === "finished";
    const roundTable = state.status === "running" && state.mode === "computer" && phaseOf(state.view) === "pause";
    const wanted = state.game === "hanse" && state.you !== null && state.mode !== "same_device" && (finished || roundTable);
    if (this.review && (!wanted || (finished && !this.reviewAtEnd))) {
      this.review.close();
      this.review.root.remove();
      this.review = null;
    }
    if (wanted && !this.review) {
      this.review = new ReviewPanel(this.gameId, (ply) => this.show(ply), null, finished);
      this.reviewAtEnd = finished;
      this.side.append(this.review.root);
    }
  }

  private draw(): void {
    const state = this.state;
    if (!state || !this.stage) return;
    this.syncReview(state);
    const ply = this.currentPly();
    const following = ply === state.moves.length;
    const view = following ? state.view : this.views.get(ply) ?? state.view;
    const interactive = following && state.status === "running" && state.you !== null && (state.view.legal_moves?.length ?? 0) > 0;
    const pauseUntil = state.clocks.pause_until_ms;
    const pauseLeftMs = following && pauseUntil !== null ? pauseUntil - state.clocks.server_now_ms : null;
    // sameDevice: Battlehanse's curtain (HanseContext in boards/hanse.ts); other boards ignore it.
    const names = state.seats.map((seat, index) => seatPerson(seat, index, state.mode));
    const context = { you: state.you, interactive, lastMove: ply > 0 ? state.moves[ply - 1] : null, pauseLeftMs, sameDevice: state.mode === "same_device", names };
    this.stage.render(view, context);
    this.moveList.render(state.moves, ply, (p) => this.views.has(p));
    this.drawNavigation();
    this.drawPlayers();
    this.drawStatus(interactive);
    this.drawPresence();
    this.drawOffers();
    this.drawControls();
    if (this.resultShown) this.drawResult();
  }

  private drawPlayers(): void {
    const state = this.state;
    if (!state) return;
    // The bottom line is your seat (first seat for spectators and at one device); F swaps the lines.
    const own = state.mode === "same_device" || state.you === null ? 0 : state.you;
    const flipped = this.stage?.isFlipped() ?? false;
    const turnedAtStart = this.stage?.turnedFor(state.mode === "same_device" ? null : state.you) ?? false;
    const lower = flipped === turnedAtStart ? own : 1 - own;
    const seats: Array<[HTMLElement, number]> = [[this.bottomLine, lower], [this.topLine, 1 - lower]];
    for (const [line, seat] of seats) {
      const mover = this.toMove(state);
      line.replaceChildren(
        el("span", { class: `seat-dot seat-${state.game}-${seat}` }),
        el("span", { class: "seat-name", "data-testid": `seat-${seat}` }, tableNameLink(state.mode === "same_device" ? null : state.seats[seat].user_id, seatLabel(state.seats[seat], state.game, seat, state.mode))),
      );
      if (mover === seat && state.status === "running") line.append(el("span", { class: "to-move" }, tt("toMove")));
      line.append(this.clock.faces[seat]);
    }
  }

  private toMove(state: TableStatePayload): number | null {
    const mover = state.view.to_move;
    if (typeof mover === "number") return mover;
    if (Array.isArray(mover) && mover.length === 1) return mover[0] as number;
    return null;
  }

  private drawStatus(interactive: boolean): void {
    const state = this.state!;
    const parts: string[] = [GAME_TITLES[state.game] ?? state.game];
    if (state.mode === "wartesaal") parts.push(state.rated ? `${tt("rated")}${state.stake ? ` · ${tt("stake")} ${state.stake}` : ""}` : tt("friendly"));
    else parts.push(state.mode === "computer" ? tt("againstComputer") : tt("sameDevice"));
    let line: string | HTMLElement;
    const mover = this.toMove(state);
    const pauseUntil = state.clocks.pause_until_ms;
    if (state.status !== "running") line = this.resultLine();
    else if (phaseOf(state.view) === "setup") line = this.setupLine(state);
    else if (state.you === null) line = tt("spectator");
    else if (pauseUntil !== null) line = pauseCountdownLine(pauseUntil, state.clocks.server_now_ms);
    else if (phaseOf(state.view) === "pause" && interactive) line = pauseContinueLine();
    else if (interactive || state.mode === "same_device") line = tt("yourTurn");
    else if (state.mode === "computer" && mover !== null && mover !== state.you) line = tt("computerThinks");
    else line = tt("theirTurn");
    this.status.replaceChildren(el("strong", {}, parts.join(" · ")), el("br"), line);
  }

  /** Battlegeneral's setup, where both place at once: what is still to do and whether the other is ready. */
  private setupLine(state: TableStatePayload): string {
    const setup = state.view.game === "general" ? state.view.setup : undefined;
    if (!setup) return ""; // only Battlegeneral has a setup phase
    if (state.you === null) {
      const mark = (seat: number): string => (setup.ready[seat] ? "✓" : "…");
      return `${tt("spectator")} ${tt("setupWatching", { first: colourName(state.game, 0), a: mark(0), second: colourName(state.game, 1), b: mark(1) })}`;
    }
    const left = Object.values(setup.remaining ?? {}).reduce((sum, n) => sum + n, 0);
    let own: string;
    if (setup.ready[state.you]) own = tt("setupWaiting");
    else if (left === 0) own = tt("setupDone");
    else if (left === 1) own = tt("setupPlaceOne");
    else own = tt("setupPlace", { n: String(left) });
    return `${own} ${tt(setup.ready[1 - state.you] ? "setupOpponentReady" : "setupOpponentBusy")}`;
  }

  private resultLine(): string {
    const state = this.state!;
    const result = state.result;
    if (state.status === "aborted" || !result) return tt("aborted");
    const reason = resultReason(result);
    const player = state.you !== null && state.mode !== "same_device";
    let head: string;
    if (result.winner === null) head = tt("drawn");
    else if (player) head = result.winner === state.you ? tt("won") : tt("lost");
    else head = `${colourName(state.game, result.winner)} ${tt("wins")}.`;
    // A player reads the score from their own side ("Verloren. … (1 : 2)"), as "Gewonnen!" and
    // "Verloren." speak; spectators and one device read it in seat order, after the winner's colour.
    const score = Array.isArray(result.score)
      ? ` (${ownFirst(result.score as number[], state.you, state.mode === "same_device").join(" : ")})`
      : "";
    return `${head} ${reason}${score}`;
  }

  private presence(payload: TablePresencePayload): void {
    if (payload.game_id !== this.gameId || this.closed) return;
    if (payload.present) this.away.delete(payload.user_id);
    else this.away.set(payload.user_id, { sinceMs: Date.now() - (payload.away_ms ?? 0), claimAfterMs: payload.claim_after_ms });
    window.clearInterval(this.presenceTimer);
    // While someone is away the line counts up every second (and offers the claim in time).
    if (this.away.size > 0) this.presenceTimer = window.setInterval(() => this.drawPresence(), 1000);
    this.drawPresence();
  }

  /** "Dein Gegner ist nicht am Tisch" with the time away; after the leave time, the claim. */
  private drawPresence(): void {
    const state = this.state;
    this.presenceLine.replaceChildren();
    if (!state || state.status !== "running" || state.mode !== "wartesaal") return;
    const mine = state.you;
    for (const [index, seat] of state.seats.entries()) {
      const gone = seat.user_id !== null ? this.away.get(seat.user_id) : undefined;
      if (!gone || index === mine) continue;
      const awayMs = Date.now() - gone.sinceMs;
      const who = mine === null ? seat.name ?? "?" : tt("yourOpponent");
      this.presenceLine.append(el("p", { class: "away" }, tt("awayFrom", { who, time: minutesSeconds(awayMs) })));
      if (mine !== null && awayMs >= gone.claimAfterMs) {
        const win = el("button", { type: "button", class: "primary", "data-testid": "claim-win" }, tt("claimWin"));
        const draw = el("button", { type: "button", "data-testid": "claim-draw" }, tt("claimDraw"));
        win.addEventListener("click", () => this.socket?.emit("table:claim", { game_id: this.gameId, action: "win" }));
        draw.addEventListener("click", () => this.socket?.emit("table:claim", { game_id: this.gameId, action: "draw" }));
        this.presenceLine.append(el("p", { class: "claim-hint" }, tt("claimHint")), win, draw);
      }
    }
  }

  private drawOffers(): void {
    const state = this.state!;
    this.offers.replaceChildren();
    if (state.status !== "running" || state.you === null) return;
    const other = 1 - state.you;
    for (const kind of ["draw", "takeback"] as const) {
      const by = state.offers[kind];
      if (by === null) continue;
      if (by === state.you) {
        this.offers.append(el("p", { class: "offer mine" }, tt(kind === "draw" ? "drawOffered" : "takebackOffered")));
      } else if (by === other) {
        const accept = el("button", { type: "button", class: "primary", "data-testid": `${kind}-accept` }, tt("accept"));
        const decline = el("button", { type: "button", "data-testid": `${kind}-decline` }, tt("decline"));
        const event = kind === "draw" ? "table:draw" : "table:takeback";
        const box = el("div", { class: "offer theirs" }, el("p", {}, tt(kind === "draw" ? "drawOfferedToYou" : "takebackOfferedToYou")), accept, decline);
        // The answer is given with the click: the offer goes at once, so a second click cannot
        // send it twice; a refusal from the server brings the state back.
        accept.addEventListener("click", () => { box.remove(); this.emit(event, "accept"); });
        decline.addEventListener("click", () => { box.remove(); this.emit(event, "decline"); });
        this.offers.append(box);
      }
    }
  }

  private drawControls(): void {
    const state = this.state!;
    this.controls.replaceChildren();
    if (state.status !== "running" || state.you === null) return;
    const resign = el("button", { type: "button", class: this.resignArmed ? "danger" : "", "data-testid": "resign" }, tt(this.resignArmed ? "resignConfirm" : "resign"));
    resign.addEventListener("click", () => {
      // Two clicks: a stray tap must not end the game.
      if (this.resignArmed) this.emit("table:resign");
      this.resignArmed = !this.resignArmed;
      this.drawControls();
    });
    this.controls.append(resign);
    // During a setup there is no move to take back and nothing to agree a draw on: only Aufgeben.
    if (phaseOf(state.view) === "setup") return;
    if (state.mode === "wartesaal") {
      const draw = el("button", { type: "button", "data-testid": "draw-offer", disabled: state.offers.draw !== null }, tt("draw"));
      draw.addEventListener("click", () => this.emit("table:draw", "offer"));
      this.controls.append(draw);
      if (!state.rated) {
        const takeback = el("button", { type: "button", "data-testid": "takeback-offer", disabled: state.offers.takeback !== null || state.moves.length === 0 }, tt("takeback"));
        takeback.addEventListener("click", () => this.emit("table:takeback", "offer"));
        this.controls.append(takeback);
      }
    } else {
      const undo = el("button", { type: "button", "data-testid": "undo", disabled: state.moves.length === 0 }, tt("undo"));
      undo.addEventListener("click", () => this.emit("table:undo"));
      this.controls.append(undo);
      if (HintControl.offered(state) && this.socket) {
        this.hint ??= new HintControl(this.socket, this.gameId, (move) => this.stage?.suggest(move) ?? false, (message) => this.showNotice(message));
        const yourTurn = this.shownPly === null && phaseOf(state.view) === "spiel" && (state.view.legal_moves?.length ?? 0) > 0;
        this.hint.render(state, yourTurn);
        this.controls.append(this.hint.root);
      }
    }
  }

  /** "Tisch ansehen" hides the result box; the bar under the table brings it back or leads to the Wartesaal. */
  private viewTable(viewed: boolean): void {
    this.tableViewed = viewed;
    this.drawResult();
  }

  private drawResult(): void {
    const state = this.state;
    if (!state) return;
    this.resultPanel.hidden = this.tableViewed;
    this.afterBar.hidden = !this.tableViewed;
    const show = el("button", { type: "button", class: "primary", "data-testid": "show-result" }, tt("showResult"));
    show.addEventListener("click", () => this.viewTable(false));
    this.afterBar.replaceChildren(show, el("a", { class: "button", href: "#/", "data-testid": "bar-wartesaal" }, tt("wartesaal")));
    const actions = el("div", { class: "actions" });
    const look = el("button", { type: "button", "data-testid": "view-table" }, tt("viewTable"));
    look.addEventListener("click", () => this.viewTable(true));
    if (state.mode === "wartesaal" && state.you !== null) {
      const rematch = el("button", { type: "button", class: "primary", "data-testid": "rematch" }, tt("rematch"));
      rematch.addEventListener("click", async () => {
        rematch.disabled = true;
        const problem = await requestRematch(this.gameId);
        if (problem) {
          this.showNotice(problem);
          rematch.disabled = false;
        } else {
          location.hash = "#/";
        }
      });
      actions.append(rematch);
    }
    if (state.mode !== "wartesaal") {
      const again = el("a", { class: "button primary", href: state.mode === "computer" ? "#/computer" : "#/zuzweit", "data-testid": "play-again" }, state.mode === "computer" ? tt("againstComputer") : tt("sameDevice"));
      actions.append(again);
    }
    if (state.status === "finished") actions.append(el("a", { class: "button", href: `#/nachspielen/${this.gameId}`, "data-testid": "to-replay" }, tt("replay")));
    actions.append(el("a", { class: "button", href: "#/" }, tt("toWartesaal")));
    actions.append(look);
    this.changes?.draw();
    this.resultPanel.replaceChildren(el("p", { class: "result-line", "data-testid": "result-line" }, this.resultLine()), ...(this.changes ? [this.changes.root] : []), actions);
  }
}
