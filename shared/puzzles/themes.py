"""Themes and the one-line task of a puzzle, derived from its solution line.

Pure: the engine replays the line from the start state.  Theme keys and their labels
are in :data:`shared.puzzles.catalog.theme_names`.

Battlehexagon
    ``grosser_sprung``: a solver's jump (Springen) that turns at least
    :data:`BIG_TURN` stones.  ``doppelwabe``: a solver's clone (Verdoppeln) that turns
    at least :data:`BIG_TURN`.  ``falle``: the first solution move turns fewer stones
    than the greediest move (the obvious grab is the wrong one).  ``abwehr``: the
    opponent, were it to move, could grab at least :data:`THREAT` stones, and after the
    first solution move its greediest grab is at least :data:`BIG_TURN` smaller.
    ``zugzwang``: the line ends with the opponent unable to move.
Battlebullet
    ``hinausschieben``: a solver's move pushes a marble off; ``doppelschlag``: two or
    more in the line.  ``sumito_3_2``: three marbles push two; ``sumito``: another
    push (2:1, 3:1).  ``randverteidigung``: at the start the opponent could push one
    of the solver's marbles off, the first solution move pushes none off itself, and
    after it the opponent can push none off (the threat is gone, as the task says).
Battlegeneral
    ``fahnenjagd``: the line captures the Fahne.  ``spion_gegen_feldmarschall``: the
    Spion strikes the Feldmarschall.  ``minenraeumer``: a Mineur clears a Mine.
    ``aufklaerer_lauf``: an Aufklärer strikes from more than one square away.
    ``hoher_fang``: a solver's strike takes an Oberst, General or Feldmarschall.
    ``spionjagd``: a solver's strike takes the Spion.  ``flucht``: the first solution
    move is quiet and takes a piece away from a known enemy piece that would beat it.
    Only strikes on a piece whose rank the solver knows count (revealed, or deduced:
    the task says "aufgedeckt" only for a revealed one, "erkannt" for a deduced one).
    The task names the struck piece only when more than one legal move strikes it, so
    that it never names the answer; otherwise it says what is won.
Every game
    ``partie_gewinnen``: the line wins the game; ``einzuegig`` / ``mehrzuegig``: one
    solver move or several.

The task names the goal, never the move: Battlehexagon the stones won, Battlebullet the
marbles pushed off, Battlegeneral the Fahne or the piece struck (see above).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.games.hexagon.ending import HexagonReason

BIG_TURN = 3
THREAT = 4  # stones the opponent's grab must reach for ``abwehr``

_NUMBERS_DE = {1: "eine", 2: "zwei", 3: "drei", 4: "vier", 5: "fünf", 6: "sechs"}
_NUMBERS_EN = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class Derived:
    themes: list[str]
    task: dict[str, str]


def _replay(engine: Any, state: Any, moves: list[str]) -> tuple[list[tuple[Any, dict[str, Any]]], Any]:
    """(state before, effect) of every move of the line."""
    out = []
    for text in moves:
        effects = {m.text: m.effect for m in engine.legal_moves(state)}
        move = engine.parse_move(state, text)
        canonical = engine.move_text(state, move)
        out.append((state, effects.get(canonical, effects.get(text, {}))))
        state = engine.apply(state, text)
    return out, state


def _in_moves(solver_moves: int) -> tuple[str, str]:
    if solver_moves <= 1:
        return "", ""
    return f" in {solver_moves} Zügen", f" in {solver_moves} moves"


def derive(game: str, engine: Any, state: Any, moves: list[str], seat: int) -> Derived:
    """Themes and task of the line ``moves`` from ``state`` (``seat`` solves)."""
    steps, final = _replay(engine, state, moves)
    outcome = engine.outcome(final)
    won = outcome is not None and outcome.winner == seat
    solver_steps = steps[0::2]
    count = len(solver_steps)
    name_de, name_en = engine.seat_names[seat]
    themes: list[str] = []
    if game == "hexagon":
        themes, task = _hexagon(engine, state, steps, final, seat, name_de, name_en)
    elif game == "bullet":
        themes, task = _bullet(state, steps, final, seat, name_de, name_en)
    elif game == "general":
        themes, task = _general(engine, steps, seat, name_de, name_en)
    else:
        raise ValueError(f"no puzzle themes for {game!r}")
    if won:
        themes.append("partie_gewinnen")
    themes.append("mehrzuegig" if count > 1 else "einzuegig")
    if won and game != "general":
        de, en = _in_moves(count)
        task = {"de": f"{name_de} zieht und gewinnt die Partie{de}", "en": f"{name_en} to move wins the game{en}"}
    return Derived(themes, task)


# ---- Battlehexagon -----------------------------------------------------------------------------
def _hexagon_stones(state: Any, seat: int) -> int:
    """The solver's stones on the board."""
    return (state.me if state.side == seat else state.opp).bit_count()


