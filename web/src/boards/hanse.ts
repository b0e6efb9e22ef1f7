// Battlehanse at the table (seed 000): market, hands, stables, tokens and the Rundentafel,
// drawn from the server's view only. The Handelskasten matches the tapped cards against
// the view's legal moves and their effects; it never decides a rule itself.
import "./hanse.css";
import { lang } from "../i18n";
import { type Board, type BoardContext, type BoardFactory, type BoardHost, type GameView, type LegalMove, legalMoves } from "./board";

const HORSE = "Packpferd";
const EN: Record<string, string> = {
  Bernstein: "amber", Gold: "gold", Silber: "silver", Tuch: "cloth", Salz: "salt", Pelz: "fur", Packpferd: "pack horse",
};
const TOGGLES = [{ key: "help", label: { de: "Hilfe an", en: "Help on" }, initial: true }] as const;

interface HanseEffect {
  type: string;
  market_out: string[];
  market_in: string[];
  hand_out: string[];
  stable: number;
  zinn: number[];
  zinn_sum: number;
  ratsmarke: number | null;
}
interface HandCard { card: string; known: boolean }
interface Player {
  seat: number; hand_count: number; stable: number; known: string[]; hand: HandCard[] | null;
  zinn: number[]; rats_count: number; rats_sizes: number[]; rats: number[] | null;
}
interface RoundPlayer { zinn: number[]; zinn_sum: number; rats: number[]; rats_sum: number; horses: number; stall: number; total: number }
interface RoundTable { round: number; players: RoundPlayer[]; de: string; en: string; end_de: string; end_en: string; match_over: boolean }

interface Selection { market: string[]; hand: number[]; stable: number }

