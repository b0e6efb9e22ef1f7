"""The table's rules around the engine: whose clock runs and when the flag falls, the time a
move may take, the pause between rounds, the wait after a declined take-back, the new shuffle
after one, and who may look at a table (same-device tables, sealed deals)."""
