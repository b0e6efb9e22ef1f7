"""Code that more than one service needs: settings, database, events, schemas and the rules engines."""
