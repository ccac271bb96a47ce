"""The web app: pages, their static files and a JSON API, all thin over the library (see tasks.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import re
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from types import FrameType
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from hashi_print.errors import HashiError, OptionError
from hashi_print.game.scoring import SoloLevel, load_scoring
from hashi_print.i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    N_,
    _,
    language,
    ngettext,
    pgettext,
    plural_forms,
    translations,
)
from hashi_print.options import Backend, CardEncoding, Mode, default, values
from hashi_print.puzzle.model import GRADES
from hashi_print.web import tables, tasks
from hashi_print.web.phrases import phrase_breaks
from hashi_print.web.pool import Busy, WorkPool
from hashi_print.web.reading import (
    LANG_COOKIE,
    BadRequest,
    check_origin,
    choice_field,
    http_status,
    int_field,
    read_json,
    request_language,
    text_field,
)

if TYPE_CHECKING:
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

MAX_SEED = 2**48
# Game night: every player's and host's page holds an event stream open (50 tables of 4 players and
# their hosts are 250 streams), besides the requests.
MAX_CONNECTIONS = 600
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# path -> (template, title: a message, or a (context, message) pair)
PAGES: dict[str, tuple[str, str | tuple[str, str]]] = {
    "/": ("home.html", "Hashi"),
    "/play": ("play.html", N_("Play a puzzle")),
    "/new": ("new.html", N_("New puzzle")),
    "/lab": ("lab.html", N_("Solver lab")),
    "/game": ("game.html", N_("Hashi solo")),
    "/cards": ("cards.html", N_("Card flipper")),
    "/help": ("help.html", ("web", N_("How to play"))),
    "/mine": ("mine.html", N_("My puzzles")),
}
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".png": "image/png", ".svg": "image/svg+xml", ".json": "application/json"}


@dataclass(frozen=True)
class Settings:
    """How the server runs: worker processes, one job's time limit, the queue, slow clients, and the
    game-night tables."""

    workers: int = 2
    seconds: float = 10.0
    small_workers: int = 1
    queue: int = 32
    memory_mb: int = 2048
    body_seconds: float = 10.0
    idle_seconds: int = 5
    tables: tables.TableConfig = tables.TableConfig()

    def __post_init__(self) -> None:
        if not math.isfinite(self.seconds) or self.seconds <= 0:
            raise OptionError(f"--time-limit {self.seconds}: use a number of seconds")


def _static_files() -> dict[str, tuple[bytes, str]]:
    """Read the packaged static files once; requests only ever look names up in this table."""
    out = {}
    for entry in resources.files("hashi_print.web").joinpath("static").iterdir():
        suffix = entry.name[entry.name.rfind("."):]
        if entry.is_file() and suffix in _TYPES:
            out[entry.name] = (entry.read_bytes(), _TYPES[suffix])
    return out


def _font_files() -> dict[str, bytes]:
    """The packaged Korean and Japanese faces the style sheet names, read once."""
    folder = resources.files("hashi_print").joinpath("fonts")
    return {entry.name: entry.read_bytes() for entry in folder.iterdir() if entry.name.endswith(".ttf")}


# --- the scripts' messages -------------------------------------------------------------------

# The message ids in the scripts: _("...") and ngettext("...", "..."), double-quoted on one line, the
# same calls `make catalogs` extracts with Babel (a test checks that both find the same messages).
_JS_STRING = r'"(?:[^"\\\n]|\\.)*"'
_JS_GETTEXT = re.compile(rf"(?<![\w.$])_\(\s*({_JS_STRING})")
_JS_NGETTEXT = re.compile(rf"(?<![\w.$])ngettext\(\s*({_JS_STRING})\s*,\s*({_JS_STRING})")


def script_messages(sources: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The plain and the plural (singular) message ids the scripts' sources mark."""
    plain = {json.loads(m) for src in sources for m in _JS_GETTEXT.findall(src)}
    plural = {json.loads(one) for src in sources for one, _many in _JS_NGETTEXT.findall(src)}
    return frozenset(plain), frozenset(plural)


def designed_words() -> frozenset[str]:
    """Words the API sends as they are in the designed data (the solo ratings), translated by the page."""
    scoring = load_scoring()
    return frozenset(word for bands in scoring.ratings.values() for _low, word in bands)


def script_catalog(lang: str, plain: frozenset[str], plural: frozenset[str]) -> dict[str, str | list[str]]:
    """The translations a page's scripts need: message id -> text, or -> its plural forms in order."""
    if lang == "en":
        return {}
    found = translations(lang)
    out: dict[str, str | list[str]] = {m: found.gettext(m) for m in sorted(plain)}
    for one in sorted(plural):
        out[one] = plural_forms(lang, one)
    return out


