"""The table's rules around the engine: the time a move may take, the pause between rounds,
the wait after a declined take-back, the new shuffle after one, and who may look at a table."""
