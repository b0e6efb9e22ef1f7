// The Handelskasten's words for Battlehanse: what the tapped cards would do, or exactly why
// they are not a move. The browser cannot run the engine, so the reasons are the rules
// of seed 000 read from the view alone (market, own hand, own stable, legal moves):
// nothing here can depend on what this seat may not see. The checks follow the
// engine's describe_selection (shared/games/hanse/selection.py) step by step, with its
// codes and its German and English sentences; tests/tables/test_hanse_selection.py runs
// both over many positions and selections and requires the same answer.
import type { HanseEffect, HanseMove, HanseView } from "../protocol";

export const HORSE = "Packpferd";
export const GOODS = ["Bernstein", "Gold", "Silber", "Tuch", "Salz", "Pelz"] as const;
export const NAMES_EN: Record<string, string> = {
  Bernstein: "amber", Gold: "gold", Silber: "silver", Tuch: "cloth", Salz: "salt", Pelz: "fur", Packpferd: "pack horse",
};
export const PRECIOUS = new Set(["Bernstein", "Gold", "Silber"]);
export const HAND_LIMIT = 7;
/** The Ratsmarke piles by the sale that earns them, as the seed names their values. */
export const RATS_RANGES: Record<number, string> = { 3: "1–3", 4: "4–6", 5: "8–10" };

/** What the player has tapped: market cards, hand cards (goods), horses from the stable. */
export interface CardSelection {
  market: string[];
  hand: string[];
  stable: number;
}

export type Explanation =
  | { ok: true; code: "ok"; de: string; en: string; move: HanseMove }
  | { ok: false; code: string; de: string; en: string; move: null };

function no(code: string, de: string, en: string): Explanation {
  return { ok: false, code, de, en, move: null };
}

function counts(cards: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const card of cards) out.set(card, (out.get(card) ?? 0) + 1);
  return out;
}

function total(map: Map<string, number>): number {
  let n = 0;
  for (const v of map.values()) n += v;
  return n;
}

function englishName(card: string): string {
  return NAMES_EN[card] ?? card;
}

/** "2 Gold + Tuch + 1 Packpferd": goods in the engine's kind order, horses always counted. */
function listText(cards: string[], horses: number, language: "de" | "en"): string {
  const c = counts(cards);
  const parts = GOODS.filter((g) => c.get(g)).map((g) => {
    const n = c.get(g)!;
    const nameOf = language === "de" ? g : englishName(g);
    return n > 1 ? `${n} ${nameOf}` : nameOf;
  });
  if (horses) {
    const word = language === "de" ? (horses === 1 ? "Packpferd" : "Packpferde") : horses === 1 ? "pack horse" : "pack horses";
    parts.push(`${horses} ${word}`);
  }
  return parts.join(" + ");
}

/** The Handelskasten sentence for a legal move, from its effect alone (German and English). */
export function moveSentence(fx: HanseEffect): { de: string; en: string } {
  if (fx.type === "pferde") {
    const n = fx.market_out.length;
    return n === 1
      ? { de: "Du holst das Packpferd in deinen Stall.", en: "You take the pack horse into your stable." }
      : { de: `Du holst alle ${n} Packpferde in deinen Stall.`, en: `You take all ${n} pack horses into your stable.` };
  }
  if (fx.type === "nimm") {
    const card = fx.market_out[0];
    return { de: `Du nimmst ${card}.`, en: `You take ${englishName(card)}.` };
  }
  if (fx.type === "tausch") {
    const goods = fx.market_in.filter((c) => c !== HORSE);
    const horses = fx.market_in.length - goods.length;
    return {
      de: `Du nimmst ${listText(fx.market_out, 0, "de")} und gibst ${listText(goods, horses, "de")}.`,
      en: `You take ${listText(fx.market_out, 0, "en")} and give ${listText(goods, horses, "en")}.`,
    };
  }
  if (fx.type === "verkauf") {
    const n = fx.hand_out.length;
    const card = fx.hand_out[0];
    const sum = fx.zinn.length ? fx.zinn.join(" + ") : "0";
    const rats = fx.ratsmarke ? RATS_RANGES[fx.ratsmarke] : null;
    return {
      de: `Du verkaufst ${n} ${card}: ${sum} = ${fx.zinn_sum} ${fx.zinn_sum === 1 ? "Punkt" : "Punkte"}${rats ? ` und eine Ratsmarke (${rats})` : ""}.`,
      en: `You sell ${n} ${englishName(card)}: ${sum} = ${fx.zinn_sum} ${fx.zinn_sum === 1 ? "point" : "points"}${rats ? ` and a Ratsmarke (${rats})` : ""}.`,
    };
  }
  return { de: "Weiter.", en: "Continue." };
}

function sameCards(a: string[], b: string[]): boolean {
  return [...a].sort().join(",") === [...b].sort().join(",");
}