function el(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function sorted(list: string[]): string {
  return [...list].sort().join(",");
}

function name(card: string): string {
  return lang() === "en" ? EN[card] ?? card : card;
}

/** "2 Gold + Tuch" from a list of card names. */
function cardList(cards: string[]): string {
  const counts = new Map<string, number>();
  for (const card of cards) counts.set(card, (counts.get(card) ?? 0) + 1);
  return [...counts].map(([card, n]) => (n > 1 ? `${n} ${name(card)}` : name(card))).join(" + ");
}

/** The sentence the Handelskasten shows for a legal move, from its effect alone. */
export function describeMove(fx: HanseEffect): string {
  const de = lang() !== "en";
  if (fx.type === "verkauf") {
    const tokens = fx.zinn.length ? `${fx.zinn.join(" + ")} = ${fx.zinn_sum}` : "0";
    const rats = fx.ratsmarke === null ? "" : de ? ` und eine Ratsmarke (${fx.ratsmarke === 5 ? "5+" : fx.ratsmarke}er-Stapel)` : ` and a Ratsmarke (${fx.ratsmarke === 5 ? "5+" : fx.ratsmarke} pile)`;
    return de ? `Du verkaufst ${cardList(fx.hand_out)}: ${tokens} Punkte${rats}` : `You sell ${cardList(fx.hand_out)}: ${tokens} points${rats}`;
  }
  if (fx.type === "tausch") return de ? `Du nimmst ${cardList(fx.market_out)} und gibst ${cardList(fx.market_in)}` : `You take ${cardList(fx.market_out)} and give ${cardList(fx.market_in)}`;
  if (fx.type === "pferde") return de ? `Du nimmst alle Packpferde (${fx.market_out.length}) in deinen Stall` : `You take all pack horses (${fx.market_out.length}) into your stable`;
  if (fx.type === "nimm") return de ? `Du nimmst ${cardList(fx.market_out)}` : `You take ${cardList(fx.market_out)}`;
  return de ? "Weiter" : "Continue";
}

class HanseBoard implements Board {
  readonly toggles = TOGGLES;
  readonly turnForSecondSeat = false;
  private readonly root = el("div", { class: "board hanse-board", "data-testid": "board" });
  private view: GameView = {};
  private context: BoardContext = { you: null, interactive: false, lastMove: null };
  private selection: Selection = { market: [], hand: [], stable: 0 };
  private help = true;
  private shownFor: number | null = null; // the seat the hidden cards were last shown to
  private curtainFor: number | null = null;
  private countdown: number | null = null;
  private pauseEnd: { round: unknown; at: number } | null = null;

  constructor(private readonly host: BoardHost) {
    host.element.append(this.root);
  }

  render(view: GameView, context: BoardContext): void {
    const sameTurn = this.view.round === view.round && JSON.stringify(this.view.market) === JSON.stringify(view.market) && this.context.you === context.you;
    if (!sameTurn || !context.interactive) this.selection = { market: [], hand: [], stable: 0 };
    // One device, two players: when the seat whose hand is shown changes, a curtain
    // hides the table until the next player taps it (only then is their hand drawn).
    if (context.you !== null && this.shownFor !== null && context.you !== this.shownFor && view.phase !== "ende") this.curtainFor = context.you;
    if (context.you !== null && this.curtainFor === null) this.shownFor = context.you;
    this.view = view;
    this.context = context;
    this.draw();
  }

  setFlipped(): void {
    // Each player's own side is always at the bottom; there is nothing to turn.
  }

  setToggle(key: string, on: boolean): void {
    if (key === "help") this.help = on;
    this.draw();
  }

  destroy(): void {
    if (this.countdown !== null) window.clearInterval(this.countdown);
    this.root.remove();
  }

  private players(): { me: Player | null; other: Player | null } {
    const players = (this.view.players ?? []) as Player[];
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
      return;
    }
    const { me, other } = this.players();
    if (other) this.root.append(this.opponentArea(other));
    this.root.append(this.centre());
    this.root.append(this.tradeBox());
    if (me) this.root.append(this.ownArea(me));
    const rounds = (this.view.rounds ?? []) as RoundTable[];
    if ((this.view.phase === "pause" || this.view.phase === "ende") && rounds.length) this.root.append(this.roundTable(rounds[rounds.length - 1]));
  }

  private card(card: string, attrs: Record<string, string>, onTap: (() => void) | null, selected = false): HTMLElement {
    const node = el(onTap ? "button" : "span", { class: `hanse-card good-${card.toLowerCase()}${selected ? " selected" : ""}`, "data-card": card, ...attrs }, name(card));
    if (onTap) node.addEventListener("click", onTap);
    return node;
  }

  private opponentArea(other: Player): HTMLElement {
    const de = lang() !== "en";
    const known = el("div", { class: "hanse-known", "data-testid": "opponent-known" }, ...other.known.map((c) => this.card(c, {}, null)));
    const backs = el("div", { class: "hanse-hand backs", "data-testid": "opponent-hand" });
    for (let i = 0; i < other.hand_count; i++) backs.append(el("span", { class: "hanse-card back" }, "▒"));
    return el("section", { class: "hanse-side opponent" }, known, backs, this.tokensLine(other, de ? "Gegner" : "Opponent"));
  }

  private tokensLine(player: Player, who: string): HTMLElement {
    const de = lang() !== "en";
    const rats = player.rats ? player.rats.join(", ") : player.rats_sizes.map((s) => (s === 5 ? "5+" : String(s))).join(", ");
    return el("p", { class: "hanse-tokens", "data-testid": `tokens-${player.seat}` },
      `${who}: ${de ? "Stall" : "Stable"} ${player.stable} · Zinn ${player.zinn.reduce((a, b) => a + b, 0)} · ${de ? "Ratsmarken" : "Ratsmarken"} ${player.rats_count}${rats ? ` (${rats})` : ""}`);
  }

  private centre(): HTMLElement {
    const de = lang() !== "en";
    const interactive = this.context.interactive && this.view.phase === "spiel";
    const market = el("div", { class: "hanse-market", "data-testid": "market" });
    const taken = [...this.selection.market];
    for (const card of (this.view.market ?? []) as string[]) {
      const index = taken.indexOf(card);
      const selected = index >= 0;
      if (selected) taken.splice(index, 1);
      market.append(this.card(card, { "data-testid": "market-card" }, interactive ? () => this.tapMarket(card, selected) : null, selected));
    }
    const piles = el("div", { class: "hanse-piles", "data-testid": "zinn-piles" },
      ...((this.view.zinn_piles ?? []) as Array<{ good: string; left: number[] }>).map((pile) =>
        el("span", { class: "hanse-pile", "data-good": pile.good }, `${name(pile.good)}: ${pile.left.length ? `${pile.left[0]} (${pile.left.length})` : "–"}`)));
    const ratsLeft = (this.view.rats_left ?? []) as number[];
    const seals = (this.view.seals ?? [0, 0]) as number[];
    const info = el("p", { class: "hanse-info" },
      el("span", { "data-testid": "deck-count" }, `${de ? "Stapel" : "Deck"}: ${String(this.view.deck_count)}`), " · ",
      el("span", { "data-testid": "rats-piles" }, `${de ? "Ratsmarken" : "Ratsmarken"} 3: ${ratsLeft[0] ?? 0}, 4: ${ratsLeft[1] ?? 0}, 5+: ${ratsLeft[2] ?? 0}`), " · ",
      el("span", { "data-testid": "stallmarke" }, de ? "Stallmarke 5 (größerer Stall)" : "Stable token 5 (larger stable)"), " · ",
      el("span", { "data-testid": "seals" }, `${de ? "Siegel" : "Seals"} ${seals[0]}:${seals[1]} / ${String(this.view.seals_to_win)}`), " · ",
      el("span", {}, `${de ? "Runde" : "Round"} ${String(this.view.round)}`));
    return el("section", { class: "hanse-centre" }, market, piles, info);
  }

  private ownArea(me: Player): HTMLElement {
    const de = lang() !== "en";
    const interactive = this.context.interactive && this.view.phase === "spiel";
    const hand = el("div", { class: "hanse-hand own", "data-testid": "hand" });
    (me.hand ?? []).forEach((card, index) => {
      const selected = this.selection.hand.includes(index);
      const node = this.card(card.card, { "data-testid": "hand-card" }, interactive ? () => this.tapHand(index) : null, selected);
      if (card.known && this.help) node.append(el("span", { class: "eye", "data-testid": "eye", title: de ? "Der Gegner kennt diese Karte" : "Your opponent knows this card" }, " ◉"));
      hand.append(node);
    });
    const stable = el(interactive && me.stable > 0 ? "button" : "span", { class: `hanse-stable${this.selection.stable ? " selected" : ""}`, "data-testid": "stable" },
      `${de ? "Stall" : "Stable"}: ${me.stable} ${this.selection.stable ? ` (${this.selection.stable} ${de ? "gewählt" : "chosen"})` : ""}`);
    if (interactive && me.stable > 0) stable.addEventListener("click", () => this.tapStable(me.stable));
    return el("section", { class: "hanse-side own" }, hand, stable, this.tokensLine(me, de ? "Du" : "You"));
  }

  private tapMarket(card: string, selected: boolean): void {
    const market = this.selection.market;
    if (card === HORSE) {
      // A Packpferd in the market stands for all of them (you take all or none).
      const horses = ((this.view.market ?? []) as string[]).filter((c) => c === HORSE);
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

  /** The legal move whose visible effect is exactly the selection, if any. */
  private matchingMove(): LegalMove | null {
    const { me } = this.players();
    const hand = this.selection.hand.map((i) => me?.hand?.[i]?.card ?? "");
    for (const move of legalMoves(this.view)) {
      const fx = move.effect as unknown as HanseEffect;
      if (fx.type === "weiter") continue;
      if (sorted(fx.market_out) === sorted(this.selection.market) && sorted(fx.hand_out) === sorted(hand) && Math.max(0, -fx.stable) === this.selection.stable) return move;
    }
    return null;
  }

  private tradeBox(): HTMLElement {
    const de = lang() !== "en";
    const box = el("section", { class: "hanse-trade", "data-testid": "handelskasten" });
    if (this.view.phase !== "spiel" || !this.context.interactive) return box;
    const empty = !this.selection.market.length && !this.selection.hand.length && !this.selection.stable;
    const move = empty ? null : this.matchingMove();
    const text = empty ? (de ? "Tippe Karten im Markt, auf deiner Hand oder im Stall an." : "Tap cards in the market, your hand or your stable.")
      : move ? describeMove(move.effect as unknown as HanseEffect)
        : (de ? "So geht es nicht: diese Auswahl ist kein erlaubter Zug." : "Not possible: this selection is not a legal move.");
    const button = el("button", { class: "button primary", "data-testid": "play-selection" }, de ? "Ausführen" : "Play") as HTMLButtonElement;
    button.disabled = move === null;
    if (move) button.addEventListener("click", () => {
      this.selection = { market: [], hand: [], stable: 0 };
      this.host.onMove(move.text);
    });
    box.append(el("p", { "data-testid": "trade-text", "data-move": move?.text ?? "" }, text), button);
    return box;
  }

  private roundTable(table: RoundTable): HTMLElement {
    const de = lang() !== "en";
    const { me } = this.players();
    const seat = this.context.you ?? 0;
    const rows = table.players.map((p, i) => el("tr", {},
      el("th", {}, i === seat && me ? (de ? "Du" : "You") : `${de ? "Spieler" : "Player"} ${i + 1}`),
      el("td", {}, `${p.zinn.join(" + ") || "0"} = ${p.zinn_sum}`),
      el("td", {}, `${p.rats.join(" + ") || "0"} = ${p.rats_sum}`),
      el("td", {}, `${p.horses} → ${p.stall}`),
      el("td", { "data-testid": `round-total-${i}` }, String(p.total))));
    const head = el("tr", {}, el("th", {}), el("th", {}, "Zinnmarken"), el("th", {}, "Ratsmarken"), el("th", {}, de ? "Stallmarke" : "Stable token"), el("th", {}, de ? "Summe" : "Total"));
    const panel = el("section", { class: "hanse-rundentafel", "data-testid": "rundentafel" },
      el("h3", {}, `${de ? "Rundentafel" : "Round table"} ${table.round}`),
      el("p", {}, de ? table.end_de : table.end_en),
      el("table", {}, head, ...rows),
      el("p", { "data-testid": "round-result" }, de ? table.de : table.en));
    if (this.view.phase === "pause") panel.append(this.pauseControl());
    return panel;
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
    const weiter = legalMoves(this.view).find((m) => (m.effect as unknown as HanseEffect).type === "weiter");
    const button = el("button", { class: "button primary", "data-testid": "weiter" }, de ? "Weiter" : "Continue") as HTMLButtonElement;
    button.disabled = !weiter || !this.context.interactive;
    if (weiter) button.addEventListener("click", () => this.host.onMove(weiter.text));
    return button;
  }
}

export const hanseBoard: BoardFactory = (host: BoardHost) => new HanseBoard(host);
