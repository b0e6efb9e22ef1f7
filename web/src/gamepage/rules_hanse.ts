// Battlehanse's page: pitch, controls and Anleitung (seed 000, docs/rules.md).
import type { GameText } from "./game_text";
import { gameLabel } from "../profile/game_marks";

export const HANSE_TEXT: GameText = {
  game: "hanse",
  title: gameLabel("hanse"),
  pitch: {
    de: "Eine Hansestadt an der Ostsee, um 1450: Zwei Kaufleute handeln im Kontor um Bernstein, Gold, Tuch und Pelz – zwei Ratssiegel gewinnen.",
    en: "A Hanseatic town on the Baltic, around 1450: two merchants trade amber, gold, cloth and fur in the Kontor – two council seals win.",
  },
  controls: { de: "Maus / Touch", en: "Mouse / touch" },
  phone: {
    de: "Handy & Tablet: spielbar – Karten im Markt, auf der Hand oder im Stall antippen, dann den Knopf im Handelskasten; Karte kurz gedrückt halten für die Karten-Info.",
    en: "Phone & tablet: playable – tap cards in the market, your hand or your stable, then the button in the trade box; hold a card briefly for its card info.",
  },
  summary: {
    goal: { de: "Hol in einer Runde mehr Punkte als dein Gegner – das bringt ein Ratssiegel. Zwei Siegel gewinnen die Partie.", en: "Score more points than your opponent in a round – that earns a council seal. Two seals win the game." },
    turn: {
      de: "Genau eins: eine Ware aus dem Markt nehmen, tauschen, alle Packpferde holen oder Karten einer Ware verkaufen.",
      en: "Exactly one: take a good from the market, exchange, take all pack horses, or sell cards of one good.",
    },
    end: {
      de: "Die Runde endet, wenn drei Zinnmarken-Stapel leer sind oder der Markt nicht mehr aufgefüllt werden kann.",
      en: "A round ends when three token piles are empty or the market can no longer be refilled.",
    },
    tip: { de: "Wer früh verkauft, bekommt die wertvollen Zinnmarken – wer viel auf einmal verkauft, eine Ratsmarke.", en: "Sell early for the valuable tokens – sell many at once for a council token." },
  },
  rules: [
    {
      heading: { de: "Spielziel", en: "Aim of the game" },
      paragraphs: [{
        de: "Zwei Kaufleute handeln im Kontor um Waren. Wer am Ende einer Runde mehr Punkte hat, bekommt ein Ratssiegel. Wer zwei Siegel hat, gewinnt die Partie.",
        en: "Two merchants trade goods in the Kontor. Whoever has more points at the end of a round receives a council seal. Whoever has two seals wins the game.",
      }],
    },
    {
      heading: { de: "Die Karten", en: "The cards" },
      paragraphs: [{
        de: "Edelwaren: Bernstein (6 Karten), Gold (6), Silber (6) – verkauft werden sie nur zu mindestens zweit. Gewöhnliche Waren: Tuch (8), Salz (8), Pelz (10). Packpferde (11) stehen im eigenen Stall, nicht auf der Hand.",
        en: "Precious goods: amber (6 cards), gold (6), silver (6) – sold only two or more at a time. Common goods: cloth (8), salt (8), fur (10). Pack horses (11) stand in your own stable, not in your hand.",
      }],
    },
    {
      heading: { de: "Aufbau jeder Runde", en: "Setting up each round" },
      paragraphs: [{
        de: "Im Markt stehen 3 Packpferde und 2 Karten vom Stapel. Jeder bekommt 5 Karten; Packpferde darunter gehen sofort in den Stall. Rechts liegen die Zinnmarken je Ware – der wertvollste oben – und die verdeckten Ratsmarken für große Verkäufe.",
        en: "The market holds 3 pack horses and 2 cards from the deck. Each player gets 5 cards; pack horses among them go straight into the stable. On the right lie the tin tokens of each good – the most valuable on top – and the face-down council tokens for big sales.",
      }],
    },
    {
      heading: { de: "Dein Zug: genau eins davon", en: "Your turn: exactly one of these" },
      paragraphs: [
        { de: "Eine Ware nehmen: eine Warenkarte aus dem Markt; der Platz wird vom Stapel aufgefüllt.", en: "Take a good: one goods card from the market; the space is refilled from the deck." },
        {
          de: "Tauschen: mindestens zwei Waren aus dem Markt nehmen und gleich viele Karten zurücklegen – Waren von der Hand, Packpferde aus dem Stall oder beides. Dieselbe Ware darf nicht genommen und zurückgegeben werden, Packpferde lassen sich nicht eintauschen. Beim Tausch wird nichts nachgezogen.",
          en: "Exchange: take at least two goods from the market and put back as many cards – goods from your hand, pack horses from your stable, or both. The same good may not be both taken and given, and pack horses cannot be taken in an exchange. Nothing is drawn after an exchange.",
        },
        { de: "Alle Packpferde holen: alle Pferde des Marktes in den Stall; der Markt wird aufgefüllt.", en: "Take all pack horses: every horse in the market goes to your stable; the market is refilled." },
        {
          de: "Verkaufen: beliebig viele Karten einer Ware. Du bekommst so viele Zinnmarken dieser Ware von oben. Bei 3 Karten gibt es dazu eine Ratsmarke (1–3 Punkte), bei 4 eine größere (4–6), ab 5 die größte (8–10). Ihren Wert sieht nur der Besitzer bis zum Rundenende.",
          en: "Sell: any number of cards of one good. You receive that many tokens of the good from the top. For 3 cards you also get a council token (1–3 points), for 4 a bigger one (4–6), for 5 or more the biggest (8–10). Only the owner sees its value until the round ends.",
        },
        { de: "Am Zugende darfst du höchstens 7 Waren auf der Hand haben; Packpferde zählen nicht mit.", en: "At the end of your turn you may hold at most 7 goods; pack horses do not count." },
      ],
    },
    {
      heading: { de: "Die Marken", en: "The tokens" },
      paragraphs: [
        {
          de: "Zinnmarken, die oberste zuerst: Bernstein 7 7 5 5 5 · Gold 6 6 5 5 5 · Silber 5 5 5 5 5 · Tuch 5 3 3 2 2 1 1 · Salz 5 3 3 2 2 1 1 · Pelz 4 3 2 1 1 1 1 1 1. Ist der Stapel einer Ware leer, bringen weitere Karten dieser Ware nichts mehr – eine Ratsmarke gibt es für 3, 4 oder 5 Karten trotzdem, solange von ihr welche liegen.",
          en: "Tin tokens, top first: amber 7 7 5 5 5 · gold 6 6 5 5 5 · silver 5 5 5 5 5 · cloth 5 3 3 2 2 1 1 · salt 5 3 3 2 2 1 1 · fur 4 3 2 1 1 1 1 1 1. Once a good's pile is empty, more cards of it earn nothing – a council token for 3, 4 or 5 cards is still given while any are left.",
        },
        {
          de: "Ratsmarken, jede Runde neu verdeckt gemischt: für 3 Karten 1 1 2 2 2 3 3, für 4 Karten 4 4 5 5 6 6, für 5 und mehr 8 8 9 10 10. Die Stallmarke zählt 5. Es gibt drei Ratssiegel; wer zwei hat, gewinnt. Endet eine Runde auch nach Ratsmarken und Zinnmarken gleich, gibt es kein Siegel, und derselbe Spieler beginnt die nächste Runde.",
          en: "Council tokens, shuffled face down each round: for 3 cards 1 1 2 2 2 3 3, for 4 cards 4 4 5 5 6 6, for 5 or more 8 8 9 10 10. The stable token is worth 5. There are three council seals; whoever has two wins. If a round is still tied after council and tin tokens, no seal is given and the same player begins the next round.",
        },
      ],
    },
    {
      heading: { de: "So bedienst du den Tisch", en: "Using the table" },
      paragraphs: [{
        de: "Tippe Karten im Markt, auf deiner Hand oder deinen Stall an. Der Handelskasten unter dem Markt zeigt sofort, was daraus wird und warum etwas nicht geht. Der Knopf darin führt den Zug aus. Ein Packpferd im Markt antippen wählt alle Pferde.",
        en: "Tap cards in the market, in your hand or your stable. The trade box under the market shows at once what that would do and why something is not possible. Its button plays the move. Tapping a pack horse in the market selects all horses.",
      }],
    },
    {
      heading: { de: "Gemerkte Karten", en: "Remembered cards" },
      paragraphs: [{
        de: "Was jemand offen aus dem Markt nimmt, weiß der andere. Diese Karten liegen offen über der Gegnerhand, bis sie verkauft oder zurückgetauscht sind. Auf deiner eigenen Hand sind Karten, die dein Gegner kennt, mit einem Auge markiert. „Hilfe aus“ blendet das aus.",
        en: "What someone takes openly from the market, the other knows. These cards lie face up above the opponent's hand until they are sold or exchanged back. In your own hand, cards your opponent knows carry an eye. “Help off” hides this.",
      }],
    },
    {
      heading: { de: "Rundenende und Wertung", en: "End of a round and scoring" },
      paragraphs: [{
        de: "Die Runde endet sofort, wenn drei Zinnmarken-Stapel leer sind oder der Markt nicht mehr aufgefüllt werden kann. Dann zählt jeder seine Zinnmarken und Ratsmarken. Wer mehr Packpferde im Stall hat, bekommt die Stallmarke (5 Punkte); bei Gleichstand keiner. Mehr Punkte gewinnen das Siegel; bei Gleichstand entscheiden erst mehr Ratsmarken, dann mehr Zinnmarken. Der Verlierer der Runde beginnt die nächste.",
        en: "The round ends at once when three token piles are empty or the market cannot be refilled. Then each player counts their tin and council tokens. Whoever has more pack horses in the stable gets the stable token (5 points); on a tie, nobody. More points win the seal; on a tie, more council tokens decide, then more tin tokens. The loser of the round begins the next.",
      }],
    },
    {
      heading: { de: "Wertung im Spielcenter", en: "Scoring in the Spielcenter" },
      paragraphs: [{
        de: "Ein Sieg bringt +10 Punkte, eine Niederlage kostet 10, Remis zählt null – gewertet ab zehn Zügen oder drei Minuten. Wer eine laufende Partie verlässt, verliert sie. Zusätzlich bewegt sich deine Elo-Zahl.",
        en: "A win brings +10 points, a loss costs 10, a draw counts zero – from ten moves or three minutes. Whoever leaves a running game loses it. Your Elo moves as well.",
      }],
    },
  ],
};
