"""Two lobby processes on one Redis: clients on either see each other join, chat and leave."""

from __future__ import annotations

from tests.lobby_fixtures import WartesaalClient, guest, names


def test_clients_on_two_processes_see_each_other_join_and_chat(lobby, second_lobby):  # noqa: F811
    anna_http, bert_http = guest(lobby.url), guest(second_lobby.url)
    anna_name, bert_name = anna_http.user["name"], bert_http.user["name"]
    anna = WartesaalClient(lobby.url, anna_http)
    bert = WartesaalClient(second_lobby.url, bert_http)
    try:
        assert anna.wait_for("welcome")["user"]["name"] == anna_name
        anna.wait_players(lambda players: {anna_name, bert_name} <= names(players))
        bert.wait_players(lambda players: {anna_name, bert_name} <= names(players))

        anna.emit("chat:send", {"text": "Hallo von Prozess A"})
        got = bert.wait_for("chat:message", lambda p: p["message"]["text"] == "Hallo von Prozess A")
        assert got["message"]["name"] == anna_name
        bert.emit("chat:send", {"text": "Hallo zurück von B"})
        anna.wait_for("chat:message", lambda p: p["message"]["text"] == "Hallo zurück von B")

        bert.close()
        anna.wait_players(lambda players: bert_name not in names(players) and anna_name in names(players))
    finally:
        anna.close()
        bert.close()
