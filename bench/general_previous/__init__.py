"""The previous Stark of Battlegeneral, frozen: the reference the ladders compare against.

Why it is kept: the Battlegeneral player (services/ai_worker/players/general*.py) is being
changed for real Stratego competence (caution with unknown pieces, beliefs per piece,
mobility), and "better" is measured as the score of the new Stark against this one at
equal effort (``bench.general_ladder``).  Nothing in the services imports it; it is
not changed except to keep it importable.  ``player`` / ``belief`` / ``search`` are the
former ``general`` / ``general_belief`` / ``general_search`` modules.
"""
