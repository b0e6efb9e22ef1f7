"""The lobby: accounts over HTTP, the Wartesaal (chat and who is here) over Socket.IO, and the web client."""
