// Battlehanse's Karten-Info (seed 000): for a good or Packpferd, the deck, a row of
// Zinnmarken, the Ratsmarken or the Stallmarke — how many cards there are, which tokens
// remain, the rules, and what it means for this seat now (what selling would bring,
// whether it can still take the good, who would get the Stallmarke). Everything is read
// from the seat's view, so nothing hidden can show here.
import type { HansePlayer, HanseView } from "../protocol";
import { GOODS, HAND_LIMIT, HORSE, NAMES_EN, PRECIOUS, RATS_RANGES } from "./hanse_selection";

type Language = "de" | "en";

/** What the pointer rests on; written into `data-info` as "good:Gold", "deck", "zinn:Salz", "rats", "stallmarke". */
export type InfoTarget =
  | { kind: "good"; card: string }
  | { kind: "deck" }
  | { kind: "zinn"; good: string }
  | { kind: "rats" }
  | { kind: "stallmarke" };

/** The window's picture: a card, or a row of tokens with their values. */
export type InfoPicture = { card: string } | { tokens: Array<number | string>; label: string };

export interface CardInfo {
  title: string;
  picture: InfoPicture;
  lines: string[];
}

export const CARD_COUNTS: Record<string, number> = { Bernstein: 6, Gold: 6, Silber: 6, Tuch: 8, Salz: 8, Pelz: 10, Packpferd: 11 };
const RATS_MEANS: Record<number, number> = { 3: 2, 4: 5, 5: 9 };
const STALLMARKE = 5;

export function parseTarget(text: string | undefined): InfoTarget | null {
  if (!text) return null;
  const [kind, arg] = text.split(":");
  if (kind === "good" && arg && CARD_COUNTS[arg] !== undefined) return { kind, card: arg };
  if (kind === "zinn" && arg && (GOODS as readonly string[]).includes(arg)) return { kind, good: arg };
  if (kind === "deck" || kind === "rats" || kind === "stallmarke") return { kind };
  return null;
}

export function targetKey(target: InfoTarget): string {
  if (target.kind === "good") return `good:${target.card}`;
  if (target.kind === "zinn") return `zinn:${target.good}`;
  return target.kind;
}

function cardName(card: string, language: Language): string {
  return language === "en" ? NAMES_EN[card] ?? card : card;
}

function players(view: Partial<HanseView>): HansePlayer[] {
  return view.players ?? [];
}

function zinnLeft(view: Partial<HanseView>, good: string): number[] {
  const pile = (view.zinn_piles ?? []).find((p) => p.good === good);
  return pile ? pile.left : [];
}

function ratsLeft(view: Partial<HanseView>): number[] {
  return view.rats_left ?? [0, 0, 0];
}

function count(list: string[], card: string): number {
  return list.filter((c) => c === card).length;
}

/** Who is "you" and who the other side, or null for a spectator (who sees seats by number). */
function sides(view: Partial<HanseView>, you: number | null): { me: HansePlayer | null; other: HansePlayer | null } {
  const all = players(view);
  if (you === null) return { me: null, other: null };
  return { me: all[you] ?? null, other: all[1 - you] ?? null };
}

/** What selling `n` of `good` brings now (the engine's sale_tokens from the view's piles). */
function saleText(view: Partial<HanseView>, good: string, n: number, language: Language): string {
  const de = language !== "en";
  const name = cardName(good, language);
  if (n === 0) return de ? `Du hast kein ${good} auf der Hand.` : `You hold no ${name}.`;
  if (PRECIOUS.has(good) && n < 2) {
    return de ? `Mit 1 ${good} kannst du noch nicht verkaufen (Edelware: mindestens 2).` : `With 1 ${name} you cannot sell yet (precious: at least 2).`;
  }
  const values = zinnLeft(view, good).slice(0, n);
  const sum = values.reduce((a, b) => a + b, 0);
  const size = n >= 5 ? 5 : n;
  const rats = size >= 3 && (ratsLeft(view)[size - 3] ?? 0) > 0 ? RATS_RANGES[size] : null;
  const tokens = values.length ? `${values.join(" + ")} = ${sum}` : "0";
  return de
    ? `Verkaufst du jetzt deine ${n} ${good}: ${tokens} ${sum === 1 ? "Punkt" : "Punkte"}${rats ? ` und eine Ratsmarke (${rats})` : ""}.`
    : `Selling your ${n} ${name} now: ${tokens} ${sum === 1 ? "point" : "points"}${rats ? ` and a Ratsmarke (${rats})` : ""}.`;
}

