// Battlehanse at the table (seed 000): market, hands, stables, tokens and the Rundentafel,
// drawn from the server's view only. The Handelskasten matches the tapped cards against
// the view's legal moves and their effects, and says why a selection is no move
// (hanse_selection.ts); the Karten-Info opens on hover or a long press (hanse_info.ts).
import "./hanse.css";
import { lang } from "../i18n";
import type { HanseEffect, HansePlayer, HanseRound, HanseView } from "../protocol";
import { type Board, type BoardContext, type BoardFactory, type BoardHost, type GameView, legalMoves, ownFirst, viewOf } from "./board";
import { cardInfo, type InfoTarget, parseTarget, targetKey } from "./hanse_info";
import { hideSteady, showSteady } from "./steady_box";
import { cardFace } from "./faces";
import { type CardSelection, explainSelection, moveSentence } from "./hanse_selection";

const HORSE = "Packpferd";
const EN: Record<string, string> = {
  Bernstein: "amber", Gold: "gold", Silber: "silver", Tuch: "cloth", Salz: "salt", Pelz: "fur", Packpferd: "pack horse",
};
const TOGGLES = [{ key: "help", label: { de: "Hilfe an", en: "Help on" }, initial: true }] as const;


interface Selection { market: string[]; hand: number[]; stable: number }
/** The table page also says whether two players share this device (for the curtain). */
interface HanseContext extends BoardContext { sameDevice?: boolean }

