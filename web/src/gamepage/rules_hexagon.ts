// Battlehexagon's page: pitch, controls and Anleitung (seed 001, docs/rules.md).
import type { GameText } from "./game_text";
import { gameLabel } from "../profile/game_marks";

export const HEXAGON_TEXT: GameText = {
  game: "hexagon",
  title: gameLabel("hexagon"),
  pitch: {
    de: "Rubine gegen Perlen auf 61 Waben: verdoppeln, springen, umfärben – am Ende zählt, wessen Farbe mehr Waben trägt.",
    en: "Rubies against pearls on 61 hexagonal cells: double, jump, turn – in the end, whoever's colour holds more cells wins.",
  },
  controls: { de: "Maus / Touch / Tastatur", en: "Mouse / touch / keyboard" },
  phone: {
    de: "Handy & Tablet: spielbar – Stein antippen, dann die grüne oder blaue Zielwabe antippen.",
    en: "Phone & tablet: playable – tap a stone, then tap the green or blue target cell.",
  },
  summary: {
    goal: { de: "Am Ende sollen mehr Waben deine Farbe tragen als die des Gegners.", en: "At the end, more cells should carry your colour than your opponent's." },
    turn: {
      de: "Verdoppeln auf eine freie Nachbarwabe (der Stein bleibt stehen) oder zwei Waben weit springen (die alte Wabe wird frei). Danach kippen alle gegnerischen Steine rund um das Ziel auf deine Farbe.",
      en: "Double onto a free neighbouring cell (the stone stays) or jump two cells away (the old cell empties). Then every enemy stone around the target turns to your colour.",
    },
    end: {
      de: "Die Partie endet, wenn das Brett voll ist oder eine Seite keinen Stein mehr hat. Mehr Waben gewinnen.",
      en: "The game ends when the board is full or one side has no stones left. More cells win.",
    },
    tip: { de: "Verdoppeln kostet nichts – springen reißt Lücken, in die der Gegner hineinkippt.", en: "Doubling costs nothing – jumping leaves gaps your opponent can turn into." },
  },
  rules: [
    {
      heading: { de: "Spielziel", en: "Aim of the game" },
      paragraphs: [{
        de: "Am Ende sollen mehr Waben deine Farbe tragen als die des Gegners. Rubine spielen gegen Perlen; jeder beginnt mit drei Steinen in abwechselnden Ecken der Bienenwabe: Rubin auf e1, i5 und a5, Perle auf i1, e9 und a1.",
        en: "At the end, more cells should carry your colour than your opponent's. Rubies play against pearls; each side starts with three stones in alternating corners of the honeycomb: Ruby on e1, i5 and a5, Pearl on i1, e9 and a1.",
      }],
    },
    {
      heading: { de: "So wird gezogen", en: "How to move" },
      paragraphs: [
        { de: "Rubin beginnt. Es gibt zwei Arten zu ziehen:", en: "Ruby moves first. There are two kinds of move:" },
        {
          de: "Verdoppeln – klicke eine freie Wabe direkt neben einem deiner Steine an. Dort entsteht ein neuer Stein, der alte bleibt stehen.",
          en: "Doubling – click a free cell right next to one of your stones. A new stone appears there; the old one stays.",
        },
        {
          de: "Springen – klicke einen deiner Steine an: Grün leuchten die Nachbarwaben, blau die Waben zwei Schritte weit. Klickst du eine blaue an, springt der Stein dorthin und seine alte Wabe wird frei. Springen darf man über alles hinweg, auch über Löcher.",
          en: "Jumping – click one of your stones: the neighbouring cells light up green, the cells two steps away blue. Click a blue one and the stone jumps there; its old cell becomes free. A jump passes over anything, holes included.",
        },
        {
          de: "Danach wechseln alle gegnerischen Steine rund um die Zielwabe auf deine Farbe – bis zu sechs auf einmal. Fährst du mit der Maus über ein Ziel, siehst du vorher, welche Steine kippen würden.",
          en: "Then every enemy stone around the target cell changes to your colour – up to six at once. Hover over a target to see beforehand which stones would turn.",
        },
        {
          de: "Mit der Tastatur: Tab führt aufs Brett, die Pfeiltasten wandern über die Waben, Enter oder Leertaste wählt einen Stein oder setzt auf die Zielwabe.",
          en: "With the keyboard: Tab moves onto the board, the arrow keys walk across the cells, Enter or Space picks a stone or plays to the target cell.",
        },
      ],
    },
    {
      heading: { de: "Karten", en: "Maps" },
      paragraphs: [{
        de: "Klassisch mit allen 61 Waben, Dreiloch mit drei Löchern um die Mitte (e4, d5, f5), Krater, Burggraben (in die Mitte kommt man nur per Sprung), Säulen oder eine zufällige Karte, die für beide Seiten genau gleich fair ist: Sie sieht nach einer halben Drehung um e5 gleich aus, alle Waben hängen zusammen, die Ecken und ihre Nachbarn sind frei. Im Mehrspieler wird die zufällige Karte erst beim Start ausgewürfelt.",
        en: "Classic with all 61 cells, Three holes with three holes around the centre (e4, d5, f5), Crater, Moat (the centre can be reached only by a jump), Pillars, or a random map that is exactly as fair for both sides: it looks the same after a half turn about e5, all cells are connected, the corners and their neighbours are open. In multiplayer the random map is drawn only when the game starts.",
      }, {
        de: "Die Löcher im Einzelnen: Krater – e5 und sein ganzer Ring (d4, d5, e4, e6, f4, f5), 54 Waben. Burggraben – die zwölf Waben zwei Schritte um die Mitte (c3, c4, c5, d3, d6, e3, e7, f3, f6, g3, g4, g5), 49 Waben; die Burg in der Mitte erreicht man nur per Sprung. Säulen – sechs Säulen auf b4, c2, d7, f2, g6 und h3, 55 Waben. Die Vorschau vor dem Start zeigt jede Karte.",
        en: "The holes in detail: Crater – e5 and its whole ring (d4, d5, e4, e6, f4, f5), 54 cells. Moat – the twelve cells two steps around the centre (c3, c4, c5, d3, d6, e3, e7, f3, f6, g3, g4, g5), 49 cells; the castle in the middle can be reached only by a jump. Pillars – six pillars on b4, c2, d7, f2, g6 and h3, 55 cells. The preview before the start shows every map.",
      }],
    },
    {
      heading: { de: "Ende", en: "End" },
      paragraphs: [
        {
          de: "Die Partie endet, wenn das Brett voll ist oder eine Seite keinen Stein mehr hat. Kann einer nicht mehr ziehen, gilt die gewählte Endregel: Bei Auffüllen ist sofort Schluss, und alle freien Waben gehen an den Gegner. Bei Aussetzen setzt er aus, und der andere zieht weiter.",
          en: "The game ends when the board is full or one side has no stones left. If a player cannot move, the chosen end rule applies: with Fill up the game ends at once and every free cell goes to the opponent; with Pass that player passes and the other moves on.",
        },
        {
          de: "Unentschieden ist es bei gleichem Stand, nach 50 Zügen je Seite ohne ein Verdoppeln (ein Aussetzen zählt dabei mit), wenn dieselbe Stellung zum dritten Mal entsteht, oder wenn ihr euch über ½ Remis einigt. Die 50-Züge-Regel und die Wiederholung sind Hausregeln dieses Spiels, damit keine Partie endlos läuft.",
          en: "It is a draw with an equal count, after 50 moves per side without a doubling (a pass counts), when the same position arises for the third time, or when you agree on ½ Draw. The 50-move rule and the repetition rule are house rules of this game, so that no game runs forever.",
        },
      ],
    },
    {
      heading: { de: "Aufgeben, Zeit und Remis", en: "Resigning, time and draws" },
      paragraphs: [{
        de: "Mit Aufgeben beendest du die Partie sofort, dein Gegner gewinnt. Die Bedenkzeit wählt ihr wie beim Schach: 3+2, 5+3, 10+5 oder 15+10 Minuten – die erste Zahl ist die Startzeit, die zweite der Zuschlag nach jedem eigenen Zug. Ohne Uhr hat jeder für einen Zug höchstens zehn Minuten. Läuft deine Uhr ab, hast du verloren. Ein ½ Remis-Angebot gilt, bis der Gegner es ablehnt oder einer von euch zieht.",
        en: "Resign ends the game at once; your opponent wins. You choose the time as in chess: 3+2, 5+3, 10+5 or 15+10 minutes – the first number is the starting time, the second the bonus after each of your moves. Without a clock each move may take at most ten minutes. If your clock runs out, you lose. A ½ Draw offer stands until the opponent declines it or either of you moves.",
      }],
    },
    {
      heading: { de: "Hilfen und Wabennamen", en: "Help and cell names" },
      paragraphs: [
        {
          de: "Mit Hilfe an zeigen hellgrüne Waben, wo du verdoppeln kannst, und ein roter Ring, welche deiner Steine der Gegner im nächsten Zug holen könnte. Am selben Rechner nimmt Zug zurück den letzten Zug zurück. Mit der Taste F drehst du das Brett.",
          en: "With Help on, light green cells show where you can double, and a red ring shows which of your stones the opponent could take next move. On the same device, Undo move takes back the last move. The F key turns the board.",
        },
        {
          de: "Die Spalten heißen a bis i, in jeder Spalte wird von oben gezählt (a1 … a5, e1 … e9). In der Zugliste steht ein Verdoppeln als Ziel (e2), ein Sprung als von-nach (e1-e3) und ein Aussetzen als „— setzt aus“.",
          en: "The columns are a to i, counted from the top within each column (a1 … a5, e1 … e9). In the move list a doubling is written as its target (e2), a jump as from-to (e1-e3) and a pass as “— setzt aus”.",
        },
      ],
    },
    {
      heading: { de: "Gegen den Computer", en: "Against the computer" },
      paragraphs: [{
        de: "Drei Stärken: Leicht zieht oft daneben, Mittel sieht seinen und deinen nächsten Zug, Stark rechnet so weit voraus, wie es in gut einer Sekunde schafft. Mit ⇄ Farben tauschen wählst du Rubin oder Perle; spielt der Computer Rubin, beginnt er. Zug zurück nimmt deinen Zug und seine Antwort zurück. Ohne Uhr, ohne Elo und Taler.",
        en: "Three strengths: Easy often misses, Medium sees its own and your next move, Strong looks ahead as far as it can in a little over a second. ⇄ Swap colours picks Ruby or Pearl; if the computer plays Ruby, it begins. Undo takes back your move and its answer. No clock, no Elo, no Taler.",
      }],
    },
    {
      heading: { de: "Wertung", en: "Scoring" },
      paragraphs: [{
        de: "Ein Sieg bringt 10 Punkte, eine Niederlage kostet 10, ein Unentschieden zählt null. Gewertet wird ab zehn Halbzügen oder drei Minuten Spieldauer. Wer eine laufende Partie verlässt, verliert sie. Zusätzlich bewegt sich deine Elo-Zahl. Freundschaftspartien zählen nicht; dort darf man mit Zustimmung des Gegners mit ↶ Zurück den letzten eigenen Zug zurücknehmen.",
        en: "A win brings 10 points, a loss costs 10, a draw counts zero. A game counts from ten half-moves or three minutes of play. Whoever leaves a running game loses it. Your Elo moves as well. Friendly games do not count; there you may take back your last move with ↶ Take back if the opponent agrees.",
      }],
    },
  ],
};
