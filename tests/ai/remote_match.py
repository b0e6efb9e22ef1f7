"""Play a whole game between two computer strengths through real Celery workers.

The test process plays the game service's part exactly as ``shared.ai_protocol``
describes it: it holds the authoritative state, sends ``ai.move`` requests through a
:class:`MoveRequester`, reads answers from the ``ai:answers`` stream through an
:class:`AnswerInbox`, drops stale answers, re-requests overdue ones, and applies each
move with the engine (so an illegal move fails loudly).  Used by the tests and by
``bench/ladder.py`` / ``bench/ai.py``.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import redis

from shared.ai_protocol import OUTSTANDING_KEY, AnswerInbox, MoveAnswer, MoveRequester, new_request
from shared.games import Outcome, get_game


@dataclass
class Timing:
    request_id: str
    deadline: float  # epoch
    arrived: float  # epoch, when the answer was read from the stream
    budget: float = 0.0  # seconds the request allowed
    stats: dict = field(default_factory=dict)  # the worker's search_ms / nodes / depth

    @property
    def late(self) -> float:
        return self.arrived - self.deadline


@dataclass
class MatchResult:
    game: str
    options: dict[str, Any]
    seed: int
    strengths: tuple[str, str]
    moves: list[str] = field(default_factory=list)
    move_seats: list[int | None] = field(default_factory=list)
    outcome: Outcome | None = None
    timings: list[Timing] = field(default_factory=list)
    stale: int = 0
    rerequests: int = 0
    final_state: Any = None


class MatchDriver:
    """One 'game service' for tests: its own consumer group on the answer stream."""

    def __init__(self, client: redis.Redis, send, group: str | None = None, grace: float = 1.0) -> None:  # noqa: ANN001
        self.redis = client
        # A hash of its own: a game service running in the same session drops tables it
        # does not know, and other drivers (benchmarks run several) re-send only their own.
        self.requester = MoveRequester(client, send, grace=grace, key=f"{OUTSTANDING_KEY}:driver:{uuid.uuid4().hex}")
        self.inbox = AnswerInbox(client, group or f"test-{uuid.uuid4().hex[:8]}", "driver", claim_idle_ms=5000)
        self.inbox.ensure_group()

    @staticmethod
    def _wanted(request, table_id: str, ply: int, seat: int) -> bool:  # noqa: ANN001
        """Only the awaited ply of the table being played; anything else is left over."""
        return request.table_id == table_id and request.ply == ply and request.seat == seat

    def wait_answer(self, table_id: str, ply: int, seat: int, budget: float, timeout: float,
                    result: MatchResult) -> MoveAnswer:
        """The first current answer for (table, ply, seat), re-requesting when one is overdue."""
        got: list[MoveAnswer] = []

        def is_current(answer: MoveAnswer) -> bool:
            return answer.table_id == table_id and answer.ply == ply and answer.seat == seat and not got

        give_up = time.monotonic() + timeout
        while not got:
            if time.monotonic() > give_up:
                raise TimeoutError(f"no answer for table {table_id} ply {ply} within {timeout} s")
            polled = self.inbox.poll(is_current, got.append, block_ms=50)
            result.stale += sum(1 for a in polled.stale if a.table_id == table_id)
            if got:
                break
            resent = self.requester.resend_overdue(budget, still_wanted=lambda r: self._wanted(r, table_id, ply, seat))
            result.rerequests += len(resent)
        arrived = time.time()
        self.requester.answered(table_id, ply)
        result.timings.append(Timing(got[0].request_id, got[0].deadline, arrived, budget, got[0].stats or {}))
        return got[0]

    def warm_up(self, timeout: float = 180.0) -> None:
        """Wait until a worker child finished its warm-up (JIT) and answers a move."""
        game = get_game("hexagon")
        state = game.new_game(game.default_options(), 1)
        table_id = f"warm-up-{uuid.uuid4().hex[:8]}"
        self.requester.request(new_request("move", "hexagon", table_id, 0, 0, game.view(state, 0), "leicht", timeout))
        self.wait_answer(table_id, 0, 0, timeout, timeout + 30, MatchResult("hexagon", {}, 1, ("leicht", "leicht")))

    def play(self, game_name: str, strengths: tuple[str, str], budget: float, seed: int,
             options: dict[str, Any] | None = None, move_timeout: float = 30.0, max_actions: int = 5000) -> MatchResult:
        """Seat 0 plays ``strengths[0]``, seat 1 ``strengths[1]``, to the end."""
        game = get_game(game_name)
        options = game.normalize_options(options or {})
        state = game.new_game(options, seed)
        table_id = f"t-{uuid.uuid4().hex[:12]}"
        result = MatchResult(game_name, options, seed, strengths)
        while game.outcome(state) is None:
            if len(result.moves) >= max_actions:
                raise RuntimeError(f"{game_name} game not over after {max_actions} actions")
            seats = game.to_move(state)
            if not seats:  # a seatless step (Battlehanse's pause): the service plays it itself
                move, seat = game.legal_moves(state, None)[0].text, None
            else:
                seat = seats[0]
                ply = len(result.moves)
                request = new_request("move", game_name, table_id, ply, seat, game.view(state, seat),
                                      strengths[seat], budget)
                self.requester.request(request)
                move = self.wait_answer(table_id, ply, seat, budget, move_timeout, result).move
            state = game.apply(state, move, seat)
            result.moves.append(move)
            result.move_seats.append(seat)
        self.requester.forget(table_id)
        result.outcome = game.outcome(state)
        result.final_state = state
        return result


def score_of(outcome: Outcome, seat: int) -> float:
    """1 for a win of ``seat``, 0.5 for a draw, 0 for a loss."""
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == seat else 0.0


def sender_app(redis_url: str):  # noqa: ANN201  (a Celery app)
    """A Celery app that only sends, to ``redis_url``, with the worker app's routes.

    ``services.ai_worker.app`` reads REDIS_URL when imported; the test process talks to
    an embedded Redis chosen later, so it gets an app of its own.
    """
    from celery import Celery

    from services.ai_worker.app import app as worker_app

    app = Celery("ai-test-sender", broker=redis_url, set_as_current=False)
    for key in ("task_queues", "task_routes", "task_default_queue", "task_serializer", "accept_content",
                "broker_transport_options", "broker_connection_retry_on_startup"):
        app.conf[key] = worker_app.conf[key]
    return app