function stallmarkeNow(view: Partial<HanseView>, you: number | null, language: Language): string {
  const de = language !== "en";
  const all = players(view);
  if (all.length < 2) return "";
  const [a, b] = [all[0].stable, all[1].stable];
  const leader = a > b ? 0 : b > a ? 1 : null;
  if (you === null) {
    const who = leader === null ? (de ? "keiner (Gleichstand)" : "nobody (a tie)") : `${de ? "Spieler" : "player"} ${leader + 1}`;
    return de ? `Jetzt: Spieler 1 hat ${a}, Spieler 2 ${b} Packpferde – die Stallmarke bekäme ${who}.`
      : `Now: player 1 has ${a}, player 2 ${b} pack horses – the Stallmarke would go to ${who}.`;
  }
  const mine = all[you].stable;
  const theirs = all[1 - you].stable;
  if (leader === null) return de ? `Jetzt: ihr habt beide ${mine} Packpferde – keiner bekäme die Stallmarke.` : `Now: you both have ${mine} pack horses – nobody would get the Stallmarke.`;
  if (leader === you) return de ? `Jetzt: dein Stall ${mine}, der des Gegners ${theirs} – die Stallmarke bekämst du.` : `Now: your stable ${mine}, your opponent's ${theirs} – you would get the Stallmarke.`;
  return de ? `Jetzt: dein Stall ${mine}, der des Gegners ${theirs} – die Stallmarke bekäme dein Gegner.` : `Now: your stable ${mine}, your opponent's ${theirs} – your opponent would get the Stallmarke.`;
}

function goodInfo(view: Partial<HanseView>, card: string, you: number | null, language: Language): CardInfo {
  const de = language !== "en";
  const { me, other } = sides(view, you);
  const market = count(view.market ?? [], card);
  const lines: string[] = [];
  if (card === HORSE) {
    const all = players(view);
    const stables = me && other ? (de ? `${me.stable} in deinem Stall, ${other.stable} im Stall des Gegners` : `${me.stable} in your stable, ${other.stable} in your opponent's`)
      : all.map((p) => `${de ? "Stall" : "stable"} ${p.seat + 1}: ${p.stable}`).join(", ");
    lines.push(de ? `${CARD_COUNTS[card]} Karten im Spiel. Offen: ${market} im Markt, ${stables}.` : `${CARD_COUNTS[card]} cards in the game. Open: ${market} in the market, ${stables}.`);
    lines.push(de ? "Packpferde stehen im Stall, nicht auf der Hand, und zählen nicht zum Handlimit. Verkaufen kann man sie nicht."
      : "Pack horses stand in the stable, not in the hand, and do not count towards the hand limit. They cannot be sold.");
    lines.push(de ? "Ein Packpferd im Markt antippen wählt alle: du holst sie zusammen in den Stall, der Markt wird aufgefüllt. Beim Tausch gibst du Pferde aus dem Stall als Karten zurück; eintauschen lassen sie sich nicht."
      : "Tapping a pack horse in the market selects all of them: you take them together into your stable and the market is refilled. In an exchange you give horses from your stable as cards; they cannot be taken in one.");
    lines.push(de ? `Stallmarke: ${STALLMARKE} Punkte für den größeren Stall am Rundenende.` : `Stallmarke: ${STALLMARKE} points for the larger stable at the round's end.`);
    lines.push(stallmarkeNow(view, you, language));
    return { title: cardName(card, language), picture: { card }, lines };
  }
  const discard = (view.discard ?? {})[card] ?? 0;
  const inHand = me?.hand ? count(me.hand.map((c) => c.card), card) : 0;
  const known = other ? count(other.known, card) : 0;
  const seen = me?.hand
    ? (de ? `${market} im Markt, ${inHand} auf deiner Hand, ${known} gemerkt beim Gegner, ${discard} verkauft` : `${market} in the market, ${inHand} in your hand, ${known} known in your opponent's hand, ${discard} sold`)
    : (de ? `${market} im Markt, ${discard} verkauft` : `${market} in the market, ${discard} sold`);
  lines.push(de ? `${CARD_COUNTS[card]} Karten im Spiel. Offen: ${seen}.` : `${CARD_COUNTS[card]} cards in the game. Open: ${seen}.`);
  const left = zinnLeft(view, card);
  lines.push(left.length ? (de ? `Zinnmarken übrig (oben zuerst): ${left.join(" · ")}.` : `Zinnmarken left (top first): ${left.join(" · ")}.`)
    : (de ? "Keine Zinnmarken mehr: ein Verkauf bringt nur noch eine Ratsmarke." : "No Zinnmarken left: a sale brings only a Ratsmarke."));
  lines.push(PRECIOUS.has(card)
    ? (de ? "Edelware: verkauft wird sie nur zu mindestens zweit." : "Precious: sold only two or more at a time.")
    : (de ? "Gewöhnliche Ware: verkaufen kannst du schon eine Karte." : "Common good: you may sell even a single card."));
  lines.push(de ? "Je Karte eine Zinnmarke von oben; bei 3 Karten dazu eine Ratsmarke (1–3), bei 4 eine größere (4–6), ab 5 die größte (8–10)."
    : "One Zinnmarke from the top per card; with 3 cards a Ratsmarke (1–3) as well, with 4 a larger one (4–6), from 5 the largest (8–10).");
  if (me?.hand) {
    const goods = me.hand.length;
    lines.push(saleText(view, card, inHand, language));
    lines.push(goods >= HAND_LIMIT
      ? (de ? `Aufnehmen geht nicht: du hast schon ${HAND_LIMIT} Waren auf der Hand.` : `You cannot take it: you already hold ${HAND_LIMIT} goods.`)
      : (de ? `Aufnehmen kannst du sie noch (${goods} von ${HAND_LIMIT} Waren auf der Hand${market ? "" : "; gerade liegt keine im Markt"}).`
        : `You can still take it (${goods} of ${HAND_LIMIT} goods in hand${market ? "" : "; none is in the market now"}).`));
  }
  return { title: `${cardName(card, language)} · ${PRECIOUS.has(card) ? (de ? "Edelware" : "precious good") : (de ? "gewöhnliche Ware" : "common good")}`, picture: { card }, lines };
}

