"""JSON logs: one line per event, so an operator can grep and ship them as they are."""

from __future__ import annotations

import json
import logging
import sys
import time


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": round(time.time(), 3),
            "level": record.levelname.lower(),
            "service": getattr(record, "service", None) or record.name.split(".")[0],
            "logger": record.name,
            "msg": record.getMessage(),
        }
        extra = getattr(record, "fields", None)
        if extra:
            entry.update(extra)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def configure(service: str, level: str = "INFO") -> logging.Logger:
    """Route every logger of the process to stdout as JSON; return the service's logger."""
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # werkzeug/engineio log every request at INFO; that is noise, not events.
    for noisy in ("werkzeug", "engineio.server", "socketio.server", "geventwebsocket.handler"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return logging.getLogger(service)


def event(logger: logging.Logger, msg: str, **fields: object) -> None:
    """Log one event with structured fields (they become JSON keys)."""
    logger.info(msg, extra={"fields": fields})