def embedded_json(obj: object) -> str:
    """JSON safe to put inside a <script> element (no closing tag, no HTML comment can start)."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")





def seed_field(body: dict[str, Any]) -> int:
    """The seed given, or a fresh random one."""
    if body.get("seed") is None:
        return random.SystemRandom().randrange(MAX_SEED)
    return int_field(body, "seed", 0, MAX_SEED)


def turns_field(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The turns of a solo game: each {"number": "D5" | null, "bridges": ["D-G", ...]}."""
    turns = body.get("turns", [])
    if not isinstance(turns, list) or len(turns) > 17:
        raise BadRequest('"turns" must be a list of at most 17 turns')
    out = []
    for turn in turns:
        if not isinstance(turn, dict):
            raise BadRequest('each turn must be an object {"number": ..., "bridges": [...]}')
        number = turn.get("number")
        bridges = turn.get("bridges", [])
        if number is not None and (not isinstance(number, str) or len(number) > 8):
            raise BadRequest('a turn\'s "number" must be a label and numeral like "D5", or null')
        if not isinstance(bridges, list) or len(bridges) > 6 or not all(
                isinstance(b, str) and len(b) <= 8 for b in bridges):
            raise BadRequest('a turn\'s "bridges" must be a list of lanes like "D-G"')
        out.append({"number": number, "bridges": bridges})
    return out


# --- the page language ------------------------------------------------------------------------

# --- the app ---------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Site:
    """What the handlers read, built once per app: templates, packaged files and the scripts' messages."""

    env: Environment
    static: dict[str, tuple[bytes, str]]
    fonts: dict[str, bytes]
    plain: frozenset[str]
    plural: frozenset[str]

    @classmethod
    def load(cls) -> Site:
        """Read the templates, static files, fonts and the messages the scripts use."""
        static = _static_files()
        env = Environment(loader=PackageLoader("hashi_print.web", "templates"),
                          autoescape=select_autoescape(), extensions=["jinja2.ext.i18n"])
        # The same catalogs as the printed products; they translate in the language of the request.
        env.install_gettext_callables(  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
            _, ngettext, newstyle=True, pgettext=pgettext)
        # The lab's choices are the options the solver takes (hashi_print/options.py), listed once.
        env.globals["choices"] = {"backend": values(Backend), "card": values(CardEncoding)}
        plain, plural = script_messages([body.decode() for body, kind in static.values()
                                         if "javascript" in kind])
        return cls(env, static, _font_files(), plain | designed_words(), plural)


@cache
def _messages(site: Site, lang: str) -> str:
    """The scripts' catalog for `lang` as JSON for the page (computed once per site and language)."""
    return embedded_json(script_catalog(lang, site.plain, site.plural))


def _site(request: Request) -> Site:
    """The app's Site."""
    site: Site = request.app.state.site
    return site


def _pool(request: Request) -> WorkPool:
    """The app's worker pool."""
    pool: WorkPool = request.app.state.pool
    return pool


def render_page(request: Request, template: str, title: str | tuple[str, str], lang: str) -> str:
    """A page's HTML in `lang`; Japanese text gets <wbr> at its phrase boundaries."""
    site = _site(request)
    with language(lang):
        shown = pgettext(*title) if isinstance(title, tuple) else _(title)
        html = site.env.get_template(template).render(title=shown, path=request.url.path, pages=PAGES,
                                                      lang=lang, languages=LANGUAGE_NAMES,
                                                      messages=Markup(_messages(site, lang)))
    return phrase_breaks(html) if lang == "ja" else html


async def show_page(request: Request, template: str, title: str | tuple[str, str]) -> Response:
    """One of PAGES, in the request's language (remembered in a cookie when chosen by ?lang=)."""
    lang = request_language(request)
    html = render_page(request, template, title, lang)
    headers = {"Content-Language": lang, "Vary": "Accept-Language, Cookie"}
    response = HTMLResponse(html, headers=headers)
    if request.query_params.get("lang", "").lower() in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


async def static_file(request: Request) -> Response:
    """A packaged script, style sheet or image, by name."""
    found = _site(request).static.get(request.path_params["name"])
    if found is None:
        raise HTTPException(404)
    return Response(found[0], media_type=found[1], headers={"Cache-Control": "no-cache"})


async def font_file(request: Request) -> Response:
    """A packaged Korean or Japanese face, by name."""
    found = _site(request).fonts.get(request.path_params["name"])
    if found is None:
        raise HTTPException(404)
    return Response(found, media_type="font/ttf", headers={"Cache-Control": "max-age=86400"})


