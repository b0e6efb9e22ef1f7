"""The committed TypeScript protocol matches the catalogues in shared/schemas/; the lobby serves the client and health."""

from __future__ import annotations

from pathlib import Path

import requests

from shared.schemas.typescript import render_typescript

ROOT = Path(__file__).resolve().parents[2]


def test_web_protocol_ts_is_generated_from_current_schemas():
    committed = (ROOT / "web" / "src" / "protocol.ts").read_text()
    assert committed == render_typescript(), (
        "web/src/protocol.ts is stale: run `.venv/bin/python -m shared.schemas.typescript > web/src/protocol.ts`"
    )


def test_lobby_serves_health_metrics_and_the_client(lobby):  # noqa: F811
    health = requests.get(f"{lobby.url}/healthz", timeout=10)
    assert health.status_code == 200 and health.json()["checks"] == {"postgres": True, "redis": True}
    assert "spielcenter_lobby_sockets" in requests.get(f"{lobby.url}/metrics", timeout=10).text
    index = requests.get(f"{lobby.url}/", timeout=10)
    if (ROOT / "web" / "dist" / "index.html").is_file():
        assert index.status_code == 200 and '<div id="app">' in index.text
    else:
        assert index.status_code == 503 and "npm run build" in index.text
