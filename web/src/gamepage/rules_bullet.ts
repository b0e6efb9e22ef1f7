// Battlebullet's page: pitch, controls and Anleitung (seed 004, docs/rules.md).
import type { GameText } from "./game_text";
import { gameLabel } from "../profile/game_marks";

export const BULLET_TEXT: GameText = {
  game: "bullet",
  title: gameLabel("bullet"),
  pitch: {
    de: "Vierzehn Kugeln gegen vierzehn auf dem Sechseckbrett: Schiebe sechs gegnerische Kugeln über den Rand.",
    en: "Fourteen marbles against fourteen on a hexagonal board: push six of your opponent's marbles over the edge.",
  },
  controls: { de: "Maus / Touch / Tastatur", en: "Mouse / touch / keyboard" },
  phone: {
    de: "Handy & Tablet: spielbar – Kugeln antippen, dann den Pfeil antippen oder die Kugeln in die Richtung ziehen.",
    en: "Phone & tablet: playable – tap the marbles, then tap an arrow or drag the marbles in that direction.",
  },
  summary: {
    goal: { de: "Schiebe sechs gegnerische Kugeln über den Rand (oder vier im kurzen Spiel).", en: "Push six enemy marbles over the edge (or four in a short game)." },
    turn: {
      de: "Eine, zwei oder drei eigene Kugeln in einer Reihe rücken ein Feld – in Linie oder seitwärts. In Linie schiebst du, wenn du in der Überzahl bist: 2 gegen 1, 3 gegen 1, 3 gegen 2.",
      en: "One, two or three of your marbles in a line move one cell – in line or sideways. In line you push when you outnumber: 2 against 1, 3 against 1, 3 against 2.",
    },
    end: { de: "Wer das Siegziel zuerst erreicht, gewinnt. Wer keinen Zug mehr hat, verliert.", en: "Whoever reaches the target first wins. A player without a move loses." },
    tip: { de: "Bleib in der Mitte und halte deine Kugeln zusammen – am Rand wird geschoben.", en: "Stay in the centre and keep your marbles together – the edge is where pushing happens." },
  },
  rules: [
    {
      heading: { de: "Spielziel", en: "Aim of the game" },
      paragraphs: [{
        de: "Schiebe sechs gegnerische Kugeln über den Rand des Sechseckbretts. Wer das zuerst schafft, gewinnt die Partie. Für eine kurze Partie könnt ihr das Ziel auf vier Kugeln setzen.",
        en: "Push six of your opponent's marbles over the edge of the hexagonal board. Whoever manages it first wins. For a short game you can set the target to four marbles.",
      }],
    },
    {
      heading: { de: "Vor der Partie", en: "Before the game" },
      paragraphs: [{
        de: "Ihr stellt gemeinsam ein: die Bedenkzeit wie im Schach (3+2, 5+3, 10+5 oder 15+10 Minuten), die Aufstellung (Standard, Belgisches oder Deutsches Gänseblümchen), das Siegziel, ein Zuglimit (aus oder 100 Züge je Spieler) und ob die Partie gewertet wird oder eine Freundschaftspartie ist. Weiß beginnt immer; nach jeder Partie wechseln die Farben.",
        en: "You agree on the time as in chess (3+2, 5+3, 10+5 or 15+10 minutes), the layout (Standard, Belgian or German Daisy), the win target, a move limit (off or 100 moves per player) and whether the game is rated or friendly. White always begins; the colours swap after every game.",
      }],
    },
    {
      heading: { de: "Brett, Aufstellungen und Zugschrift", en: "Board, layouts and notation" },
      paragraphs: [
        {
          de: "Die Reihen heißen A bis I, von der Seite von Weiß aus gezählt, die Schrägen 1 bis 9 (A1–A5, B1–B6, …, E1–E9, …, I5–I9). Standard: Weiß auf A1–A5, B1–B6 und C3–C5, Schwarz gegenüber auf I5–I9, H4–H9 und G5–G7. Bei den beiden Gänseblümchen stehen je zwei Blumen aus sieben Kugeln einander schräg gegenüber.",
          en: "The rows are A to I, counted from White's side, the diagonals 1 to 9 (A1–A5, B1–B6, …, E1–E9, …, I5–I9). Standard: White on A1–A5, B1–B6 and C3–C5, Black opposite on I5–I9, H4–H9 and G5–G7. In the two Daisy layouts, two flowers of seven marbles per side face each other diagonally.",
        },
        {
          de: "In der Zugliste steht ein Zug als „Kugeln-Ziel“, eine Reihe jeweils durch ihre beiden Enden: A1-B2 (eine Kugel), A1A3-A2A4 (drei Kugeln in Linie), C3C4-D3D4 (zwei Kugeln seitwärts). Geschobene gegnerische Kugeln werden nicht eigens genannt.",
          en: "The move list writes a move as “marbles-target”, each line by its two ends: A1-B2 (one marble), A1A3-A2A4 (three marbles in line), C3C4-D3D4 (two marbles sideways). Pushed enemy marbles are not named separately.",
        },
      ],
    },
    {
      heading: { de: "So ziehst du", en: "How to move" },
      paragraphs: [
        {
          de: "Klicke eine, zwei oder drei eigene Kugeln an, die in einer Reihe liegen. Um die Auswahl erscheinen Pfeile für alle erlaubten Richtungen – ein Klick darauf, und die Kugeln rücken ein Feld weiter. Fährst du über einen Pfeil, siehst du vorher, wo alles landet. Du kannst die Kugeln auch einfach in die gewünschte Richtung ziehen.",
          en: "Click one, two or three of your marbles lying in a row. Arrows appear around the selection for every allowed direction – click one and the marbles move one cell. Hover over an arrow to see where everything lands. You can also simply drag the marbles in the direction you want.",
        },
        {
          de: "In Linie – die Reihe rückt in ihrer eigenen Richtung vor. Seitwärts – die ganze Reihe rückt quer dazu; dafür müssen alle Zielfelder frei sein.",
          en: "In line – the row moves along its own direction. Sideways – the whole row moves across it; every target cell must be free.",
        },
        {
          de: "Mit der Tastatur: Die Pfeiltasten wandern über die Felder, Enter oder Leertaste wählt eine Kugel; mit Tab erreichst du die Richtungspfeile und spielst sie mit Enter.",
          en: "With the keyboard: the arrow keys walk across the cells, Enter or Space picks a marble; Tab reaches the direction arrows, and Enter plays one.",
        },
      ],
    },
    {
      heading: { de: "Schieben", en: "Pushing" },
      paragraphs: [{
        de: "In Linie darfst du gegnerische Kugeln schieben, wenn du in der Überzahl bist: zwei gegen eine, drei gegen eine oder drei gegen zwei. Bei Gleichstand geht es nicht weiter, und steht hinter den gegnerischen Kugeln eine eigene, sind sie festgeklemmt. Ein oranger Pfeil schiebt, ein roter Pfeil schiebt eine Kugel hinaus – sie rollt in die Auffangrinne am Brettrand.",
        en: "In line you may push enemy marbles when you outnumber them: two against one, three against one or three against two. With equal numbers nothing moves, and if one of your own marbles stands behind the enemy ones, they are stuck. An orange arrow pushes, a red arrow pushes a marble out – it rolls into the gutter at the edge of the board.",
      }],
    },
    {
      heading: { de: "Ende und Wertung", en: "End and scoring" },
      paragraphs: [
        {
          de: "Gewonnen hat, wer das Siegziel erreicht – oder bei Zuglimit nach dessen Ablauf mehr Kugeln hinausgeschoben hat. Remis steht es bei dreifacher Stellungswiederholung, bei Gleichstand am Ende des Zuglimits oder durch Einigung. Wer keinen Zug mehr hat, verliert. Läuft deine Zeit ab, ist die Partie ebenfalls verloren.",
          en: "The winner is whoever reaches the target – or, with a move limit, has pushed out more marbles when it runs out. It is a draw after threefold repetition, on equal counts at the end of the move limit, or by agreement. A player with no move loses. If your time runs out, you lose too.",
        },
        {
          de: "Das offizielle Regelwerk kennt weder Zuglimit noch Wiederholung noch den Fall „kein Zug mehr“. Diese drei Regeln sind Hausregeln dieses Spiels, damit jede Partie ein Ende findet.",
          en: "The official rules know neither a move limit nor repetition nor the case “no move left”. These three are house rules of this game, so that every game ends.",
        },
        {
          de: "Ein Sieg bringt +10 Punkte, eine Niederlage kostet 10; dazu bewegt sich die Elo-Zahl. Gewertet wird ab zehn Halbzügen oder drei Minuten Spieldauer, und wer eine laufende Partie verlässt, verliert sie. Freundschaftspartien zählen nicht, dafür darf man dort mit Zustimmung des Gegners einen Zug zurücknehmen.",
          en: "A win brings +10 points, a loss costs 10; your Elo moves as well. A game counts from ten half-moves or three minutes of play, and whoever leaves a running game loses it. Friendly games do not count; there you may take back a move if the opponent agrees.",
        },
      ],
    },
    {
      heading: { de: "Hilfen", en: "Help" },
      paragraphs: [{
        de: "Mit Gefahr an bekommen eigene Kugeln einen roten Saum, die der Gegner im nächsten Zug hinausschieben könnte. Mit der rechten Maustaste zeichnest du Pfeile und Markierungen (Umschalt = rot, Alt = blau, Strg = gelb). Mit der Taste F drehst du das Brett.",
        en: "With Danger on, your marbles that the opponent could push out next move get a red rim. With the right mouse button you draw arrows and marks (Shift = red, Alt = blue, Ctrl = yellow). The F key turns the board.",
      }],
    },
    {
      heading: { de: "Gegen den Computer", en: "Against the computer" },
      paragraphs: [{
        de: "Drei Stärken: Leicht zieht oft daneben, Mittel rechnet drei Halbzüge voraus, Stark so weit, wie es in knapp zwei Sekunden schafft. Mit ⇄ Farben tauschen wählst du Weiß oder Schwarz; spielt der Computer Weiß, beginnt er. Zug zurück nimmt deinen Zug und seine Antwort zurück. Ohne Uhr, ohne Elo und Taler.",
        en: "Three strengths: Easy often misses, Medium looks three half-moves ahead, Strong as far as it can in just under two seconds. ⇄ Swap colours picks White or Black; if the computer plays White, it begins. Undo takes back your move and its answer. No clock, no Elo, no Taler.",
      }],
    },
  ],
};
