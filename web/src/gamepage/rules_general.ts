// Battlegeneral's page: pitch, controls and Anleitung (seed 002, whose game page this is modelled on).
import type { GameText } from "./game_text";
import { gameLabel } from "../profile/game_marks";

export const GENERAL_TEXT: GameText = {
  game: "general",
  title: gameLabel("general"),
  pitch: {
    de: "Strategie-Duell für zwei Spieler mit verdeckten Figuren: Stelle deine 40 Figuren verdeckt auf und erobere die gegnerische Fahne.",
    en: "A strategy duel for two with hidden pieces: set up your 40 pieces face down and capture the enemy flag.",
  },
  controls: { de: "Maus / Touch", en: "Mouse / touch" },
  phone: {
    de: "Handy & Tablet: spielbar – Figur antippen, dann das Zielfeld antippen; am besten quer halten.",
    en: "Phone & tablet: playable – tap a piece, then tap the target square; best held sideways.",
  },
  summary: {
    goal: { de: "Erobere die gegnerische Fahne oder setz den Gegner so fest, dass er nicht mehr ziehen kann.", en: "Capture the enemy flag or pin your opponent down so that they cannot move." },
    turn: {
      de: "Stell zuerst deine 40 Figuren verdeckt auf. Dann ziehst du abwechselnd eine Figur ein Feld waagerecht oder senkrecht. Stehen zwei gegnerische Figuren nebeneinander, greifst du an: Die höhere Figur gewinnt.",
      en: "First set up your 40 pieces face down. Then you take turns moving one piece one square horizontally or vertically. When two enemy pieces stand side by side you may attack: the higher piece wins.",
    },
    end: { de: "Wer die Fahne erobert, gewinnt. Wer keinen Zug mehr machen kann, verliert.", en: "Whoever captures the flag wins. Whoever cannot move any more loses." },
    tip: { de: "Minen und Fahne bewegen sich nie. Der Spion schlägt den Feldmarschall nur, wenn er selbst angreift.", en: "Mines and the flag never move. The spy beats the field marshal only when the spy attacks." },
  },
  rules: [
    {
      heading: { de: "Ziel des Spiels", en: "Aim of the game" },
      paragraphs: [{
        de: "Battlegeneral ist ein Strategie-Duell für zwei Spieler mit verdeckten Figuren. Ziel ist es, die gegnerische Fahne zu erobern – oder den Gegner so festzusetzen, dass er keinen Zug mehr machen kann.",
        en: "Battlegeneral is a strategy duel for two players with hidden pieces. The aim is to capture the enemy flag – or to pin your opponent down so that they cannot move any more.",
      }],
    },
    {
      heading: { de: "Vor Spielbeginn", en: "Before the game" },
      paragraphs: [{
        de: "Wähle im Wartesaal einen Gegner aus der Spielerliste und fordere ihn heraus. Nimmt er an, beginnt die Partie. Der Herausforderer spielt Blau, der Angenommene spielt Rot – und Rot beginnt.",
        en: "Pick an opponent from the player list in the Wartesaal and challenge them. If they accept, the game begins. The challenger plays Blue, the one who accepted plays Red – and Red begins.",
      }],
    },
    {
      heading: { de: "Aufstellung", en: "Setup" },
      paragraphs: [{
        de: "Zu Beginn stellst du deine 40 Figuren verdeckt auf deiner Bretthälfte auf (Rot auf den Reihen 1–4, Blau auf 7–10). Klicke ein leeres Feld an, um die nächste verfügbare Figur zu setzen; ein Klick auf eine gesetzte Figur nimmt sie wieder weg. Nach kurzer Zeit erscheinen acht vordefinierte Standard-Aufstellungen, die du übernehmen und einzeln anpassen kannst. Stehen alle 40 Figuren, erscheint der Fertig-Knopf.",
        en: "At the start you place your 40 pieces face down on your half of the board (Red on ranks 1–4, Blue on 7–10). Click an empty square to place the next available piece; clicking a placed piece takes it back. After a short while eight predefined standard setups appear, which you can take and adjust piece by piece. Once all 40 pieces stand, the Done button appears.",
      }],
    },
    {
      heading: { de: "Die Figuren", en: "The pieces" },
      paragraphs: [{
        de: "Beweglich sind (von hoch nach niedrig): 1 Feldmarschall (10), 1 General (9), 2 Oberste (8), 3 Majore (7), 4 Hauptmänner (6), 4 Leutnants (5), 4 Unteroffiziere (4), 5 Mineure (3), 8 Aufklärer (2) und 1 Spion. Unbeweglich sind 6 Minen und 1 Fahne – sie verlassen ihre Position nie. Jede Figur kennt nur ihren eigenen Rang; der gegnerische Rang wird erst im Kampf aufgedeckt.",
        en: "Movable (from high to low): 1 field marshal (10), 1 general (9), 2 colonels (8), 3 majors (7), 4 captains (6), 4 lieutenants (5), 4 sergeants (4), 5 miners (3), 8 scouts (2) and 1 spy. Immovable: 6 mines and 1 flag – they never leave their square. Each piece shows only its own rank; an enemy rank is revealed only in a fight.",
      }],
    },
    {
      heading: { de: "Ziehen", en: "Moving" },
      paragraphs: [{
        de: "Die Spieler ziehen abwechselnd, zuerst Rot. Eine Figur zieht ein Feld waagerecht oder senkrecht, niemals diagonal. Die beiden Seen in der Brettmitte dürfen nicht betreten werden. Der Aufklärer darf beliebig weit in gerader Linie ziehen, bis zur ersten Figur, darf aber keine Figur und keinen See überspringen. Zieht man ihn mehr als ein Feld, verrät man dem Gegner seine Identität.",
        en: "The players move in turn, Red first. A piece moves one square horizontally or vertically, never diagonally. The two lakes in the middle of the board may not be entered. The scout may move any distance in a straight line up to the first piece, but may not jump over a piece or a lake. Moving it more than one square tells your opponent what it is.",
      }],
    },
    {
      heading: { de: "Kampf", en: "Fights" },
      paragraphs: [{
        de: "Stehen zwei gegnerische Figuren nebeneinander, kann angegriffen werden. Die höhere Figur gewinnt, bei gleichem Rang fallen beide. Der Spion schlägt den Feldmarschall – aber nur, wenn der Spion angreift. Eine Mine schlägt jeden Angreifer, außer dem Mineur, der sie entschärft. Fahne und Minen greifen nie selbst an. Beide Figuren eines Kampfes werden beiden Spielern gezeigt.",
        en: "When two enemy pieces stand side by side, one may attack. The higher piece wins; equal ranks both fall. The spy beats the field marshal – but only when the spy attacks. A mine beats every attacker except the miner, who defuses it. The flag and mines never attack. Both pieces of a fight are shown to both players.",
      }],
    },
    {
      heading: { de: "Wiederholung", en: "Repetition" },
      paragraphs: [{
        de: "Eine Figur darf nicht öfter als dreimal hintereinander zwischen denselben zwei Feldern hin- und herziehen. Wer eine oder mehrere gegnerische Figuren ununterbrochen jagt, darf keine Stellung wiederholen, die während dieser Jagd schon einmal entstanden ist. Beides prüft der Server.",
        en: "A piece may not move back and forth between the same two squares more than three times in a row. A player continuously chasing one or more enemy pieces may not recreate a position that already occurred during that chase. The server enforces both.",
      }],
    },
    {
      heading: { de: "Spielende und Punkte", en: "End of the game and points" },
      paragraphs: [
        {
          de: "Wer die gegnerische Fahne erobert, gewinnt. Ebenso verliert, wer keinen legalen Zug mehr machen kann. Können beide nicht mehr ziehen, endet die Partie unentschieden. Hausregel, damit jede Partie endet: 200 Züge in Folge (100 je Seite) ohne Kampf sind ein Remis.",
          en: "Whoever captures the enemy flag wins. A player who has no legal move left loses. If neither can move, the game is a draw. House rule, so that every game ends: 200 moves in a row (100 per side) without a fight are a draw.",
        },
        {
          de: "Für einen Sieg gibt es 10 Punkte für die Bestenliste, für eine Niederlage werden 10 Punkte abgezogen (nicht unter 0). Gewertet wird erst ab 4 Minuten Spieldauer; verlässt der Gegner die laufende Partie nach der Aufstellung, zählt der Sieg schon ab 2 Minuten. Die Zugzeit beträgt 5 Minuten.",
          en: "A win gives 10 points for the leaderboard, a loss takes 10 away (never below 0). A game counts from 4 minutes of play; if the opponent leaves the running game after the setup, the win counts from 2 minutes. Each move may take 5 minutes.",
        },
      ],
    },
    {
      heading: { de: "Gegen den Computer", en: "Against the computer" },
      paragraphs: [{
        de: "Der Computer stellt sich mit einer von 20 Aufstellungen auf, oft auch seitenverkehrt. Er kennt deine Figuren nicht: Er merkt sich, welche schon gezogen haben und was im Kampf aufgedeckt wurde. Leicht zieht oft aufs Geratewohl, Mittel greift gezielt an und meidet stärkere Figuren, Stark achtet zusätzlich auf das ganze Brett. Im ersten Spiel spielst du Rot und beginnst.",
        en: "The computer sets up with one of 20 setups, often mirrored. It does not know your pieces: it remembers which have moved and what fights revealed. Easy often moves at random, Medium attacks with purpose and avoids stronger pieces, Strong also watches the whole board. In the first game you play Red and begin.",
      }],
    },
  ],
};
