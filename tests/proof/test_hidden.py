"""Hidden means hidden, over every message: a recorder keeps every Socket.IO message the game service
sends to every client (both players, a spectator, a player's second connection after a reconnect)
over whole Battlegeneral and Battlehanse games, together with what the public HTTP routes answer
while the game runs (the replay page, the record, the Rückblick), and checks every one of them
sent before the end against the truth known after it.

Beside the moves: error paths (an unknown move, a move out of turn, a stale version, a spectator's
move and resignation, a Rückblick asked for during the game), Tipps (``table:hint`` → ``ai_hint``)
and Zug zurück with its reshuffle at a table against the computer.

What must not appear while a game runs:
* Battlegeneral: the rank of an enemy piece not revealed in a fight (``tests/tables/test_general.py``'s
  checks on every message), the enemy's setup;
* Battlehanse: the opponent's hand beyond its gemerkte Karten, the deck order (nor any run of six or
  more cards of it), the value of a Ratsmarke of the opponent's before its round ends, the order of
  the Ratsmarken piles (``tests/tables/test_hanse.py``'s checks, extended);
* both: the game's seed and every reshuffle seed (as a key ``seed`` or as its digits anywhere).

The default run plays short games (a Battlegeneral game resigned after its fights began, a
Battlehanse match to one Ratssiegel, a Battlehanse table against the computer); ``slow`` plays
hundreds of games to their natural end.
"""

from __future__ import annotations

import json
import os
import queue
import random
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from shared.games import get_game
from shared.games.general.setups import STANDARD_SETUPS
from shared.table_replay import states_along
from tests.stack import Infra, ServiceProcess
from tests.table_client import StubListener, TableClient, legal_texts, load, my_turn, new_game, players, token
from tests.tables.test_general import assert_nothing_hidden
from tests.tables.test_hanse import assert_hidden_kept

SECRET_KEYS = {"seed", "seeds", "deck", "reshuffles", "rats_piles", "start_position", "setups"}


class RecordedQueue(queue.Queue):
    """The probe's event queue, keeping every message *as it arrives* (read or not)."""

    def __init__(self, tape: list[tuple[str, Any]]) -> None:
        super().__init__()
        self.tape = tape

    def put(self, item: tuple[str, Any], block: bool = True, timeout: float | None = None) -> None:
        self.tape.append(item)
        super().put(item, block, timeout)


class Recorder(TableClient):
    """A table client whose every received message lands on ``tape``, with the seat it was sent to."""

    def __init__(self, url: str, account: Any, seat: int | None) -> None:
        super().__init__(url, account)
        self.seat = seat
        self.tape: list[tuple[str, Any]] = []
        self.probe.events = RecordedQueue(self.tape)


