"""The table and its transaction: every action under the table's row lock, the moves' group
commit, the cached rows, the refusals, and the flag deadlines the table judges."""