async def not_found(request: Request, exc: Exception) -> Response:
    """An HTTP error: JSON for the API, a short page in the request's language otherwise."""
    # Registered for HTTPException only; starlette's handler type takes any exception.
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": f"{status}: no such API call"}, status_code=status)
    if status == 404:
        lang = request_language(request)
        html = render_page(request, "404.html", N_("Page not found"), lang)
        return HTMLResponse(html, status_code=404, headers={"Content-Language": lang})
    with language(request_language(request)):
        words, home = _("nothing here."), _("Home")
    return HTMLResponse(f"<!doctype html><title>{status}</title><p>{status}: "
                        f"{words} <a href=\"/\">{home}</a></p>", status_code=status)


# --- the JSON API: each call reads its fields from the body and runs one task in the pool ------

Work = Callable[[dict[str, Any], WorkPool], Awaitable[object]]
# A puzzle text this short has few islands: its job is quick, so it may use the workers kept for such jobs.
SMALL_PUZZLE = 200


async def api_call(request: Request, work: Work) -> Response:
    """Answer a POST to the API: the task's object as JSON, or an error in one line.

    Bad input is 400 (403, 408, 415 for the request itself), a full queue 503 with Retry-After, and a
    bug in our code 500 with a request id that is also in the server's log.
    """
    try:
        check_origin(request)
        body = await read_json(request, request.app.state.settings.body_seconds)
        return JSONResponse(await work(body, _pool(request)))
    except Busy as err:
        return JSONResponse({"error": err.message}, status_code=503,
                            headers={"Retry-After": str(err.retry_after)})
    except HashiError as err:
        return JSONResponse({"error": " ".join(str(err).split())}, status_code=http_status(err))
    except Exception:
        request_id = secrets.token_hex(6)
        log.exception("request %s to %s failed", request_id, request.url.path)
        return JSONResponse({"error": f"the server failed on this request (a bug; request id {request_id})",
                             "request_id": request_id}, status_code=500)


def _small(text: str) -> bool:
    """Whether a puzzle text is short enough that its job is quick."""
    return len(text) <= SMALL_PUZZLE


