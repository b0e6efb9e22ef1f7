"""Each game's ``view(state, seat)``: what a seat (or a spectator) sees of a table.

The engines build their views without checking them (a view goes out on every move);
tests/games/test_view_schemas.py holds them to these records over seeded random games
instead.  The web client's boards read their game's view through the TypeScript types
written from here (``GameView``: any of them, told apart by ``game``).
"""

from __future__ import annotations

from shared.schemas.mechanism import (
    AnyOf,
    Bool,
    Enum,
    Int,
    ListOf,
    MapOf,
    Number,
    Omittable,
    Optional,
    Record,
    Ref,
    Str,
    TupleOf,
    define,
)

VIEW_RECORDS: dict[str, Record] = define(
    Record("GameOutcome", "How a game ended by its rules or by the table: winner seat (null: a draw), a stable"
           " reason code, German and English text, and the game's own final score if it has one.",
           {"winner": Optional(Int()), "reason": Str(), "de": Str(), "en": Str(), "score": Optional(ListOf(Number()))}),
    # --- Battlehexagon ---
    Record("HexagonOptions", "Battlehexagon's options: the map (`map_seed` for the Zufall map) and the end rule.",
           {"map": Str(), "map_seed": Omittable(Optional(Int())), "end_rule": Str()}),
    Record("HexagonEffect", "What a Battlehexagon move does: a clone or jump from/to a cell, or a pass, and the"
           " stones it turns.", {"kind": Enum(("clone", "jump", "pass")), "from": Optional(Str()),
                                 "to": Optional(Str()), "turns": ListOf(Str())}),
    Record("HexagonMove", "A legal Battlehexagon move: its text and effect.",
           {"text": Str(), "effect": Ref("HexagonEffect")}),
    Record("HexagonCells", "The stones of each side by cell.", {"rubin": ListOf(Str()), "perle": ListOf(Str())}),
    Record("HexagonHelp", "Hilfe an: where the seat to move can clone, and which of its stones the opponent could"
           " turn next.", {"clone_targets": ListOf(Str()), "threatened": ListOf(Str())}),
    Record("HexagonView", "A Battlehexagon table as any seat sees it (it hides nothing); `legal_moves` and"
           " `help` only for the seat to move.",
           {"game": Enum(("hexagon",)), "seat": Optional(Int()), "options": Ref("HexagonOptions"), "map": Str(),
            "map_seed": Optional(Int()), "holes": ListOf(Str()), "cells": Ref("HexagonCells"),
            "to_move": Optional(Int()), "clock": Int(), "ply": Int(), "position": Str(), "start": Optional(Str()),
            "moves": ListOf(Str()), "score": ListOf(Int()), "outcome": Optional(Ref("GameOutcome")),
            "legal_moves": Omittable(ListOf(Ref("HexagonMove"))), "help": Omittable(Ref("HexagonHelp"))}),
    # --- Battlebullet ---
    Record("BulletOptions", "Battlebullet's options.",
           {"layout": Str(), "move_limit": Optional(Int()), "win_target": Int()}),
    Record("BulletEffect", "What a Battlebullet move does: the marbles it moves in a direction (inline or"
           " broadside), the marbles it pushes and whether one goes out; `moves`: each marble's from and to"
           " (to null: pushed out).",
           {"marbles": ListOf(Str()), "dir": Str(), "kind": Enum(("inline", "broadside")), "push": Int(),
            "out": Bool(), "moves": ListOf(TupleOf((Str(), Optional(Str()))))}),
    Record("BulletMove", "A legal Battlebullet move: its text and effect.",
           {"text": Str(), "effect": Ref("BulletEffect")}),
    Record("BulletMarbles", "The marbles of each colour by cell.", {"white": ListOf(Str()), "black": ListOf(Str())}),
    Record("BulletView", "A Battlebullet table as any seat sees it (it hides nothing); `legal_moves` are the"
           " seat to move's, `danger` per seat its marbles the opponent could push out next.",
           {"game": Enum(("bullet",)), "seat": Optional(Int()), "options": Ref("BulletOptions"),
            "to_move": ListOf(Int()), "position": Str(), "marbles": Ref("BulletMarbles"),
            "pushed_out": ListOf(Int()), "on_board": ListOf(Int()), "win_target": Int(), "ply": Int(),
            "moves_left": Optional(ListOf(Int())), "history": ListOf(Str()), "start": Optional(Str()),
            "legal_moves": ListOf(Ref("BulletMove")), "danger": ListOf(ListOf(Str())),
            "outcome": Optional(Ref("GameOutcome"))}),
    # --- Battlegeneral ---
    Record("GeneralOptions", "Battlegeneral's options.", {"max_quiet_moves": Int()}),
    Record("GeneralEffect", "What a Battlegeneral move does. Setup: `kind` place (a `rank` on a `square`), or a"
           " standard setup by `name` (`mirrored`). Play: a piece moves `from` `to` along `path`; `attack`: a"
           " fight happens (`target`: the piece attacked), never how it ends.",
           {"kind": Omittable(Str()), "name": Omittable(Str()), "mirrored": Omittable(Bool()),
            "square": Omittable(Str()), "rank": Omittable(Str()), "from": Omittable(Str()), "to": Omittable(Str()),
            "piece": Omittable(Int()), "path": Omittable(ListOf(Str())), "attack": Omittable(Bool()),
            "target": Omittable(Optional(Int()))}),
    Record("GeneralMove", "A legal Battlegeneral move: its text and effect.",
           {"text": Str(), "effect": Ref("GeneralEffect")}),
    Record("GeneralSetup", "The setup as this seat sees it: who is ready; its own placement, next piece and the"
           " pieces left to place (null for a spectator); the standard setups by name.",
           {"ready": ListOf(Bool()), "own": Optional(MapOf(Str())), "next_piece": Optional(Str()),
            "remaining": Optional(MapOf(Int())), "standard_setups": ListOf(Str())}),
    Record("GeneralPiece", "A piece on the board; `rank` null where this seat may not know it.",
           {"id": Int(), "owner": Int(), "square": Str(), "moved": Bool(), "scouted": Bool(), "revealed": Bool(),
            "rank": Optional(Str())}),
    Record("GeneralCaptured", "A captured piece (its rank was shown in its fight).", {"id": Int(), "rank": Str()}),
    Record("GeneralLastMove", "The last move: who moved which piece from where to where, and whether it fought.",
           {"seat": Int(), "id": Int(), "from": Str(), "to": Str(), "fight": Bool()}),
    Record("GeneralView", "A Battlegeneral table as one seat (null: a spectator) may see it. `setup` only in the"
           " setup phase; `quiet_moves` and `ply` only in play; `start_position` (both setups) once over in"
           " play, `setups` (both placements) once over in the setup.",
           {"game": Enum(("general",)), "phase": Enum(("setup", "play", "over")), "seat": Optional(Int()),
            "to_move": ListOf(Int()), "options": Ref("GeneralOptions"), "lakes": ListOf(Str()),
            "legal_moves": ListOf(Ref("GeneralMove")), "outcome": Optional(Ref("GameOutcome")),
            "setup": Omittable(Ref("GeneralSetup")), "pieces": ListOf(Ref("GeneralPiece")),
            "captured": ListOf(ListOf(Ref("GeneralCaptured"))), "history": ListOf(Str()),
            "last_move": Optional(Ref("GeneralLastMove")), "quiet_moves": Omittable(Int()), "ply": Omittable(Int()),
            "start_position": Omittable(Str()), "setups": Omittable(ListOf(MapOf(Str())))}),
    # --- Battlehanse ---
    Record("HanseOptions", "Battlehanse's options: who begins and how many seals win.",
           {"first": Int(), "seals_to_win": Int()}),
    Record("HanseEffect", "What a Battlehanse move does to market, hand, stable and marks (`type`: weiter, nimm,"
           " pferde, verkauf, tausch …).",
           {"type": Str(), "market_out": ListOf(Str()), "market_in": ListOf(Str()), "hand_out": ListOf(Str()),
            "hand_in": ListOf(Str()), "stable": Int(), "refill": Int(), "zinn": ListOf(Int()), "zinn_sum": Int(),
            "ratsmarke": Optional(Int()), "ends_round": Bool()}),
    Record("HanseMove", "A legal Battlehanse move: its text and effect.",
           {"text": Str(), "effect": Ref("HanseEffect")}),
    Record("HanseZinnPile", "The Zinnmarken left of one good (printed values).",
           {"good": Str(), "left": ListOf(Int())}),
    Record("HanseCard", "A card in the hand; `known`: the opponent saw it taken.", {"card": Str(), "known": Bool()}),
    Record("HansePlayer", "One side as this seat may see it: `hand` and `rats` (values) null where hidden.",
           {"seat": Int(), "hand_count": Int(), "stable": Int(), "known": ListOf(Str()),
            "hand": Optional(ListOf(Ref("HanseCard"))), "zinn": ListOf(Int()), "rats_count": Int(),
            "rats_sizes": ListOf(Int()), "rats": Optional(ListOf(Int()))}),
    Record("HansePlayed", "A move of the move list: `drawn` the cards it drew into the market; `ratsmarke` the"
           " size of a Ratsmarke it won, `rats` its value (null where hidden).",
           {"round": Int(), "seat": Int(), "text": Str(), "drawn": ListOf(Str()), "ratsmarke": Optional(Int()),
            "rats": Optional(Int())}),
    Record("HanseRoundPlayer", "One side's count at a round's end.",
           {"zinn": ListOf(Int()), "zinn_sum": Int(), "rats": ListOf(Int()), "rats_sum": Int(), "horses": Int(),
            "stall": Int(), "total": Int()}),
    Record("HanseRound", "A Rundentafel: how a round ended and who won its seal (null: nobody).",
           {"round": Int(), "starter": Int(), "end_reason": Str(), "end_de": Str(), "end_en": Str(),
            "players": ListOf(Ref("HanseRoundPlayer")), "stall_owner": Optional(Int()), "decided_by": Str(),
            "seal": Optional(Int()), "seals_after": ListOf(Int()), "match_over": Bool(),
            "next_starter": Optional(Int()), "de": Str(), "en": Str()}),
    Record("HanseHidden", "After the match: the deck in drawing order and the Ratsmarken left in each pile.",
           {"deck": ListOf(Str()), "rats_piles": ListOf(ListOf(Int()))}),
    Record("HanseView", "A Battlehanse match as one seat (null: a spectator) may see it.",
           {"game": Enum(("hanse",)), "seat": Optional(Int()), "options": Ref("HanseOptions"), "round": Int(),
            "phase": Enum(("spiel", "pause", "ende")), "to_move": ListOf(Int()), "turn": Int(), "starter": Int(),
            "market": ListOf(Str()), "deck_count": Int(), "zinn_piles": ListOf(Ref("HanseZinnPile")),
            "rats_left": ListOf(Int()), "discard": MapOf(Int()), "seals": ListOf(Int()), "seals_to_win": Int(),
            "players": ListOf(Ref("HansePlayer")), "legal_moves": ListOf(Ref("HanseMove")),
            "moves": ListOf(Ref("HansePlayed")), "rounds": ListOf(Ref("HanseRound")),
            "outcome": Optional(Ref("GameOutcome")), "hidden": Optional(Ref("HanseHidden"))}),
)

GAME_VIEW_NAMES = {"hexagon": "HexagonView", "bullet": "BulletView", "general": "GeneralView", "hanse": "HanseView"}
# Any game's view; the TypeScript type of that name is the union of the four.
GAME_VIEW = AnyOf(tuple(Ref(name) for name in GAME_VIEW_NAMES.values()), name="GameView")