def _hexagon(engine: Any, state: Any, steps: list, final: Any, seat: int, name_de: str,
             name_en: str) -> tuple[list[str], dict[str, str]]:
    themes = []
    solver = [effect for _s, effect in steps[0::2]]
    if any(e.get("kind") == "jump" and len(e.get("turns", [])) >= BIG_TURN for e in solver):
        themes.append("grosser_sprung")
    if any(e.get("kind") == "clone" and len(e.get("turns", [])) >= BIG_TURN for e in solver):
        themes.append("doppelwabe")
    greediest = max(_hexagon_grab(m.effect) for m in engine.legal_moves(state))
    if _hexagon_grab(solver[0]) < greediest:
        themes.append("falle")
    threat_before = _hexagon_threat(engine, state)
    if threat_before >= THREAT and _hexagon_greediest(engine, steps[1][0] if len(steps) > 1 else final) \
            <= threat_before - BIG_TURN:
        themes.append("abwehr")
    outcome = engine.outcome(final)
    if outcome is not None and outcome.reason == HexagonReason.NO_MOVE:
        themes.append("zugzwang")
    gain = _hexagon_stones(final, seat) - _hexagon_stones(state, seat)
    if gain > 0:
        stones_de = "einen Stein" if gain == 1 else f"{gain} Steine"
        stones_en = "one stone" if gain == 1 else f"{gain} stones"
        de, en = _in_moves(len(solver))
        task = {"de": f"{name_de} zieht und gewinnt {stones_de}{de}", "en": f"{name_en} to move wins {stones_en}{en}"}
    else:
        task = {"de": f"{name_de} zieht: finde den besten Zug", "en": f"{name_en} to move: find the best move"}
    return themes, task


def _hexagon_greediest(engine: Any, state: Any) -> int:
    """The most stones the side to move grabs with one move (0 when the game is over)."""
    if engine.outcome(state) is not None:
        return 0
    return max((_hexagon_grab(m.effect) for m in engine.legal_moves(state)), default=0)


def _hexagon_threat(engine: Any, state: Any) -> int:
    """The opponent's greediest grab were it to move in ``state``."""
    from shared.games.hexagon.notation import position_text

    flipped = engine.from_position(position_text(state.red, state.white, state.setup.holes, 1 - state.side,
                                                 state.clock), state.setup.options)
    return _hexagon_greediest(engine, flipped)


def _hexagon_grab(effect: dict[str, Any]) -> int:
    """Stones a move adds to the mover's count at once (a clone adds its new stone)."""
    return len(effect.get("turns", [])) + (1 if effect.get("kind") == "clone" else 0)


# ---- Battlebullet ------------------------------------------------------------------------------
def _bullet_marbles(state: Any, seat: int) -> tuple[int, int]:
    """(solver's marbles, opponent's marbles) as bitboards."""
    return (state.white, state.black) if seat == 0 else (state.black, state.white)


def _bullet(state: Any, steps: list, final: Any, seat: int, name_de: str,
            name_en: str) -> tuple[list[str], dict[str, str]]:
    from shared.games.bullet.movegen import pushable_out

    themes = []
    solver = [effect for _s, effect in steps[0::2]]
    outs = sum(1 for e in solver if e.get("out"))
    if outs:
        themes.append("hinausschieben")
    if outs >= 2:
        themes.append("doppelschlag")
    if any(len(e.get("marbles", [])) == 3 and e.get("push") == 2 for e in solver):
        themes.append("sumito_3_2")
    elif any(e.get("push", 0) >= 1 for e in solver):
        themes.append("sumito")
    own, enemy = _bullet_marbles(state, seat)
    after_own, after_enemy = _bullet_marbles(steps[1][0] if len(steps) > 1 else final, seat)
    if pushable_out(enemy, own) and not solver[0].get("out") and not pushable_out(after_enemy, after_own):
        themes.append("randverteidigung")
    de, en = _in_moves(len(solver))
    if outs:
        task = {"de": f"{name_de} schiebt {_NUMBERS_DE.get(outs, outs)} Kugel{'n' if outs > 1 else ''} hinaus{de}",
                "en": f"{name_en} pushes {_NUMBERS_EN.get(outs, outs)} marble{'s' if outs > 1 else ''} off{en}"}
    elif "randverteidigung" in themes:
        task = {"de": f"{name_de} verteidigt den Rand{de}", "en": f"{name_en} defends the edge{en}"}
    else:
        task = {"de": f"{name_de} zieht: finde den besten Zug", "en": f"{name_en} to move: find the best move"}
    return themes, task