def _keys(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _keys(value)
    elif isinstance(node, list):
        for value in node:
            yield from _keys(value)


def _lists(node: Any) -> Iterator[list]:
    if isinstance(node, list):
        yield node
        for value in node:
            yield from _lists(value)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _lists(value)


def assert_no_seed(data: Any, seeds: list[int]) -> None:
    """No key that holds a secret by its nature, and no seed's digits anywhere (seeds here have 13 digits)."""
    assert not SECRET_KEYS & set(_keys(data)), (SECRET_KEYS & set(_keys(data)), data)
    text = json.dumps(data)
    for seed in seeds:
        assert str(seed) not in text, f"seed {seed} in {text[:300]}"


def before_end(tape: list[tuple[str, Any]], game_id: int) -> list[tuple[str, Any]]:
    """The messages received before the first table:state of ``game_id`` that is not running."""
    kept = []
    for name, data in tape:
        if name == "table:state" and data.get("game_id") == game_id and data["status"] != "running":
            break
        kept.append((name, data))
    return kept


# ---- Battlegeneral ------------------------------------------------------------------------

def play_general(url: str, pool: Any, seed: int, rng: random.Random, max_plies: int | None) -> int:
    """A Wartesaal game with a spectator; Blue reconnects; errors provoked; resigned after
    ``max_plies`` (None: played to its end).  Returns the number of messages checked."""
    a, b, watcher = players(pool, 3)
    game_id = new_game(pool, "general", (a.id, b.id), clock=None, seed=seed)
    clients = [Recorder(url, a, 0).connect(), Recorder(url, b, 1).connect()]
    spectator = Recorder(url, watcher, None).connect()
    every = [*clients, spectator]
    public_answers: list[dict] = []
    try:
        for client in every:
            client.join(game_id)
        for seat, client in enumerate(clients):
            client.emit("table:move", {"game_id": game_id, "version": 0,
                                       "move": f"aufstellung {rng.choice(STANDARD_SETUPS)}{' gespiegelt' * seat}"})
        for client in clients:
            client.state(game_id, lambda s: len(s["view"]["setup"]["own"]) == 40)
            client.emit("table:move", {"game_id": game_id, "version": client.states[game_id]["version"],
                                       "move": "fertig"})
        for client in every:
            client.state(game_id, lambda s: s["view"]["phase"] == "play")
        provoke_errors(url, clients, spectator, game_id, public_answers)
        ply = 0
        while max_plies is None or ply < max_plies:
            version = max(c.state(game_id)["version"] for c in clients)
            states = [c.state(game_id, lambda s, v=version: s["version"] >= v) for c in clients]
            if states[0]["status"] != "running":
                break
            if ply == 12 and len(every) == 3:
                clients[1] = reconnect(url, clients[1], b, game_id, every)
                public_answers.append(requests.get(f"{url}/api/games/{game_id}", timeout=10).json())
            mover = next(c for c, s in zip(clients, states, strict=True) if my_turn(s))
            state = mover.states[game_id]
            moves = state["view"]["legal_moves"]
            attacks = [m["text"] for m in moves if m["effect"].get("attack")]
            text = rng.choice(attacks) if attacks and rng.random() < 0.9 else rng.choice([m["text"] for m in moves])
            mover.emit("table:move", {"game_id": game_id, "version": state["version"], "move": text})
            for c in clients:
                c.state(game_id, lambda s, v=state["version"]: s["version"] > v)
            ply += 1
        if clients[0].state(game_id)["status"] == "running":
            clients[1].emit("table:resign", {"game_id": game_id})
        finals = [c.state(game_id, lambda s: s["status"] != "running") for c in (*clients, spectator)]
        for c in (*clients, spectator):
            c.quiet(0.3)
        view = finals[-1]["view"]
        truth = {p["id"]: p["rank"] for p in view["pieces"]}
        truth |= {p["id"]: p["rank"] for side in view["captured"] for p in side}
        assert len(truth) == 80 and None not in truth.values()
        checked = 0
        for client in every:
            for name, data in before_end(client.tape, game_id):
                if isinstance(data, dict):
                    assert_nothing_hidden(client.seat, name, data, truth)
                assert_no_seed(data, [seed])
                checked += 1
        for answer in public_answers:
            if answer.get("status") == "running":
                assert_nothing_hidden(None, "table:state", {"you": None, "view": answer["view"],
                                                            "moves": answer["view"]["history"]}, truth)
                assert_no_seed(answer, [seed])
        return checked
    finally:
        for client in every:
            client.close()


def reconnect(url: str, old: Recorder, account: Any, game_id: int, every: list[Recorder]) -> Recorder:
    """A reload: the old connection goes, a new one joins the running table; both are kept on record."""
    old.quiet(0.2)
    old.close()
    fresh = Recorder(url, account, old.seat).connect()
    state = fresh.join(game_id)
    assert state["status"] == "running" and state["you"] == old.seat
    every.append(fresh)
    return fresh


def provoke_errors(url: str, clients: list[Recorder], spectator: Recorder, game_id: int,
                   public_answers: list[dict]) -> None:
    """Every refusal path a client can reach mid-game; each answer is an error, and all are recorded."""
    state = clients[0].state(game_id)
    mover = next(c for c in clients if my_turn(c.state(game_id)))
    waiting = next(c for c in clients if c is not mover)
    version = state["version"]
    mover.emit("table:move", {"game_id": game_id, "version": version, "move": "zz99-zz98"})
    assert mover.error()["code"]
    waiting.emit("table:move", {"game_id": game_id, "version": version, "move": legal_texts(mover.states[game_id])[0]})
    assert waiting.error()["code"]
    mover.emit("table:move", {"game_id": game_id, "version": version + 7, "move": legal_texts(mover.states[game_id])[0]})
    assert mover.error()["code"]
    spectator.emit("table:move", {"game_id": game_id, "version": version, "move": legal_texts(mover.states[game_id])[0]})
    assert spectator.error()["code"] == "spectator"
    spectator.emit("table:resign", {"game_id": game_id})
    assert spectator.error()["code"]
    mover.emit("review:request", {"game_id": game_id})
    assert mover.error()["code"]
    # The public routes of a running game: the replay page shows a spectator's view, no record,
    # and no Rückblick yet, not even for a player of the game.
    public_answers.append(requests.get(f"{url}/api/games/{game_id}", timeout=10).json())
    assert requests.get(f"{url}/api/games/{game_id}/record.txt", timeout=10).status_code == 404
    review = requests.get(f"{url}/api/games/{game_id}/review", timeout=10,
                          headers={"Authorization": f"Bearer {token(mover.account)}"})
    assert review.status_code >= 400
    public_answers.append(review.json())
    assert load_version_unchanged(mover, game_id, version)


def load_version_unchanged(client: Recorder, game_id: int, version: int) -> bool:
    client.quiet(0.2)
    return client.states[game_id]["version"] == version


# ---- Battlehanse --------------------------------------------------------------------------

def hanse_truth(pool: Any, game_id: int) -> tuple[list[list[str]], list[int]]:
    """Every deck order (as dealt or reshuffled) along the game, and every seed it used."""
    row = load(pool, game_id)
    engine = get_game("hanse")
    decks, seeds = [], [row.seed, *(s for _, s in row.reshuffles)]
    for state in states_along("hanse", row.options, row.seed, row.moves, row.move_seats, row.reshuffles):
        decks.append(_deck_names(state))
    assert engine.view(state, None)["hidden"] is None or decks[-1] == engine.view(state, None)["hidden"]["deck"]
    return decks, seeds


def _deck_names(state: Any) -> list[str]:
    from shared.games.hanse.cards import NAMES_DE

    return [NAMES_DE[c] for c in reversed(state.deck)]


def assert_hanse_hidden(message: dict, name: str, decks: list[list[str]], seeds: list[int]) -> None:
    if name == "table:state":
        assert_hidden_kept(message)
        you = message["you"]
        for player in message["view"]["players"]:
            if player["seat"] != you:
                assert "card" not in json.dumps(player), "a card of the opponent's hand leaked"
    assert_no_seed(message, seeds)
    for found in _lists(message):
        # Public lists of cards (market, gemerkte Karten) are in kind order; a leaked run of the deck
        # of eight or more cards would not be.
        if len(found) >= 8 and all(isinstance(x, str) for x in found) and not _in_kind_order(found):
            for deck in decks:
                for start in range(len(deck) - len(found) + 1):
                    assert deck[start:start + len(found)] != found, ("a run of the deck order leaked", found)


def _in_kind_order(cards: list[str]) -> bool:
    from shared.games.hanse.cards import NAMES_DE

    order = {name: i for i, name in enumerate(NAMES_DE)}
    if not all(c in order for c in cards):
        return True  # not cards at all
    return all(order[x] <= order[y] for x, y in zip(cards, cards[1:], strict=False))


def play_hanse_match(url: str, pool: Any, seed: int, rng: random.Random, seals: int) -> int:
    a, b, watcher = players(pool, 3)
    game_id = new_game(pool, "hanse", (a.id, b.id), clock={"base_ms": 600_000, "inc_ms": 5000},
                       options={"seals_to_win": seals}, seed=seed)
    clients = [Recorder(url, a, 0).connect(), Recorder(url, b, 1).connect()]
    spectator = Recorder(url, watcher, None).connect()
    every = [*clients, spectator]
    try:
        for client in every:
            client.join(game_id)
        public = [requests.get(f"{url}/api/games/{game_id}", timeout=10).json()]
        for ply in range(3000):
            version = max(c.state(game_id)["version"] for c in clients)
            states = [c.state(game_id, lambda s, v=version: s["version"] >= v, timeout=40) for c in clients]
            if states[0]["status"] != "running":
                break
            if ply == 7:
                clients[1] = reconnect(url, clients[1], b, game_id, every)
                public.append(requests.get(f"{url}/api/games/{game_id}", timeout=10).json())
                continue
            if states[0]["view"]["phase"] == "pause":  # the countdown ends it
                for c in clients:
                    c.state(game_id, lambda s, v=version: s["version"] > v, timeout=40)
                continue
            mover = next(c for c, s in zip(clients, states, strict=True) if my_turn(s))
            other = next(c for c in clients if c is not mover)
            state = mover.states[game_id]
            if ply == 3:  # out of turn, and a Tipp where there is none (a Wartesaal table)
                other.emit("table:move", {"game_id": game_id, "version": version, "move": legal_texts(state)[0]})
                assert other.error()["code"]
                other.emit("table:hint", {"game_id": game_id, "version": version})
                assert other.error()["code"]
            mover.emit("table:move", {"game_id": game_id, "version": state["version"],
                                      "move": rng.choice(legal_texts(state))})
            for c in clients:
                c.state(game_id, lambda s, v=state["version"]: s["version"] > v)
        else:
            raise AssertionError("match did not end")
        for c in every:
            c.quiet(0.3)
        decks, seeds = hanse_truth(pool, game_id)
        checked = 0
        for client in every:
            for name, data in before_end(client.tape, game_id):
                assert_hanse_hidden(data if isinstance(data, dict) else {"args": data}, name, decks, seeds)
                checked += 1
        for answer in public:
            assert answer["status"] == "running"
            assert_hanse_hidden({"you": None, "status": "running", "view": answer["view"]}, "table:state",
                                decks, seeds)
        return checked
    finally:
        for client in every:
            client.close()


def play_hanse_against_the_computer(url: str, pool: Any, rng: random.Random, hints: int, undos: int) -> int:
    """Tipps and Zug zurück (with the reshuffle of the unseen cards) at a table against Leicht."""
    (a,) = players(pool, 1)
    client = Recorder(url, a, 0).connect()
    try:
        client.emit("table:new_local", {"game": "hanse", "mode": "computer", "options": {"seals_to_win": 1},
                                        "strength": "leicht", "seat": 0, "clock": None})
        game_id = _first_table(client)
        asked = undone = 0
        for _ in range(400):
            state = client.state(game_id, lambda s: s["status"] != "running" or my_turn(s)
                                 or s["view"]["phase"] == "pause", timeout=60)
            if state["status"] != "running":
                break
            if state["view"]["phase"] == "pause":
                client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": "weiter"})
                client.state(game_id, lambda s, v=state["version"]: s["version"] > v, timeout=30)
                continue
            if asked < hints:
                client.emit("table:hint", {"game_id": game_id, "version": state["version"]})
                hint = client.event("ai_hint", timeout=60)
                assert hint["ply"] == state["version"] and hint["seat"] == 0
                assert hint["move"] in legal_texts(state)
                asked += 1
            client.emit("table:move", {"game_id": game_id, "version": state["version"],
                                       "move": rng.choice(legal_texts(state))})
            client.state(game_id, lambda s, v=state["version"]: s["version"] > v, timeout=30)
            if undone < undos and asked >= hints:
                after = client.state(game_id, lambda s: s["status"] != "running" or my_turn(s), timeout=60)
                if after["status"] == "running":
                    client.emit("table:undo", {"game_id": game_id})
                    client.state(game_id, lambda s, v=after["version"]: s["version"] > v, timeout=30)
                    undone += 1
        else:
            client.emit("table:resign", {"game_id": game_id})
        client.state(game_id, lambda s: s["status"] != "running", timeout=30)
        client.quiet(0.3)
        assert asked == hints and undone == undos
        row = load(pool, game_id)
        assert len(row.reshuffles) >= min(undos, 1)
        decks, seeds = hanse_truth(pool, game_id)
        checked = 0
        for name, data in before_end(client.tape, game_id):
            assert_hanse_hidden(data if isinstance(data, dict) else {"args": data}, name, decks, seeds)
            checked += 1
        assert any(name == "ai_hint" for name, _ in client.tape)
        return checked
    finally:
        client.close()


def _first_table(client: Recorder) -> int:
    """The id of the table table:new_local made (its first table:state)."""
    for _ in range(150):
        if client.states:
            return next(iter(client.states))
        try:
            client._pump(0.1)
        except queue.Empty:
            continue
    raise AssertionError("no table against the computer")


# ---- the tests ---------------------------------------------------------------------------

def test_every_message_of_short_games_keeps_the_secrets(game_service: ServiceProcess, ai_worker, pool) -> None:  # noqa: ANN001
    rng = random.Random(5)
    checked = play_general(game_service.url, pool, secrets.randbits(40) | 1 << 40, rng, max_plies=40)
    checked += play_hanse_match(game_service.url, pool, secrets.randbits(40) | 1 << 40, rng, seals=1)
    checked += play_hanse_against_the_computer(game_service.url, pool, rng, hints=2, undos=1)
    assert checked > 150


@pytest.mark.slow
@pytest.mark.timeout(7200)
def test_every_message_of_hundreds_of_games_keeps_the_secrets(game_service: ServiceProcess, ai_worker,
                                                              pool) -> None:  # noqa: ANN001
    """``PROOF_HIDDEN_ROUNDS`` rounds (default 100) of a Battlegeneral game played to its end and a
    Battlehanse match, every tenth round also a Battlehanse table against the computer."""
    rounds = int(os.environ.get("PROOF_HIDDEN_ROUNDS", "100"))
    rng = random.Random(17)
    checked = 0
    for i in range(rounds):
        checked += play_general(game_service.url, pool, secrets.randbits(40) | 1 << 40, rng, max_plies=None)
        checked += play_hanse_match(game_service.url, pool, secrets.randbits(40) | 1 << 40, rng,
                                    seals=2 if i % 10 == 0 else 1)
        if i % 10 == 0:
            checked += play_hanse_against_the_computer(game_service.url, pool, rng, hints=3, undos=2)
    assert checked > 100 * rounds


# ---- a take-back keeps what a fight showed -------------------------------------------------

def _rank_at(view: dict, square: str) -> dict:
    return next(p for p in view["pieces"] if p["square"] == square)


def test_zug_zurueck_against_the_computer_keeps_what_a_fight_showed(game_service: ServiceProcess, ai_worker,  # noqa: ANN001
                                                                    pool) -> None:
    """Attack, see the defender's rank, take the move back: the rank stays shown for the
    player, and the computer keeps knowing the attacker's (it had seen it too)."""
    (a,) = players(pool, 1)
    client = Recorder(game_service.url, a, 0).connect()
    try:
        client.emit("table:new_local", {"game": "general", "mode": "computer", "options": {},
                                        "strength": "leicht", "seat": 0, "clock": None})
        game_id = _first_table(client)
        state = client.states[game_id]
        # The computer sets up at the same time: wait for this seat's own placement, not any new version.
        client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": "aufstellung Blitzkrieg"})
        state = client.state(game_id, lambda s: s["view"]["phase"] != "setup"
                             or len(s["view"]["setup"]["own"] or {}) == 40, timeout=30)
        client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": "fertig"})
        state = client.state(game_id, lambda s: s["view"]["phase"] != "setup" and my_turn(s), timeout=60)
        assert "j4-j7" in legal_texts(state)  # Blitzkrieg's Aufklärer on j4 runs into the enemy's front row
        attacker = _rank_at(state["view"], "j4")
        assert attacker["rank"] == "2" and not attacker["revealed"]
        assert _rank_at(state["view"], "j7")["rank"] is None
        client.emit("table:move", {"game_id": game_id, "version": state["version"], "move": "j4-j7"})
        fought = client.state(game_id, lambda s: len(s["view"]["history"]) >= 1, timeout=30)
        assert fought["view"]["history"][0].startswith("j4")
        seen = _rank_at(fought["view"], "j7") if any(p["square"] == "j7" for p in fought["view"]["pieces"]) else None
        assert seen is None or seen["rank"] is not None  # whoever stands on j7 now, its rank was shown
        client.state(game_id, lambda s: s["status"] != "running" or my_turn(s), timeout=60)
        before = client.states[game_id]
        client.emit("table:undo", {"game_id": game_id})
        after = client.state(game_id, lambda s, v=before["version"]: s["version"] > v, timeout=30)
        assert after["view"]["history"] == []  # the attack and the computer's answer are gone
        defender = _rank_at(after["view"], "j7")
        assert defender["revealed"] and defender["rank"] is not None, defender
        assert _rank_at(after["view"], "j4")["revealed"]
        # The computer's knowledge (what its next move is computed from) keeps the attacker's rank.
        row = load(pool, game_id)
        kept = states_along(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)[-1]
        computer_view = get_game("general").view(kept, 1)
        assert _rank_at(computer_view, "j4")["rank"] == "2"
        # Any process replaying the row, and the next move, see the same.
        client.emit("table:move", {"game_id": game_id, "version": after["version"], "move": "a4-a5"})
        moved = client.state(game_id, lambda s, v=after["version"]: s["version"] > v, timeout=30)
        assert _rank_at(moved["view"], "j7")["rank"] == defender["rank"]
    finally:
        client.close()


# ---- the Tagesmarkt's deal stays on the server while its day lasts ---------------------------

def _assert_sealed_end(message: dict) -> None:
    """A finished attempt's last table:state: what play showed, nothing the end would reveal."""
    view = message["view"]
    assert message["status"] != "running" and view["hidden"] is None, "the deck or the piles leaked"
    for player in view["players"]:
        if player["seat"] != message["you"]:
            assert player["hand"] is None, "the computer's hand leaked"
            if not view["rounds"]:
                assert player["rats"] is None, "a Ratsmarke of the computer's leaked"
    for move in view["moves"]:
        if move["seat"] != message["you"] and not view["rounds"]:
            assert move["rats"] is None, "a Ratsmarke value leaked through the move list"


def _play_attempt(url: str, pool: Any, account: Any, resign_after: int | None) -> tuple[int, Recorder]:
    """A Tagesmarkt attempt: given up after ``resign_after`` own moves, or played to the round's end."""
    from services.lobby import daily_market
    from tests.puzzles.test_hanse_daily_round import choose
    from tests.stack import TEST_SECRET

    with pool.connection() as conn, conn.transaction():
        game_id = daily_market.start_attempt(conn, account, daily_market.now_utc(), TEST_SECRET)["game_id"]
    client = Recorder(url, account, 0).connect()
    client.emit("table:join", {"game_id": game_id})
    state = client.state(game_id)
    played = 0
    while state["status"] == "running":
        if resign_after is not None and played == resign_after:
            client.emit("table:resign", {"game_id": game_id})
            break
        if my_turn(state) or state["view"]["phase"] == "pause":
            client.emit("table:move", {"game_id": game_id, "version": state["version"],
                                       "move": choose(state["view"]) if my_turn(state) else "weiter"})
            played += 1
        state = client.state(game_id, lambda s, v=state["version"]: s["version"] > v, timeout=60)
    client.state(game_id, lambda s: s["status"] != "running", timeout=30)
    client.quiet(0.3)
    return game_id, client


def test_the_days_tagesmarkt_deal_stays_on_the_server_until_the_day_ends(game_service: ServiceProcess,  # noqa: ANN001
                                                                         ai_worker, pool) -> None:
    """Start the Tagesmarkt, give up (or play the round out), and read the deal from the
    final view, the replay or the record, before the day's counted attempt.  None of them tells."""
    a, b = players(pool, 2)
    ends = {}
    for account, resign_after in ((a, 2), (b, None)):
        game_id, client = _play_attempt(game_service.url, pool, account, resign_after)
        try:
            decks, seeds = hanse_truth(pool, game_id)
            final = [data for name, data in client.tape if name == "table:state" and data["status"] != "running"]
            assert final
            for name, data in client.tape:
                assert_hanse_hidden(data if isinstance(data, dict) else {"args": data}, name, decks, seeds)
            for data in final:
                _assert_sealed_end(data)
            # Its player's Rückblick, made public: for others only once the day is over.
            client.emit("review:request", {"game_id": game_id, "seat": 0})
            client.event("review:state", timeout=30)
            client.emit("review:public", {"game_id": game_id, "public": True})
            client.event("review:state", lambda d: d["public"], timeout=30)
            # A second look at the finished table (another socket of its player) shows no more;
            # another player may not look at all (services.game.rules.private_tables).
            again = Recorder(game_service.url, account, 0).connect()
            try:
                again.emit("table:join", {"game_id": game_id})
                _assert_sealed_end(again.state(game_id))
            finally:
                again.close()
            _assert_no_onlooker(game_service.url, b if account is a else a, game_id)
        finally:
            client.close()
        ends[game_id] = account
    for game_id, account in ends.items():
        other = b if account is a else a
        review = requests.get(f"{game_service.url}/api/games/{game_id}/review?seat=0",
                              headers={"Authorization": f"Bearer {token(other)}"}, timeout=10)
        assert review.status_code == 403 and review.json()["error"]["code"] == "deal_sealed", review.text
        for headers in ({}, {"Authorization": f"Bearer {token(account)}"}):
            for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/record.txt"):
                answer = requests.get(game_service.url + path, headers=headers, timeout=10)
                assert answer.status_code == 403 and answer.json()["error"]["code"] == "deal_sealed", answer.text
    # The day after, the deal may be shown: the replay and the record are there.
    game_id = next(iter(ends))
    with pool.connection() as conn:
        conn.execute("UPDATE games SET sealed_until = now() - interval '1 second' WHERE id = %s", (game_id,))
    replay_data = requests.get(f"{game_service.url}/api/games/{game_id}", timeout=10).json()
    assert replay_data["plies"][-1]["view"]["hidden"]["deck"]
    record = requests.get(f"{game_service.url}/api/games/{game_id}/record.txt", timeout=10)
    assert record.status_code == 200 and f'[Seed "{load(pool, game_id).seed}"]' in record.text
    review = requests.get(f"{game_service.url}/api/games/{game_id}/review?seat=0",
                          headers={"Authorization": f"Bearer {token(b)}"}, timeout=10)
    assert review.status_code == 200 and review.json()["public"]


def _assert_no_onlooker(url: str, stranger: Any, game_id: int, finished: bool = True) -> None:
    """``stranger`` sees nothing of the sealed table ``game_id``: no join, no state along a refusal,
    not over HTTP (signed in or not; a record only exists once it is ``finished``)."""
    watcher = Recorder(url, stranger, None).connect()
    try:
        for event, payload in (("table:join", {"game_id": game_id}),
                               ("table:move", {"game_id": game_id, "version": 0, "move": "nimm Tuch"}),
                               ("table:resign", {"game_id": game_id}), ("table:hint", {"game_id": game_id, "version": 0})):
            watcher.emit(event, payload)
            error = watcher.error()
            assert error["event"] == event, error
            if event == "table:join":
                assert error["code"] == "deal_sealed", error
        watcher.quiet(0.5)
        assert not [data for name, data in watcher.tape if name == "table:state"], "a stranger saw the day's deal"
    finally:
        watcher.close()
    for headers in ({}, {"Authorization": f"Bearer {token(stranger)}"}):
        for path in (f"/api/games/{game_id}", *([f"/api/games/{game_id}/record.txt"] if finished else [])):
            answer = requests.get(url + path, headers=headers, timeout=10)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "deal_sealed", answer.text


def test_nobody_watches_another_players_tagesmarkt_attempt_while_the_day_lasts(game_service: ServiceProcess,
                                                                               ai_worker, pool) -> None:  # noqa: ANN001
    """A spectator of a running attempt (or an anonymous caller of its API) would see every card that
    comes up, in the deck's order (each move's drawn cards), before their own counted attempt: only
    the attempt's player looks at it until the seal ends; then everybody may."""
    from services.lobby import daily_market
    from tests.stack import TEST_SECRET

    owner, stranger = players(pool, 2)
    with pool.connection() as conn, conn.transaction():
        game_id = daily_market.start_attempt(conn, owner, daily_market.now_utc(), TEST_SECRET)["game_id"]
    client = Recorder(game_service.url, owner, 0).connect()
    try:
        assert client.join(game_id)["status"] == "running"
        mine = requests.get(f"{game_service.url}/api/games/{game_id}",
                            headers={"Authorization": f"Bearer {token(owner)}"}, timeout=10)
        assert mine.status_code == 200 and mine.json()["view"], mine.text
        _assert_no_onlooker(game_service.url, stranger, game_id, finished=False)  # while it runs
        client.emit("table:resign", {"game_id": game_id})
        client.state(game_id, lambda s: s["status"] == "finished")
        _assert_no_onlooker(game_service.url, stranger, game_id)  # and once it is over
    finally:
        client.close()
    with pool.connection() as conn:
        conn.execute("UPDATE games SET sealed_until = now() - interval '1 second' WHERE id = %s", (game_id,))
    watcher = Recorder(game_service.url, stranger, None).connect()
    try:
        assert watcher.join(game_id)["status"] == "finished"  # the day after, a finished game like any other
    finally:
        watcher.close()


def test_an_accepted_takeback_in_a_friendly_game_keeps_what_a_fight_showed(infra: Infra) -> None:
    """↶ Zurück in a Wartesaal Freundschaftspartie: the attack goes, the ranks its fight showed stay
    shown to both players (the table's own code, on PostgreSQL)."""
    from services.game.tables.table import Tables
    from shared import accounts, game_store
    from shared.table_replay import StateCache
    from tests.table_rows import tables_pool

    pool = tables_pool(infra.database_url, 2)
    try:
        red, blue = accounts.create_guest(pool), accounts.create_guest(pool)
        with pool.connection() as conn, conn.transaction():
            game_id = game_store.create_game(conn, game="general", options={}, seed=3, seats=(red.id, blue.id),
                                             mode="wartesaal", clock=None, rated=False, stake=0)
        tables = Tables(pool, StateCache(), StubListener())
        version = 0
        for uid, text in ((red.id, "aufstellung Blitzkrieg"), (blue.id, "aufstellung Blitzkrieg"),
                          (red.id, "fertig"), (blue.id, "fertig"), (red.id, "j4-j7")):
            version = tables.move(uid, game_id, version, text).row.version
        engine = get_game("general")
        assert engine.history(tables.current(game_id).state)[-1].startswith("j4")
        tables.takeback(red.id, game_id, "offer")
        after = tables.takeback(blue.id, game_id, "accept")
        assert len(after.row.moves) == 4  # the attack is gone
        for seat in (0, 1):
            pieces = {p["square"]: p for p in engine.view(after.state, seat)["pieces"]}
            assert pieces["j4"]["revealed"] and pieces["j4"]["rank"] == "2", (seat, pieces["j4"])
            assert pieces["j7"]["revealed"] and pieces["j7"]["rank"] is not None, (seat, pieces["j7"])
        # Stored: every process replaying the row sees the same.
        row = load(pool, game_id)
        replayed = states_along(row.game, row.options, row.seed, row.moves, row.move_seats, row.reshuffles)[-1]
        assert engine.view(replayed, 1) == engine.view(after.state, 1)
    finally:
        pool.close()
