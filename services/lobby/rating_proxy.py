"""``/api/rating/...`` on the lobby: a thin proxy to the rating service, so the browser uses one origin.

Only GET, only the path and query string are passed on; the rating service's
status and JSON body come back unchanged.  If it cannot be reached, 503 with a
German/English message.
"""

from __future__ import annotations

from urllib.parse import quote

import requests
from flask import Blueprint, Response, jsonify, request

from shared.i18n import request_language, text
from shared.settings import Settings

TIMEOUT_SECONDS = 5
UNAVAILABLE = {
    "de": "Die Ranglisten sind gerade nicht erreichbar. Bitte versuche es gleich noch einmal.",
    "en": "The rankings are unavailable right now. Please try again shortly.",
}


def rating_proxy_blueprint(settings: Settings) -> Blueprint:
    blueprint = Blueprint("rating_proxy", __name__)
    http = requests.Session()  # keeps connections to the rating service open

    @blueprint.get("/api/rating/<path:rest>")
    def forward(rest: str) -> Response:
        # Each segment percent-encoded: a decoded "../" must not walk out of /api/rating/
        # on the rating service (its /metrics, say), and "." / ".." name no list there.
        segments = rest.split("/")
        if any(segment in (".", "..") for segment in segments):
            lang = request_language(request)
            response = jsonify({"error": {"code": "unknown_route",
                                          "message": text("unknown_route", lang, path=request.path[:60])}})
            response.status_code = 404
            return response
        quoted = "/".join(quote(segment, safe="") for segment in segments)
        try:
            upstream = http.get(f"{settings.rating_url}/api/rating/{quoted}", params=request.args,
                                headers={"X-Lang": request_language(request)},
                                timeout=TIMEOUT_SECONDS)
        except requests.RequestException:
            lang = request_language(request)
            response = jsonify({"error": {"code": "rating_unavailable", "message": UNAVAILABLE[lang]}})
            response.status_code = 503
            return response
        return Response(upstream.content, status=upstream.status_code,
                        content_type=upstream.headers.get("Content-Type", "application/json"))

    return blueprint
