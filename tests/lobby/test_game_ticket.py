"""The lobby's game ticket: what a signed-in page needs to open the game socket."""

from __future__ import annotations

import requests

from shared import auth_token
from tests.lobby_fixtures import guest
from tests.stack import TEST_SECRET, ServiceProcess


def test_ticket_only_for_the_signed_in_and_it_opens_the_game_socket(lobby: ServiceProcess) -> None:  # noqa: F811
    response = requests.get(f"{lobby.url}/api/game-ticket", headers={"X-Lang": "en"}, timeout=10)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_logged_in"
    assert response.json()["error"]["message"]  # a text for the player, in their language

    session = guest(lobby.url)
    ticket = session.get(f"{lobby.url}/api/game-ticket", timeout=10)
    assert ticket.status_code == 200 and ticket.headers["Cache-Control"] == "no-store"
    data = ticket.json()
    claims = auth_token.verify(data["token"], TEST_SECRET, 3600)
    assert claims is not None and claims["uid"] == session.user["id"]  # type: ignore[attr-defined]
    assert data["game_url"].startswith("http")
