"""Player-facing error texts, German first and English second.

Every error the lobby sends carries a stable ``code`` (for clients and tests) and a
``message`` in the language the client chose.  Texts may contain ``{name}``-style
placeholders filled from the error's parameters.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"

TEXTS: dict[str, dict[str, str]] = {
    # Protocol: malformed input from a client.
    "unknown_event": {
        "de": "Unbekannte Nachricht „{event}“.",
        "en": "Unknown message “{event}”.",
    },
    "bad_payload": {
        "de": "Die Nachricht „{event}“ muss genau ein Objekt mit Feldern enthalten.",
        "en": "The message “{event}” must carry exactly one object with fields.",
    },
    "payload_too_large": {
        "de": "Die Nachricht ist zu groß (höchstens {limit} Byte).",
        "en": "The message is too large (at most {limit} bytes).",
    },
    "missing_field": {
        "de": "Das Feld „{field}“ fehlt.",
        "en": "The field “{field}” is missing.",
    },
    "unexpected_field": {
        "de": "Das Feld „{field}“ ist hier nicht erlaubt.",
        "en": "The field “{field}” is not allowed here.",
    },
    "wrong_type": {
        "de": "Das Feld „{field}“ hat den falschen Typ (erwartet: {expected}).",
        "en": "The field “{field}” has the wrong type (expected: {expected}).",
    },
    "too_long": {
        "de": "Das Feld „{field}“ ist zu lang (höchstens {limit} Zeichen).",
        "en": "The field “{field}” is too long (at most {limit} characters).",
    },
    "too_short": {
        "de": "Das Feld „{field}“ ist zu kurz (mindestens {limit} Zeichen).",
        "en": "The field “{field}” is too short (at least {limit} characters).",
    },
    "not_allowed_value": {
        "de": "Das Feld „{field}“ hat einen unzulässigen Wert (erlaubt: {allowed}).",
        "en": "The field “{field}” has a value that is not allowed (allowed: {allowed}).",
    },
    "bad_json": {
        "de": "Die Anfrage muss gültiges JSON (ein Objekt) enthalten.",
        "en": "The request must contain valid JSON (an object).",
    },
    "unknown_route": {
        "de": "Unbekannte Adresse oder Methode: {path}",
        "en": "Unknown address or method: {path}",
    },
    "internal_error": {
        "de": "Interner Fehler. Bitte versuche es noch einmal.",
        "en": "Internal error. Please try again.",
    },
    # Chat.
    "chat_empty": {
        "de": "Die Nachricht ist leer.",
        "en": "The message is empty.",
    },
    "chat_rate_limited": {
        "de": "Zu viele Nachrichten: höchstens {limit} in {window} Sekunden. Bitte warte einen Moment.",
        "en": "Too many messages: at most {limit} in {window} seconds. Please wait a moment.",
    },
    # Accounts.
    "name_too_short": {
        "de": "Der Name ist zu kurz: mindestens {limit} Zeichen.",
        "en": "The name is too short: at least {limit} characters.",
    },
    "name_too_long": {
        "de": "Der Name ist zu lang: höchstens {limit} Zeichen.",
        "en": "The name is too long: at most {limit} characters.",
    },
    "name_bad_characters": {
        "de": "Der Name darf nur Buchstaben (auch Umlaute), Ziffern, „-“ und „_“ enthalten.",
        "en": "The name may contain only letters (umlauts too), digits, “-” and “_”.",
    },
    "name_reserved": {
        "de": "Namen, die mit „Gast-“ beginnen, sind für Gäste reserviert.",
        "en": "Names starting with “Gast-” are reserved for guests.",
    },
    "name_taken": {
        "de": "Der Name „{name}“ ist schon vergeben (Groß-/Kleinschreibung zählt nicht).",
        "en": "The name “{name}” is already taken (regardless of upper/lower case).",
    },
    "password_too_short": {
        "de": "Das Passwort ist zu kurz: mindestens {limit} Zeichen.",
        "en": "The password is too short: at least {limit} characters.",
    },
    "password_too_long": {
        "de": "Das Passwort ist zu lang: höchstens {limit} Zeichen.",
        "en": "The password is too long: at most {limit} characters.",
    },
    "login_failed": {
        "de": "Name oder Passwort ist falsch.",
        "en": "Wrong name or password.",
    },
    "login_throttled": {
        "de": "Zu viele Fehlversuche. Bitte warte {minutes} Minuten und versuche es dann noch einmal.",
        "en": "Too many failed attempts. Please wait {minutes} minutes and try again.",
    },
    "login_wait": {
        "de": "Zu viele Fehlversuche. Bitte warte {seconds} s und versuche es dann noch einmal.",
        "en": "Too many failed attempts. Please wait {seconds} s and try again.",
    },
    "guest_throttled": {
        "de": "Von deiner Adresse wurden in der letzten Stunde schon {limit} Gastzugänge angelegt."
              " Bitte versuche es in {minutes} Minuten noch einmal – oder melde dich mit deinem Konto an.",
        "en": "{limit} guest accounts have already been created from your address in the last hour."
              " Please try again in {minutes} minutes – or log in with your account.",
    },
    "table_throttled": {
        "de": "Du hast in der letzten Stunde schon {limit} Tische eröffnet. Bitte spiel an einem davon weiter"
              " oder versuche es in {minutes} Minuten noch einmal.",
        "en": "You have already opened {limit} tables in the last hour. Please play on at one of them"
              " or try again in {minutes} minutes.",
    },
    "challenge_throttled": {
        "de": "Du hast in der letzten Stunde schon {limit} Herausforderungen ausgesprochen (auch „Gegner suchen“"
              " und Revanchen). Bitte versuche es in {minutes} Minuten noch einmal.",
        "en": "You have already made {limit} challenges in the last hour (“Find an opponent” and rematches"
              " included). Please try again in {minutes} minutes.",
    },
    "invitation_throttled": {
        "de": "Du hast in der letzten Stunde schon {limit} Einladungen verschickt."
              " Bitte versuche es in {minutes} Minuten noch einmal.",
        "en": "You have already sent {limit} invitations in the last hour. Please try again in {minutes} minutes.",
    },
    "quick_throttled": {
        "de": "Du hast dich in der letzten Stunde schon {limit}-mal für eine Schnelle Partie angestellt."
              " Bitte versuche es in {minutes} Minuten noch einmal – oder fordere jemanden heraus.",
        "en": "You have already joined Quick match {limit} times in the last hour."
              " Please try again in {minutes} minutes – or challenge someone.",
    },
    "registration_throttled": {
        "de": "Von deiner Adresse wurden in der letzten Stunde schon {limit} Konten registriert."
              " Bitte versuche es in {minutes} Minuten noch einmal.",
        "en": "{limit} accounts have already been registered from your address in the last hour."
              " Please try again in {minutes} minutes.",
    },
    "already_registered": {
        "de": "Du bist schon angemeldet. Melde dich zuerst ab.",
        "en": "You are already registered. Please log out first.",
    },
    "not_logged_in": {
        "de": "Du bist nicht angemeldet.",
        "en": "You are not logged in.",
    },
    "ping_pending": {
        "de": "Die Antwort auf deinen letzten Ping ist noch unterwegs. Bitte warte auf sie, bevor du wieder pingst.",
        "en": "The answer to your last ping is still on its way. Please wait for it before you ping again.",
    },
    "session_ended": {
        "de": "Diese Sitzung ist abgemeldet. Bitte melde dich wieder an.",
        "en": "This session has been logged out. Please log in again.",
    },
    # Game pages: stars.
    "unknown_game": {
        "de": "Unbekanntes Spiel „{game}“.",
        "en": "Unknown game “{game}”.",
    },
    "stars_out_of_range": {
        "de": "Bitte vergib {low} bis {high} Sterne.",
        "en": "Please give {low} to {high} stars.",
    },
    "stars_not_played": {
        "de": "Bewerten kann nur, wer das Spiel schon gespielt hat. Spiel zuerst eine Partie.",
        "en": "Only players who have played this game may rate it. Play a game first.",
    },
}


def pick_language(value: object) -> str:
    """``value`` if it names a supported language, else the default (German)."""
    return value if isinstance(value, str) and value in LANGUAGES else DEFAULT_LANGUAGE


def request_language(request: Any) -> str:  # a Flask/werkzeug Request
    """The language an HTTP request asks for, the same in every service: the ``X-Lang``
    header (what the web client sends everywhere), else ``?lang=`` (a link cannot carry a
    header: the record download), else ``Accept-Language``; German by default."""
    for asked in (request.headers.get("X-Lang"), request.args.get("lang")):
        if asked in LANGUAGES:
            return asked
    return pick_language(request.accept_languages.best_match(LANGUAGES))


def text(code: str, lang: str, **params: object) -> str:
    """The message for ``code`` in ``lang`` with ``params`` filled in."""
    entry = TEXTS.get(code) or TEXTS["internal_error"]
    return entry[pick_language(lang)].format(**params)
