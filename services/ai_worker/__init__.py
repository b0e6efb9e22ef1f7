"""The Celery worker: AI moves and hints (queue ``interactive``) and reviews (queue ``batch``)."""
