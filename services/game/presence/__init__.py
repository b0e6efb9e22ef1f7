"""Who is at a table: sockets per player across processes (leaving loses), the players'
presence told to the table, and their "spielt"/"frei" status in the lobby."""
