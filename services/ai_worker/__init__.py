"""The Celery worker: AI moves and hints (queue ``interactive``), reviews and Aufgaben (queue ``batch``).

Modules
-------
``app``          the Celery app, queues and crash-safety settings.
``ping``         ``ai.ping``, the smallest round trip through Socket.IO.
``move_task``    ``ai.move`` (answer on the Redis Stream ``ai:answers``) and ``ai.hint``
                 (Socket.IO event ``ai_hint`` to room ``user:<uid>``).
``review_task``  ``ai.review_game``: one seat of a finished game, move by move.
``review``       queueing reviews; ``python -m services.ai_worker.review --from … --to …``.
``puzzles``      ``ai.puzzles`` (batch) and ``python -m services.ai_worker.puzzles --game G --count N``:
                 the Aufgaben files ``shared/data/puzzles/<game>.json``.
``players``      one computer player per game (``PLAYER.choose_move``, ``analyse``, ``value_of``).

The request/answer records are in ``shared/schemas/ai_messages.py``; the messages and the
game service's side (``MoveRequester``, ``AnswerInbox``) in ``shared/ai_protocol.py``, which explains the delivery
guarantees: wall-clock deadlines, answers tagged (table_id, ply, request_id) and
dropped when the table moved on, re-requests when a worker died silently.

Deadlines
---------
A move request carries its deadline in epoch seconds; the worker searches until that
deadline minus 50 ms (``WORKER_SAFETY_MARGIN``) and 6 % of the time left
(``WORKER_SAFETY_SHARE``) on its monotonic clock.  Every answer
reaches the stream by deadline + ``DELIVERY_MARGIN`` (0.35 s, checked for every move of
the complete games in ``tests/ai/test_tasks_games.py`` on a loaded 2-core machine).  A
request nobody picked up by deadline + 0.5 s expires in the broker; the requester re-sends
it after deadline + 1 s (``REREQUEST_GRACE``).

Reviews
-------
Tables (``shared/migrations/0003_games_reviews.sql``): ``games`` (replayable from
game, options, seed, moves, move_seats), ``reviews`` (one per game and seat, status
queued → running → done/failed) and ``review_moves`` (one per judged move).  Per move
of the reviewed seat: best move and value (``analyse``), value of the move played
(``value_of`` unless ``analyse`` listed it), ``loss = max(0, best - played)``, and a
class by the player's ``REVIEW_THRESHOLDS = (yellow_from, red_from)``:

=========  ========  ===========  ========  ===================================
game       unit      yellow from  red from  meaning
=========  ========  ===========  ========  ===================================
hexagon    cells     1.0          3.0       a cell given away / three cells
bullet     marbles   0.35         1.0       a positional slip / a marble
general    material  1.0          3.0       an Aufklärer / a Hauptmann
hanse      points    1.0          3.0       a cheap Zinnmarke / a good's whole one
=========  ========  ===========  ========  ===================================

(The players own the numbers; this table mirrors them.)  Green = good move, yellow =
small deviation, red = points left lying.  Each review spends ``budget_ms`` per
judged move (default 1000 ms).  Progress is emitted to Socket.IO room ``review:<id>``
(``review_progress`` {review_id, done, total, ply, class}; ``review_done`` {review_id,
status}).  A review runs in parts of up to 12 moves, one task each, so workers share
long reviews; a task redelivered after a crash continues after the last stored move,
and a part whose whole worker died (no heartbeat for 10 s + 3 × budget) is sent again
by the batch command or any live batch worker (migration 0014, ``review_parts``).

Queues
------
``interactive`` (moves, hints, ping) and ``batch`` (reviews) are separate queues; run
one worker per queue, each with its own CPU (``-c 1`` per core), so a flood of reviews
never delays a computer's move (``tests/ai/test_tasks_delivery.py``).
"""
