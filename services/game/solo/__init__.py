"""Playing against the computer: its seat at the table, the Tipp, the Rückblick (access, its
HTTP route) and the Socket.IO events of Tipp and Rückblick."""