function el(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function name(card: string): string {
  return lang() === "en" ? EN[card] ?? card : card;
}

/** The sentence the Handelskasten shows for a legal move, from its effect alone. */
export function describeMove(fx: HanseEffect): string {
  const sentence = moveSentence(fx);
  return lang() === "en" ? sentence.en : sentence.de;
}

const LONG_PRESS_MS = 500;

class HanseBoard implements Board {
  readonly toggles = TOGGLES;
  readonly turnForSecondSeat = false;
  private readonly root = el("div", { class: "board hanse-board", "data-testid": "board" });
  private view: Partial<HanseView> = {};
  private context: HanseContext = { you: null, interactive: false, lastMove: null };
  private selection: Selection = { market: [], hand: [], stable: 0 };
  private help = true;
  // The seat whose hidden cards were last shown; "round" after a round's end at one
  // device, where both players looked at the Rundentafel and no hand was drawn.
  private shownFor: number | "round" | null = null;
  private curtainFor: number | null = null;
  private countdown: number | null = null;
  private pauseEnd: { round: unknown; at: number } | null = null;
  // Karten-Info: a window below the table (never over a card, never moving one) for what the pointer rests on.
  private readonly info = el("aside", { class: "hanse-card-info", "data-testid": "card-info", hidden: "" });
  private infoTarget: InfoTarget | null = null;
  private pressTimer = 0;
  private pressedLong = false;

  constructor(private readonly host: BoardHost) {
    host.element.append(this.root);
    this.listenForInfo();
  }

  render(shown: GameView, context: HanseContext): void {
    const view = viewOf(shown, "hanse");
    const sameTurn = this.view.round === view.round && JSON.stringify(this.view.market) === JSON.stringify(view.market) && this.context.you === context.you;
    if (!sameTurn || !context.interactive) this.selection = { market: [], hand: [], stable: 0 };
    this.updateCurtain(view, context);
    this.view = view;
    this.context = context;
    this.draw();
  }

  /** One device, two players: when the seat whose hand is shown changes — and after every
   * round's end, and when the page opens in the middle of a match (a reload) — a curtain
   * hides the table until the next player taps it (only then is their hand drawn). The
   * Rundentafel itself is never behind it: both players see it. */
  private updateCurtain(view: HanseView, context: HanseContext): void {
    const you = context.you;
    if (you === null || view.phase === "ende") {
      this.curtainFor = null;
      return;
    }
    if (context.sameDevice && view.phase === "pause") {
      this.curtainFor = null;
      this.shownFor = "round";
      return;
    }
    if (context.sameDevice && this.shownFor === null && view.moves.length > 0) {
      // Opened or reloaded in the middle of a match: who sits in front of the device is unknown.
      this.curtainFor = you;
      return;
    }
    if (this.shownFor !== null && you !== this.shownFor) this.curtainFor = you;
    if (this.curtainFor === null) this.shownFor = you;
  }

  /** The open round's end at one device: the whole table without either hand. */
  private roundEndOnOneDevice(): boolean {
    return this.context.sameDevice === true && this.view.phase === "pause";
  }

  setFlipped(): void {
    // Each player's own side is always at the bottom; there is nothing to turn.
  }

  setToggle(key: string, on: boolean): void {
    if (key === "help") this.help = on;
    this.draw();
  }

  /** Tipp (against Leicht and Mittel): the selection becomes the cards of legal move `text`,
   * as if tapped; the player still presses the button. False when it is not a legal move now. */
  suggest(text: string): boolean {
    const move = legalMoves(this.view).find((m) => m.text === text);
    const fx = move?.effect;
    if (!fx || fx.type === "weiter" || !this.context.interactive) return false;
    const hand = this.players().me?.hand ?? [];
    const picked: number[] = [];
    for (const card of fx.hand_out.filter((c) => c !== "Packpferd")) {
      const index = hand.findIndex((c, i) => c.card === card && !picked.includes(i));
      if (index < 0) return false;
      picked.push(index);
    }
    this.selection = { market: [...fx.market_out], hand: picked, stable: Math.max(0, -fx.stable) };
    this.draw();
    return true;
  }

  destroy(): void {
    if (this.countdown !== null) window.clearInterval(this.countdown);
    window.clearTimeout(this.pressTimer);
    this.root.remove();
  }

  // ---- Karten-Info ---------------------------------------------------------------
  private listenForInfo(): void {
    const targetOf = (event: Event): InfoTarget | null => parseTarget((event.target as Element).closest<HTMLElement>("[data-info]")?.dataset.info);
    this.root.addEventListener("pointerover", (event) => {
      if (event.pointerType === "mouse") this.showInfo(targetOf(event));
    });
    this.root.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse") this.showInfo(null);
    });
    // Touch: hold a card to read about it; that press does not also tap the card.
    this.root.addEventListener("pointerdown", (event) => {
      this.pressedLong = false;
      window.clearTimeout(this.pressTimer);
      if (event.pointerType === "mouse") return;
      const target = targetOf(event);
      if (!target) {
        this.showInfo(null);
        return;
      }
      this.pressTimer = window.setTimeout(() => {
        this.pressedLong = true;
        this.showInfo(target);
        this.info.scrollIntoView({ block: "nearest" }); // on a small screen it may lie below the fold
      }, LONG_PRESS_MS);
    });
    const release = (): void => window.clearTimeout(this.pressTimer);
    this.root.addEventListener("pointerup", release);
    this.root.addEventListener("pointercancel", release);
    this.root.addEventListener("contextmenu", (event) => {
      if ((event.target as Element).closest("[data-info]")) event.preventDefault();
    });
    this.root.addEventListener("click", (event) => {
      if (!this.pressedLong) return;
      this.pressedLong = false;
      event.stopPropagation();
      event.preventDefault();
    }, true);
  }

  private showInfo(target: InfoTarget | null): void {
    this.infoTarget = target;
    this.fillInfo();
  }

  private fillInfo(): void {
    const target = this.infoTarget;
    if (!target || this.curtainFor !== null) {
      hideSteady(this.info);
      this.info.replaceChildren();
      return;
    }
    // At one device's round end no hand is shown, so the info speaks as to a spectator.
    const you = this.roundEndOnOneDevice() ? null : this.context.you;
    const info = cardInfo(target, this.view, you, lang() === "en" ? "en" : "de");
    let picture: HTMLElement;
    if ("card" in info.picture) {
      // The card's drawn face, large (the deck: a card's back).
      const card = info.picture.card;
      picture = el("span", { class: "hanse-info-face", "data-testid": "card-info-face" }, cardFace(card, card ? name(card) : lang() === "en" ? "Deck" : "Stapel"));
    } else {
      picture = el("span", { class: "hanse-token-row" }, ...info.picture.tokens.map((v) => el("span", { class: "hanse-token" }, String(v))),
        el("small", {}, info.picture.label));
    }
    this.info.replaceChildren(el("div", { class: "hanse-info-picture" }, picture),
      el("div", { class: "hanse-info-text" }, el("strong", { "data-testid": "card-info-title" }, info.title), ...info.lines.filter(Boolean).map((line) => el("p", {}, line))));
    this.info.dataset.target = targetKey(target);
    showSteady(this.info);
  }

  /** A seat as the table names it (the player, "Computer (Stark)", "Spieler 1" at one device). */
  private seatName(seat: number): string {
    return this.context.names?.[seat] ?? `${lang() === "en" ? "Player" : "Spieler"} ${seat + 1}`;
  }

  private players(): { me: HansePlayer | null; other: HansePlayer | null } {
    const players = this.view.players ?? [];
    const seat = this.context.you ?? 0;
    return { me: players[seat] ?? null, other: players[1 - seat] ?? null };
  }

  private draw(): void {
    const de = lang() !== "en";
    this.root.replaceChildren();
    if (this.countdown !== null) window.clearInterval(this.countdown);
    this.countdown = null;
    if (this.curtainFor !== null) {
      const seat = this.curtainFor;
      const button = el("button", { class: "button primary", "data-testid": "curtain-ready" },
        de ? `Ich bin Spieler ${seat + 1} – Karten zeigen` : `I am player ${seat + 1} – show my cards`);
      button.addEventListener("click", () => {
        this.curtainFor = null;
        this.shownFor = seat;
        this.draw();
      });
      this.root.append(el("div", { class: "hanse-curtain", "data-testid": "curtain" },
        el("p", {}, de ? `Gib das Gerät an Spieler ${seat + 1}. Tippe erst, wenn Spieler ${seat + 1} davor sitzt.`
          : `Hand the device to player ${seat + 1}. Tap only when player ${seat + 1} sits in front of it.`), button));
      this.fillInfo();
      return;
    }
    const { me, other } = this.players();
    if (this.roundEndOnOneDevice() || this.context.you === null) {
      // A spectator, or both players before the Rundentafel at one device: the open table,
      // both sides by name (second seat on top), no hand and no Handelskasten.
      const [first, second] = this.view.players ?? [];
      if (second) this.root.append(this.opponentArea(second, this.seatName(1)));
      this.root.append(this.centre());
      if (first) this.root.append(this.opponentArea(first, this.seatName(0)));
    } else {
      if (other) this.root.append(this.opponentArea(other, this.seatName(other.seat)));
      this.root.append(this.centre());
      this.root.append(this.tradeBox());
      if (me) this.root.append(this.ownArea(me));
    }
    this.fillInfo();
    // The Rundentafel of the round the table stands in, once that round is over: in its pause,
    // or at the match's end when its last round decided it. A match the table ended (resigned,
    // time, left, agreed) in a later round is "ende" too, but that round has no table: the
    // earlier round's Rundentafel must not stand over its cards.
    const rounds = this.view.rounds ?? [];
    const ended = rounds.at(-1);
    if ((this.view.phase === "pause" || this.view.phase === "ende") && ended && ended.round === this.view.round) this.root.append(this.roundTable(ended));
    // Last: opening the window must not move a card from under the pointer.
    this.root.append(this.info);
  }

  private card(card: string, attrs: Record<string, string>, onTap: (() => void) | null, selected = false): HTMLElement {
    // The drawn face says the good; the name is there for reading aloud and for copying.
    const node = el(onTap ? "button" : "span", { class: `hanse-card good-${card.toLowerCase()}${selected ? " selected" : ""}`, "data-card": card, "data-info": `good:${card}`, ...attrs },
      cardFace(card, name(card)), el("span", { class: "card-name" }, name(card)));
    if (onTap) node.addEventListener("click", onTap);
    return node;
  }

  private opponentArea(other: HansePlayer, who: string): HTMLElement {
    // A hand the view shows (a finished match, its replay) lies open; one a player holds
    // at the table stays face down (at one device's round end too, where both look).
    const open = other.hand !== null && (this.context.you === null || this.view.phase === "ende");
    if (open) {
      const hand = el("div", { class: "hanse-hand open", "data-testid": "open-hand", "data-seat": String(other.seat) },
        ...(other.hand ?? []).map((c) => this.card(c.card, {}, null)));
      return el("section", { class: "hanse-side opponent", "data-seat": String(other.seat) }, hand, this.tokensLine(other, who));
    }
    const known = el("div", { class: "hanse-known", "data-testid": "opponent-known" }, ...other.known.map((c) => this.card(c, {}, null)));
    const backs = el("div", { class: "hanse-hand backs", "data-testid": "opponent-hand" });
    for (let i = 0; i < other.hand_count; i++) backs.append(el("span", { class: "hanse-card back" }, cardFace("", lang() === "en" ? "hidden card" : "verdeckte Karte")));
    return el("section", { class: "hanse-side opponent", "data-seat": String(other.seat) }, known, backs, this.tokensLine(other, who));
  }

  private tokensLine(player: HansePlayer, who: string): HTMLElement {
    const de = lang() !== "en";
    const rats = player.rats ? player.rats.join(", ") : player.rats_sizes.map((s) => (s === 5 ? "5+" : String(s))).join(", ");
    return el("p", { class: "hanse-tokens", "data-testid": `tokens-${player.seat}` },
      `${who}: `, el("span", { "data-info": "good:Packpferd" }, `${de ? "Stall" : "Stable"} ${player.stable}`),
      ` · Zinn ${player.zinn.reduce((a, b) => a + b, 0)} · `,
      el("span", { "data-info": "rats" }, `Ratsmarken ${player.rats_count}${rats ? ` (${rats})` : ""}`));
  }

  private centre(): HTMLElement {
    const de = lang() !== "en";
    const interactive = this.context.interactive && this.view.phase === "spiel";
    const market = el("div", { class: "hanse-market", "data-testid": "market" });
    const taken = [...this.selection.market];
    for (const card of this.view.market ?? []) {
      const index = taken.indexOf(card);
      const selected = index >= 0;
      if (selected) taken.splice(index, 1);
      market.append(this.card(card, { "data-testid": "market-card" }, interactive ? () => this.tapMarket(card, selected) : null, selected));
    }
    const piles = el("div", { class: "hanse-piles", "data-testid": "zinn-piles" },
      ...(this.view.zinn_piles ?? []).map((pile) =>
        el("span", { class: "hanse-pile", "data-good": pile.good, "data-info": `zinn:${pile.good}` }, `${name(pile.good)}: ${pile.left.length ? `${pile.left[0]} (${pile.left.length})` : "–"}`)));
    const ratsLeft = this.view.rats_left ?? [];
    // A player counts the seals from their own side, as the result line does ("Verloren … (0 : 2)");
    // a spectator and two players at one device in seat order.
    const seals = ownFirst(this.view.seals ?? [0, 0], this.context.you, this.context.sameDevice ?? false);
    const info = el("p", { class: "hanse-info" },
      el("span", { "data-testid": "deck-count", "data-info": "deck" }, `${de ? "Stapel" : "Deck"}: ${String(this.view.deck_count)}`), " · ",
      el("span", { "data-testid": "rats-piles", "data-info": "rats" }, `${de ? "Ratsmarken" : "Ratsmarken"} 3: ${ratsLeft[0] ?? 0}, 4: ${ratsLeft[1] ?? 0}, 5+: ${ratsLeft[2] ?? 0}`), " · ",
      el("span", { "data-testid": "stallmarke", "data-info": "stallmarke" }, de ? "Stallmarke 5 (größerer Stall)" : "Stable token 5 (larger stable)"), " · ",
      el("span", { "data-testid": "seals" }, `${de ? "Siegel" : "Seals"} ${seals[0]}:${seals[1]} / ${String(this.view.seals_to_win)}`), " · ",
      el("span", {}, `${de ? "Runde" : "Round"} ${String(this.view.round)}`));
    return el("section", { class: "hanse-centre" }, market, piles, info);
  }

  private ownArea(me: HansePlayer): HTMLElement {
    const de = lang() !== "en";
    const interactive = this.context.interactive && this.view.phase === "spiel";
    const hand = el("div", { class: "hanse-hand own", "data-testid": "hand" });
    (me.hand ?? []).forEach((card, index) => {
      const selected = this.selection.hand.includes(index);
      const node = this.card(card.card, { "data-testid": "hand-card" }, interactive ? () => this.tapHand(index) : null, selected);
      if (card.known && this.help) node.append(el("span", { class: "eye", "data-testid": "eye", title: de ? "Der Gegner kennt diese Karte" : "Your opponent knows this card" }, " ◉"));
      hand.append(node);
    });
    const stable = el(interactive && me.stable > 0 ? "button" : "span", { class: `hanse-stable${this.selection.stable ? " selected" : ""}`, "data-testid": "stable", "data-info": "good:Packpferd" },
      `${de ? "Stall" : "Stable"}: ${me.stable} ${this.selection.stable ? ` (${this.selection.stable} ${de ? "gewählt" : "chosen"})` : ""}`);
    if (interactive && me.stable > 0) stable.addEventListener("click", () => this.tapStable(me.stable));
    return el("section", { class: "hanse-side own" }, hand, stable, this.tokensLine(me, de ? "Du" : "You"));
  }

  private tapMarket(card: string, selected: boolean): void {
    const market = this.selection.market;
    if (card === HORSE) {
      // A Packpferd in the market stands for all of them (you take all or none).
      const horses = (this.view.market ?? []).filter((c) => c === HORSE);
      this.selection = { market: selected ? market.filter((c) => c !== HORSE) : [...market.filter((c) => c !== HORSE), ...horses], hand: [], stable: 0 };
    } else if (selected) {
      market.splice(market.indexOf(card), 1);
    } else {
      this.selection.market = [...market.filter((c) => c !== HORSE), card];
    }
    this.draw();
  }

  private tapHand(index: number): void {
    const hand = this.selection.hand;
    this.selection.hand = hand.includes(index) ? hand.filter((i) => i !== index) : [...hand, index];
    this.selection.market = this.selection.market.filter((c) => c !== HORSE);
    this.draw();
  }

  private tapStable(stable: number): void {
    this.selection.stable = (this.selection.stable + 1) % (stable + 1);
    this.selection.market = this.selection.market.filter((c) => c !== HORSE);
    this.draw();
  }

  /** The tapped cards by name, as the Handelskasten reads them. */
  private cardSelection(): CardSelection {
    const { me } = this.players();
    return { market: [...this.selection.market], hand: this.selection.hand.map((i) => me?.hand?.[i]?.card ?? ""), stable: this.selection.stable };
  }

  private tradeBox(): HTMLElement {
    const de = lang() !== "en";
    const box = el("section", { class: "hanse-trade", "data-testid": "handelskasten" });
    if (this.view.phase !== "spiel" || !this.context.interactive) return box;
    // What the selection does, or exactly why it is no move (from this seat's view only).
    const answer = explainSelection(this.view, this.context.you ?? 0, this.cardSelection());
    const move = answer.move;
    const button = el("button", { class: "button primary", "data-testid": "play-selection" }, de ? "Ausführen" : "Play") as HTMLButtonElement;
    button.disabled = move === null;
    if (move) button.addEventListener("click", () => {
      this.selection = { market: [], hand: [], stable: 0 };
      this.host.onMove(move.text);
    });
    const empty = !this.selection.market.length && !this.selection.hand.length && !this.selection.stable;
    box.append(el("p", { class: answer.ok || empty ? "" : "why-not", "data-testid": "trade-text", "data-move": move?.text ?? "", "data-reason": answer.code },
      de ? answer.de : answer.en), button);
    return box;
  }

  private roundTable(table: HanseRound): HTMLElement {
    const de = lang() !== "en";
    // A spectator and both players at one device read it by the seats' names; a player sees "Du".
    const mine = (i: number): boolean => i === this.context.you && !this.context.sameDevice;
    const rows = table.players.map((p, i) => el("tr", {},
      el("th", { "data-testid": `round-name-${i}` }, mine(i) ? (de ? "Du" : "You") : this.seatName(i)),
      el("td", {}, `${p.zinn.join(" + ") || "0"} = ${p.zinn_sum}`),
      el("td", {}, `${p.rats.join(" + ") || "0"} = ${p.rats_sum}`),
      el("td", {}, `${p.horses} → ${p.stall}`),
      el("td", { "data-testid": `round-total-${i}` }, String(p.total))));
    const head = el("tr", {}, el("th", {}), el("th", {}, "Zinnmarken"), el("th", {}, "Ratsmarken"), el("th", {}, de ? "Stallmarke" : "Stable token"), el("th", {}, de ? "Summe" : "Total"));
    const panel = el("section", { class: "hanse-rundentafel", "data-testid": "rundentafel" },
      el("h3", {}, `${de ? "Rundentafel" : "Round table"} ${table.round}`),
      el("p", {}, de ? table.end_de : table.end_en),
      el("table", {}, head, ...rows),
      el("p", { "data-testid": "round-result" }, this.roundResult(table, mine)));
    // The countdown, or Weiter for the player whose table waits; a replay or spectator offers no button.
    if (this.view.phase === "pause" && (this.context.you !== null || typeof this.context.pauseLeftMs === "number")) panel.append(this.pauseControl());
    return panel;
  }

  /** Who got the round's Ratssiegel, by the names the table uses: "Du bekommst das Ratssiegel"
   * for the player who got it, the other's name for the one who did not (the server says
   * "Spieler 1", which a player had to match to a seat). A round without a seal as the server says. */
  private roundResult(table: HanseRound, mine: (seat: number) => boolean): string {
    const de = lang() !== "en";
    const text = de ? table.de : table.en;
    if (typeof table.seal !== "number") return text;
    const why = /\(([^()]*)\)\.?$/.exec(text)?.[1];
    const reason = why ? ` (${why})` : "";
    if (de) return `Runde ${table.round}: ${mine(table.seal) ? "Du bekommst" : `${this.seatName(table.seal)} bekommt`} das Ratssiegel${reason}.`;
    return `Round ${table.round}: ${mine(table.seal) ? "You win" : `${this.seatName(table.seal)} wins`} the council seal${reason}.`;
  }

  /** Wartesaal: the countdown the server runs; at local tables the Weiter button. */
  private pauseControl(): HTMLElement {
    const de = lang() !== "en";
    const left = this.context.pauseLeftMs;
    if (typeof left === "number") {
      // The first word of this pause fixes its end here; later redraws of the same
      // state must not start the countdown again.
      if (this.pauseEnd === null || this.pauseEnd.round !== this.view.round) this.pauseEnd = { round: this.view.round, at: Date.now() + left };
      const until = this.pauseEnd.at;
      const line = el("p", { "data-testid": "pause-countdown" });
      const tick = () => {
        const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
        line.textContent = de ? `Nächste Runde in ${seconds} s – die Uhren stehen.` : `Next round in ${seconds} s – the clocks stand still.`;
      };
      tick();
      this.countdown = window.setInterval(tick, 250);
      return line;
    }
    const continueMove = legalMoves(this.view).find((m) => m.effect.type === "weiter");
    const button = el("button", { class: "button primary", "data-testid": "weiter" }, de ? "Weiter" : "Continue") as HTMLButtonElement;
    button.disabled = !continueMove || !this.context.interactive;
    if (continueMove) button.addEventListener("click", () => this.host.onMove(continueMove.text));
    return button;
  }
}

export const hanseBoard: BoardFactory = (host: BoardHost) => new HanseBoard(host);
