"""The Spielcenter processes: lobby, game, rating (HTTP/Socket.IO on gevent), the AI worker (Celery) and the supervisor that ``make run`` starts."""
