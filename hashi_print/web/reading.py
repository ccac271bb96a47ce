"""Reading requests, shared by the app's API and the game-night tables: the JSON body and its fields,
the check that a request comes from our own pages, and the language to answer in."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.requests import Request

from hashi_print.errors import HashiError, RefusedRequest
from hashi_print.i18n import LANGUAGES

MAX_BODY = 64 * 1024
MAX_TEXT = 20_000
LANG_COOKIE = "lang"


class BadRequest(RefusedRequest):
    """A request the API cannot use: wrong JSON, a missing or out-of-range field."""

    status = 400


class UnsupportedType(BadRequest):
    """A body that is not declared as JSON (a plain form or text, as any web page can send)."""

    status = 415


class SlowClient(BadRequest):
    """A body that did not arrive in time."""

    status = 408


class TooLarge(BadRequest):
    """A body or upload over its size cap."""

    status = 413


class Forbidden(BadRequest):
    """A state-changing request from another site, or for another host name (DNS rebinding)."""

    status = 403


def http_status(err: HashiError) -> int:
    """The HTTP status a refused input answers with: its own, else 400."""
    return err.status if isinstance(err, RefusedRequest) else 400


async def read_json(request: Request, seconds: float = 10.0, limit: int = MAX_BODY) -> dict[str, Any]:
    """Read a JSON object body of at most `limit` bytes, sent within `seconds` (no body: an empty object)."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    # Any page on the web may send a form or plain text without asking first; only JSON is read.
    if kind and kind != "application/json":
        raise UnsupportedType("the request body must be JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > limit:
        raise TooLarge(f"the request body must be at most {limit} bytes")
    body = b""
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise TooLarge(f"the request body must be at most {limit} bytes")
    except TimeoutError:
        raise SlowClient(f"the request body did not arrive within {seconds:g} s") from None
    if body and not kind:
        raise UnsupportedType("the request body must be JSON (Content-Type: application/json)")
    try:
        obj = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest("the request body is not valid JSON") from None
    if not isinstance(obj, dict):
        raise BadRequest("the request body must be a JSON object")
    return obj


def text_field(body: dict[str, Any], key: str, default: str | None = None, limit: int = MAX_TEXT) -> str:
    """A string field of the body, at most `limit` characters."""
    value = default if body.get(key) is None else body[key]
    if not isinstance(value, str):
        raise BadRequest(f'"{key}" must be a string' if key in body else f'"{key}" is missing')
    if len(value) > limit:
        raise BadRequest(f'"{key}" is longer than {limit} characters')
    return value


def int_field(body: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    """An integer field of the body between low and high."""
    value = body.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequest(f'"{key}" must be an integer' if key in body else f'"{key}" is missing')
    if not low <= value <= high:
        raise BadRequest(f'"{key}" must be between {low} and {high}')
    return value


def choice_field(body: dict[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    """A field that must be one of `choices` (any case)."""
    value = text_field(body, key, default, 40).lower()
    if value not in choices:
        raise BadRequest(f'"{key}" must be one of {", ".join(choices)}')
    return value


def check_origin(request: Request) -> None:
    """Refuse a request for another host name, or sent by a page of another site."""
    host = request.headers.get("host", "")
    allowed = request.app.state.hosts
    if allowed and host.lower() not in allowed:
        raise Forbidden(f"this server does not answer for the host {host[:60]!r}")
    origin = request.headers.get("origin")
    if origin is not None and origin.lower() not in {f"http://{h}" for h in (allowed or {host.lower()})}:
        raise Forbidden("requests from other sites are refused")
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        raise Forbidden("requests from other sites are refused")


def accepted_language(header: str) -> str:
    """The best of the product's languages in an Accept-Language header (by q-value), else English."""
    best, best_q = "en", 0.0
    for part in header.split(",")[:32]:
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best


def request_language(request: Request) -> str:
    """The language a page is shown in: ?lang=, else the one chosen before (cookie), else the browser's."""
    for chosen in (request.query_params.get("lang", ""), request.cookies.get(LANG_COOKIE, "")):
        if chosen.lower() in LANGUAGES:
            return chosen.lower()
    return accepted_language(request.headers.get("accept-language", ""))
