"""Aufgaben (puzzles) of Battlehexagon, Battlebullet and Battlegeneral.

``catalog``: the schema and the stored puzzles; ``finder``: clearly-best moves and
forced lines; ``themes``: themes and task texts; ``general_sure``: what a Battlegeneral
solver knows and which strikes win for every hidden rank.
"""
