"""``/api/rating/...`` on the lobby: a thin proxy to the rating service, so the browser uses one origin.

Only GET, only the path and query string are passed on; the rating service's
status and JSON body come back unchanged.  If it cannot be reached, 503 with a
German/English message.
"""

from __future__ import annotations

import requests
from flask import Blueprint, Response, jsonify, request

from shared.i18n import pick_language
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
        try:
            upstream = http.get(f"{settings.rating_url}/api/rating/{rest}", params=request.args,
                                timeout=TIMEOUT_SECONDS)
        except requests.RequestException:
            lang = pick_language(request.headers.get("X-Lang"))
            response = jsonify({"error": {"code": "rating_unavailable", "message": UNAVAILABLE[lang]}})
            response.status_code = 503
            return response
        return Response(upstream.content, status=upstream.status_code,
                        content_type=upstream.headers.get("Content-Type", "application/json"))

    return blueprint