/** The legal move whose visible effect is exactly the selection, if any. */
export function matchingMove(view: Partial<HanseView>, selection: CardSelection): HanseMove | null {
  for (const move of view.legal_moves ?? []) {
    const fx = move.effect;
    if (fx.type === "weiter") continue;
    if (sameCards(fx.market_out, selection.market) && sameCards(fx.hand_out, selection.hand) && Math.max(0, -fx.stable) === selection.stable) return move;
  }
  return null;
}

interface OwnSide {
  hand: string[];
  stable: number;
}

function ownSide(view: Partial<HanseView>, seat: number): OwnSide {
  const players = view.players ?? [];
  const me = players[seat];
  return { hand: (me?.hand ?? []).map((c) => c.card), stable: me?.stable ?? 0 };
}

/** What the selection would do for `seat` (to move in `view`), or why it is not allowed. */
export function explainSelection(view: Partial<HanseView>, seat: number, selection: CardSelection): Explanation {
  const mk = counts(selection.market);
  const hd = counts(selection.hand.filter((c) => c !== HORSE));
  // A horse among "hand" cards means one from the stable (the engine reads it so too).
  const stable = selection.stable + selection.hand.filter((c) => c === HORSE).length;
  const marketHorses = mk.get(HORSE) ?? 0;
  const marketGoods = total(mk) - marketHorses;
  const handGoods = total(hd);
  if (!total(mk) && !handGoods && !stable) {
    return no("incomplete", "Tippe Karten im Markt, auf deiner Hand oder in deinem Stall an.",
      "Tap cards in the market, in your hand or in your stable.");
  }
  if (marketHorses && (marketGoods || handGoods || stable)) {
    return no("take_horse", "Packpferde aus dem Markt holst du nur alle zusammen und ohne andere Karten.",
      "Pack horses are taken from the market all together and on their own.");
  }
  const own = ownSide(view, seat);
  const goodsInHand = own.hand.length;
  const found = (): Explanation => {
    // Any market Packpferd stands for all of them.
    const market = marketHorses ? (view.market ?? []).filter((c) => c === HORSE) : selection.market;
    const move = matchingMove(view, { market, hand: selection.hand.filter((c) => c !== HORSE), stable });
    if (!move) return no("not_legal", "Diese Auswahl ist kein erlaubter Zug.", "This selection is not a legal move.");
    return { ok: true, code: "ok", ...moveSentence(move.effect), move };
  };
  if (marketHorses) return found();
  if (marketGoods === 1 && !handGoods && !stable) {
    if (goodsInHand >= HAND_LIMIT) return no("hand_full", "Du hast schon 7 Waren auf der Hand.", "You already hold 7 goods.");
    return found();
  }
  if (marketGoods) {
    if (!handGoods && !stable) {
      return no("incomplete",
        `Für einen Tausch gibst du ${marketGoods} Karten zurück: wähle Waren auf der Hand oder Packpferde im Stall.`,
        `To exchange, give back ${marketGoods} cards: select goods in your hand or horses in your stable.`);
    }
    const given = handGoods + stable;
    if (marketGoods < 2) {
      return no("exchange_too_few", "Beim Tausch nimmst du mindestens zwei Waren aus dem Markt.",
        "An exchange takes at least two goods from the market.");
    }
    if (given !== marketGoods) {
      return no("exchange_unequal", `Du nimmst ${marketGoods} Karten und musst genauso viele zurückgeben (nicht ${given}).`,
        `You take ${marketGoods} cards and must give back as many (not ${given}).`);
    }
    for (const good of GOODS) {
      if (mk.get(good) && hd.get(good)) {
        return no("exchange_same_good", `Dieselbe Ware (${good}) darf nicht genommen und zurückgegeben werden.`,
          `The same good (${englishName(good)}) may not be both taken and given.`);
      }
    }
    if (goodsInHand + stable > HAND_LIMIT) {
      return no("hand_limit", `Danach hättest du ${goodsInHand + stable} Waren auf der Hand – höchstens 7.`,
        `You would then hold ${goodsInHand + stable} goods – at most 7.`);
    }
    return found();
  }
  if (stable) {
    return no("incomplete", "Packpferde aus dem Stall gibst du nur beim Tausch ab: wähle dazu Waren im Markt.",
      "Horses leave your stable only in an exchange: select goods in the market too.");
  }
  const kinds = GOODS.filter((g) => hd.get(g));
  if (kinds.length > 1) {
    return no("sell_mixed", "Verkaufen kannst du nur eine Warensorte auf einmal.", "You can sell only one kind of good at a time.");
  }
  const good = kinds[0];
  if (PRECIOUS.has(good) && hd.get(good)! < 2) {
    const en = englishName(good);
    return no("precious_single", `${good} ist eine Edelware: nur zu mindestens zweit verkaufen.`,
      `${en.charAt(0).toUpperCase()}${en.slice(1)} is precious: sell at least two at a time.`);
  }
  return found();
}