function deckInfo(view: Partial<HanseView>, you: number | null, language: Language): CardInfo {
  const de = language !== "en";
  const n = Number(view.deck_count ?? 0);
  const { other } = sides(view, you);
  const lines = [
    de ? `Noch ${n} ${n === 1 ? "Karte" : "Karten"} im Nachziehstapel; ihre Reihenfolge kennt niemand.` : `${n} ${n === 1 ? "card" : "cards"} left in the deck; nobody knows their order.`,
    de ? "55 Karten: je 6 Bernstein, Gold und Silber, je 8 Tuch und Salz, 10 Pelz, 11 Packpferde." : "55 cards: 6 each of amber, gold and silver, 8 each of cloth and salt, 10 fur, 11 pack horses.",
    de ? "Nach Nehmen und Pferdeholen wird der Markt aufgefüllt, nach einem Tausch nicht. Kann er nicht mehr aufgefüllt werden, endet die Runde sofort."
      : "After a take or taking the horses the market is refilled, after an exchange it is not. When it cannot be refilled, the round ends at once.",
  ];
  if (other) {
    const unknown = other.hand_count - other.known.length;
    lines.push(de ? `Für dich verdeckt: ${n} ${n === 1 ? "Karte" : "Karten"} im Stapel und ${unknown} auf der Hand des Gegners.` : `Hidden from you: ${n} ${n === 1 ? "card" : "cards"} in the deck and ${unknown} in your opponent's hand.`);
  }
  return { title: de ? "Nachziehstapel" : "Deck", picture: { card: "" }, lines };
}

