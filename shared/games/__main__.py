"""Command line: ``python -m shared.games perft|show GAME [options]``.

perft prints one line per depth, ``DEPTH COUNT``; show prints the board as text.
"""

from __future__ import annotations

import argparse
import sys

from shared.games import GAME_NAMES, GameError, get_game


def _options(args: argparse.Namespace) -> dict:
    options: dict = {}
    if args.map:
        if args.map.startswith("zufall:"):
            options["map"] = "zufall"
            options["map_seed"] = int(args.map.split(":", 1)[1])
        else:
            options["map"] = args.map
    if args.end_rule:
        options["end_rule"] = args.end_rule
    if args.layout:
        options["layout"] = args.layout
    return options


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.games")
    parser.add_argument("command", choices=["perft", "show"])
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("--map", help="klassisch|dreiloch|krater|burggraben|saeulen|zufall:SEED (hexagon)")
    parser.add_argument("--end-rule", help="auffuellen|aussetzen (hexagon)")
    parser.add_argument("--layout", help="standard|belgisch|deutsch (bullet)")
    parser.add_argument("--position", help="a position in the game's position format")
    parser.add_argument("--seed", type=int, default=1, help="seed for everything random")
    parser.add_argument("--depth", type=int, default=1)
    args = parser.parse_args(argv)

    game = get_game(args.game)
    try:
        options = game.normalize_options(_options(args))
        if args.position:
            state = game.from_position(args.position, options)
        else:
            state = game.new_game(options, args.seed)
    except GameError as exc:
        print(f"error: {exc.en}", file=sys.stderr)
        return 2

    if args.command == "show":
        print(game.render(state))
        return 0
    try:
        for depth in range(1, args.depth + 1):
            print(depth, game.perft(state, depth), flush=True)
    except GameError as exc:  # e.g. Battlegeneral's setup phase has no perft: give --position
        print(f"error: {exc.en}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