async def puzzle(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/puzzle: the puzzle as the board draws it."""
    return await pool.run(tasks.puzzle_view, text_field(body, "puzzle"),
                          choice_field(body, "lang", LANGUAGES, "en"), small=True)


async def solve(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/solve: the solution and the solver lab's statistics."""
    text = text_field(body, "puzzle")
    return await pool.run(tasks.solve_task, text, choice_field(body, "mode", values(Mode), default(Mode)),
                          choice_field(body, "backend", values(Backend), default(Backend)),
                          choice_field(body, "card", values(CardEncoding), default(CardEncoding)),
                          small=_small(text))


async def hint(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/hint: the next deduction for the bridges drawn so far."""
    text = text_field(body, "puzzle")
    return await pool.run(tasks.hint_task, text, text_field(body, "bridges", ""),
                          choice_field(body, "lang", LANGUAGES, "en"), small=_small(text))


async def check(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/check: the drawn bridges compared with the unique solution."""
    text = text_field(body, "puzzle")
    return await pool.run(tasks.check_task, text, text_field(body, "bridges", ""), small=_small(text))


async def generate(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/generate: one seeded puzzle of the asked size and grade."""
    width = int_field(body, "width", 5, tasks.MAX_GENERATE_SIDE)
    height = int_field(body, "height", 5, tasks.MAX_GENERATE_SIDE)
    return await pool.run(tasks.generate_task, width, height,
                          choice_field(body, "difficulty", tuple(GRADES), "medium"), seed_field(body),
                          small=width * height <= 100)


async def validate(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/validate: the validator's report on a typed sheet or record."""
    return await pool.run(tasks.validate_task, text_field(body, "text"), small=True)


async def deal(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/deal: the 17 cards of a seeded deal."""
    return await pool.run(tasks.deal_task, seed_field(body), small=True)


async def game_new(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/game/new: a solo game's side, goals and limits."""
    return await pool.run(tasks.game_task, choice_field(body, "side", ("a", "b"), "a"),
                          choice_field(body, "level", tuple(SoloLevel), "normal"), seed_field(body),
                          small=True)


async def game_play(body: dict[str, Any], pool: WorkPool) -> object:
    """/api/game/play: a solo game replayed by the rules engine, with its score and record at the end."""
    setup = body.get("setup")
    if setup is not None and (not isinstance(setup, str) or len(setup) > 8):
        raise BadRequest('"setup" must be a label and a 3 or 4, like "G4"')
    player = text_field(body, "player", "", 40).strip() or None
    return await pool.run(tasks.play_task, choice_field(body, "side", ("a", "b"), "a"),
                          choice_field(body, "level", tuple(SoloLevel), "normal"),
                          int_field(body, "seed", 0, MAX_SEED),
                          setup, turns_field(body), player,
                          choice_field(body, "lang", LANGUAGES, "en"), small=True)


API: dict[str, Work] = {
    "puzzle": puzzle, "solve": solve, "hint": hint, "check": check, "generate": generate,
    "validate": validate, "deal": deal, "game/new": game_new, "game/play": game_play,
}


def routes() -> list[Route]:
    """Every route: the pages, the packaged files and the API calls."""
    out = [Route(path, partial(show_page, template=template, title=title))
           for path, (template, title) in PAGES.items()]
    out.append(Route("/static/{name}", static_file))
    out.append(Route("/fonts/{name}", font_file))
    out.extend(Route(f"/api/{name}", partial(api_call, work=work), methods=["POST"])
               for name, work in API.items())
    return out


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Start the workers with the server and stop them with it."""
    await app.state.pool.warm()
    yield
    app.state.pool.close()


def create_app(settings: Settings | None = None, hosts: frozenset[str] | None = None) -> SecurityHeaders:
    """Build the web app with its worker pool; `hosts` are the Host headers it answers (None: any)."""
    settings = settings or Settings()
    app = Starlette(routes=[*routes(), *tables.routes(settings.tables)],
                    exception_handlers={HTTPException: not_found}, lifespan=lifespan)
    app.state.site = Site.load()
    app.state.settings = settings
    app.state.hosts = hosts
    app.state.pool = WorkPool(settings.workers, settings.seconds, preload=("hashi_print.web.tasks",),
                              small_workers=settings.small_workers, queue=settings.queue,
                              memory_mb=settings.memory_mb)
    return SecurityHeaders(app)


class SecurityHeaders:
    """ASGI middleware adding the Content-Security-Policy and friends to every response."""

    HEADERS = ((b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
               (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"))

    def __init__(self, app: Starlette):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


def allowed_hosts(host: str, port: int) -> frozenset[str] | None:
    """The Host headers a server listening on host:port answers: its own names (None when it listens on
    every address, where any name of the machine may be used)."""
    if host in ("0.0.0.0", "::", ""):
        return None
    names = {host.lower(), f"[{host}]" if ":" in host else host.lower()}
    if host in ("127.0.0.1", "::1", "localhost"):
        names |= {"localhost", "127.0.0.1", "[::1]"}
    return frozenset({*names, *(f"{name}:{port}" for name in names)})


def serve(host: str, port: int, settings: Settings, announce: Callable[[str], None]) -> None:
    """Run the app with uvicorn until Ctrl-C."""
    import uvicorn

    _check_free(host, port)
    app = create_app(settings, allowed_hosts(host, port))
    shown = f"[{host}]" if ":" in host else host
    announce(f"hashi-print web app on http://{shown}:{port}/  (Ctrl-C stops it)")
    server = uvicorn.Server(server_config(app, host, port, settings))
    stop_jobs_on_exit(server, app.app.state.pool)
    server.run()


def stop_jobs_on_exit(server: uvicorn.Server, pool: WorkPool) -> None:
    """On Ctrl-C, stop the jobs at once (their clients get 503) instead of making uvicorn wait for them."""
    first = server.handle_exit

    def handle_exit(sig: int, frame: FrameType | None) -> None:
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().call_soon(pool.close)
        first(sig, frame)

    server.handle_exit = handle_exit  # type: ignore[method-assign]  # uvicorn has no hook for this


def server_config(app: SecurityHeaders, host: str, port: int, settings: Settings) -> uvicorn.Config:
    """uvicorn's settings for the app: slow and idle clients are cut off, connections are capped."""
    import uvicorn

    # An idle connection, one that never sends a request included, is closed after idle_seconds; at
    # most MAX_CONNECTIONS are served at once (more get 503); Ctrl-C waits at most 5 s for requests.
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=_idle_closing_h11(),
                          timeout_keep_alive=settings.idle_seconds, limit_concurrency=MAX_CONNECTIONS,
                          timeout_graceful_shutdown=5)


def _idle_closing_h11() -> type[H11Protocol]:
    """uvicorn's h11 protocol, also closing a connection that sends nothing after it opens.

    uvicorn starts its keep-alive timer only after a first response; a client that connects and stays
    silent would hold its connection for ever. The timer is uvicorn's own (tests/web checks it works).
    """
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class IdleClosing(H11Protocol):
        """H11Protocol with the keep-alive timer running from the moment the connection opens, and the
        first request's head due within twice that time (a client trickling its headers is cut off)."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive,
                                                                self.timeout_keep_alive_handler)
            self.loop.call_later(2 * self.timeout_keep_alive, self._head_due)

        def _head_due(self) -> None:
            """Close the connection when its first request's head has still not arrived."""
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

    return IdleClosing


def _check_free(host: str, port: int) -> None:
    """Raise HashiError when the address cannot be listened on (taken, or not this machine's)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as err:
        raise HashiError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