function zinnInfo(view: Partial<HanseView>, good: string, you: number | null, language: Language): CardInfo {
  const de = language !== "en";
  const left = zinnLeft(view, good);
  const piles = view.zinn_piles ?? [];
  const empty = piles.filter((p) => p.left.length === 0).length;
  const lines = [
    left.length ? (de ? `Noch ${left.length} Marken, der wertvollste oben: ${left.join(" · ")}.` : `${left.length} tokens left, the most valuable on top: ${left.join(" · ")}.`)
      : (de ? "Dieser Stapel ist leer: ein Verkauf bringt hier nur noch eine Ratsmarke." : "This pile is empty: a sale here brings only a Ratsmarke."),
    de ? "Ein Verkauf nimmt so viele Marken von oben, wie er Karten hat – wer früh verkauft, bekommt die wertvollen."
      : "A sale takes as many tokens from the top as it has cards – who sells early gets the valuable ones.",
    de ? `Leere Stapel: ${empty} von 6 – sind drei leer, endet die Runde sofort.` : `Empty piles: ${empty} of 6 – when three are empty the round ends at once.`,
  ];
  const { me } = sides(view, you);
  if (me?.hand) lines.push(saleText(view, good, count(me.hand.map((c) => c.card), good), language));
  return { title: `${de ? "Zinnmarken" : "Zinnmarken"} · ${cardName(good, language)}`, picture: { tokens: left, label: cardName(good, language) }, lines };
}

function ratsInfo(view: Partial<HanseView>, you: number | null, language: Language): CardInfo {
  const de = language !== "en";
  const left = ratsLeft(view);
  const lines = [
    de ? "Verdeckt; ihren Wert sieht nur der Besitzer bis zum Rundenende." : "Face down; only the owner sees the value until the round ends.",
    ...[3, 4, 5].map((size, i) => {
      const sale = size === 5 ? (de ? "ab 5 Karten" : "5 or more cards") : (de ? `für ${size} Karten` : `for ${size} cards`);
      return de ? `${sale}: Werte ${RATS_RANGES[size]} (im Mittel ${RATS_MEANS[size]}), noch ${left[i] ?? 0} im Stapel.`
        : `${sale}: values ${RATS_RANGES[size]} (mean ${RATS_MEANS[size]}), ${left[i] ?? 0} left in the pile.`;
    }),
    de ? "Ist der passende Stapel leer, gibt es für den Verkauf keine Ratsmarke mehr." : "When the matching pile is empty, the sale earns no Ratsmarke.",
  ];
  const sizes = (p: HansePlayer): string => p.rats_sizes.map((s) => (s === 5 ? "5+" : String(s))).join(", ");
  for (const p of players(view)) {
    const who = you === null ? `${de ? "Spieler" : "Player"} ${p.seat + 1}` : p.seat === you ? (de ? "Deine" : "Yours") : (de ? "Gegner" : "Opponent");
    if (!p.rats_count) {
      lines.push(de ? `${who}: keine.` : `${who}: none.`);
    } else if (p.rats) {
      lines.push(`${who}: ${p.rats.join(" + ")} = ${p.rats.reduce((a, b) => a + b, 0)}.`);
    } else {
      lines.push(de ? `${who}: ${p.rats_count} (aus den Stapeln ${sizes(p)}), Werte verdeckt.` : `${who}: ${p.rats_count} (from the piles ${sizes(p)}), values hidden.`);
    }
  }
  // The picture: the three face-down piles by their values, with how many lie there.
  const label = de ? `noch ${left.join(" · ")}` : `left ${left.join(" · ")}`;
  return { title: "Ratsmarken", picture: { tokens: [3, 4, 5].map((size) => RATS_RANGES[size]), label }, lines };
}

function stallmarkeInfo(view: Partial<HanseView>, you: number | null, language: Language): CardInfo {
  const de = language !== "en";
  return {
    title: "Stallmarke",
    picture: { tokens: [STALLMARKE], label: de ? "Stall" : "stable" },
    lines: [
      de ? `${STALLMARKE} Punkte für den, der am Rundenende mehr Packpferde im Stall hat; bei Gleichstand bekommt sie keiner.`
        : `${STALLMARKE} points for whoever has more pack horses in the stable at the round's end; on a tie nobody gets it.`,
      stallmarkeNow(view, you, language),
    ],
  };
}

/** The Karten-Info for `target` as seat `you` (null: a spectator) sees the table in `view`. */
export function cardInfo(target: InfoTarget, view: Partial<HanseView>, you: number | null, language: Language): CardInfo {
  if (target.kind === "good") return goodInfo(view, target.card, you, language);
  if (target.kind === "deck") return deckInfo(view, you, language);
  if (target.kind === "zinn") return zinnInfo(view, target.good, you, language);
  if (target.kind === "rats") return ratsInfo(view, you, language);
  return stallmarkeInfo(view, you, language);
}