# ---- Battlegeneral -----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Strike:
    attacker: int  # the solver's rank
    target: int  # the struck rank, as the solver knows it
    move: str
    revealed: bool  # the target was revealed (else its rank was deduced)
    strikers: int  # legal moves of the solver that strike the target's square


def _general_strikes(engine: Any, steps: list, seat: int) -> list[_Strike]:
    """The solver's strikes on pieces whose rank the solver knows, along the line."""
    from shared.games.general.board import parse_square
    from shared.puzzles import general_sure

    strikes = []
    for before, effect in steps[0::2]:
        if not effect.get("attack"):
            continue
        view = engine.view(before, seat)
        know = general_sure.knowledge(view)
        move = f"{effect['from']}-{effect['to']}"
        target = general_sure.has_strike_target(know, move)
        if target is None:
            continue
        revealed = any(p["square"] == effect["to"] and p["revealed"] for p in view["pieces"])
        strikers = sum(1 for m in view["legal_moves"] if m["effect"].get("attack") and m["effect"]["to"] == effect["to"])
        strikes.append(_Strike(know.own[parse_square(effect["from"])], target, move, revealed, strikers))
    return strikes


def _general_escape(engine: Any, steps: list, seat: int) -> bool:
    """The first solution move is quiet and takes a piece away from a known enemy piece that
    would beat it (and it stands next to none after the move)."""
    from shared.games.general.board import NEIGHBOURS, parse_square
    from shared.games.general.pieces import ATTACKER_WINS, fight
    from shared.puzzles import general_sure

    before, effect = steps[0]
    if effect.get("attack"):
        return False
    know = general_sure.knowledge(engine.view(before, seat))
    frm, to = parse_square(effect["from"]), parse_square(effect["to"])
    rank = know.own[frm]

    def hunted(square: int) -> bool:
        return any(len(know.enemy.get(n, ())) == 1 and fight(next(iter(know.enemy[n])), rank) == ATTACKER_WINS
                   for n in NEIGHBOURS[square] if n in know.enemy)

    return hunted(frm) and not hunted(to)


def _general(engine: Any, steps: list, seat: int, name_de: str,
             name_en: str) -> tuple[list[str], dict[str, str]]:
    from shared.games.general.pieces import FLAG, MARSHAL, MINE, MINER, NAMES, SPY
    from shared.puzzles import general_sure

    themes: list[str] = []
    strikes = _general_strikes(engine, steps, seat)
    for strike in strikes:
        if strike.target == FLAG:
            themes.append("fahnenjagd")
        if strike.attacker == SPY and strike.target == MARSHAL:
            themes.append("spion_gegen_feldmarschall")
        if strike.attacker == MINER and strike.target == MINE:
            themes.append("minenraeumer")
        if general_sure.scout_run(strike.move):
            themes.append("aufklaerer_lauf")
        if 8 <= strike.target <= MARSHAL:
            themes.append("hoher_fang")
        if strike.target == SPY:
            themes.append("spionjagd")
    if _general_escape(engine, steps, seat):
        themes.append("flucht")
    themes = list(dict.fromkeys(themes))
    count = len(steps[0::2])
    de_in, en_in = _in_moves(count)
    if any(s.target == FLAG for s in strikes):
        return themes, {"de": f"{name_de} erobert die Fahne{de_in}", "en": f"{name_en} captures the Flag{en_in}"}
    named = next((s for s in strikes if s.strikers >= 2), None)
    if named is not None:
        target_de, target_en = NAMES[named.target]
        known_de, known_en = ("aufgedeckte", "revealed") if named.revealed else ("erkannte", "identified")
        if named.target == MINE:
            return themes, {"de": f"{name_de} räumt die {known_de} Mine{de_in}",
                            "en": f"{name_en} clears the {known_en} Mine{en_in}"}
        return themes, {"de": f"{name_de} schlägt den {known_de}n {target_de}{de_in}",
                        "en": f"{name_en} takes the {known_en} {target_en}{en_in}"}
    if strikes:
        return themes, {"de": f"{name_de} zieht und gewinnt Material{de_in}",
                        "en": f"{name_en} to move wins material{en_in}"}
    if "flucht" in themes:
        return themes, {"de": f"{name_de} zieht und rettet eine Figur{de_in}",
                        "en": f"{name_en} to move saves a piece{en_in}"}
    return themes, {"de": f"{name_de} zieht: finde den besten Zug{de_in}",
                    "en": f"{name_en} to move: find the best move{en_in}"}
