"""Game night on the web: the table pages and the table API (docs/game-night.md), thin over
hashi_print.jobs.table; live updates go to every page as server-sent events."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import socket
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

import anyio
import segno
from sse_starlette import EventSourceResponse
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from hashi_print.errors import HashiError
from hashi_print.game.board import builtin_side
from hashi_print.i18n import N_, language
from hashi_print.jobs.solo import side_json
from hashi_print.jobs.table import paper, service
from hashi_print.jobs.table.model import NoTable, TableError, TooLarge, clean_code
from hashi_print.jobs.table.store import Event, TableStore, default_path, events_after, last_event
from hashi_print.web.reading import check_origin, http_status, read_json, request_language

log = logging.getLogger(__name__)

MAX_JSON = 32 * 1024
Handler = Callable[..., Awaitable[Response]]  # an API route's handler
POLL_SECONDS = 0.1          # how often a process looks for events another process stored
PING_SECONDS = 15
PAGES = {
    "/table/new": ("table_new.html", N_("New table")),
    "/table/{code}": ("table_play.html", N_("Game night")),
    "/table/{code}/host": ("table_host.html", N_("Game night: host")),
}
# One photo is read at a time: reading takes a core for a second or two, and the server has few.
_READERS = anyio.CapacityLimiter(1)


@dataclass(frozen=True)
class TableConfig:
    """Where the tables are stored (None: the user's data folder) and the address players join at
    (None: the address the host's browser used)."""

    db: str | None = None
    public_url: str | None = None


@dataclass(eq=False)
class Hub:
    """This process's side of the event streams: pages subscribe per table; one poller reads the events
    every process stores and hands each to the pages of its table."""

    config: TableConfig
    _store: TableStore | None = None
    pages: dict[str, set[asyncio.Queue[Event]]] = field(default_factory=lambda: defaultdict(set))
    last: int = 0
    wake: asyncio.Event | None = None
    poller: asyncio.Task[None] | None = None

    @property
    def store(self) -> TableStore:
        """The table store, opened on first use."""
        if self._store is None:
            self._store = TableStore(self.config.db or default_path())
        return self._store

    def subscribe(self, code: str) -> asyncio.Queue[Event]:
        """A queue that receives the table's events from now on."""
        queue: asyncio.Queue[Event] = asyncio.Queue()
        if self.poller is None or self.poller.done():
            self.last = last_event(self.store.db)
            self.wake = asyncio.Event()
            self.poller = asyncio.get_running_loop().create_task(self._poll())
        self.pages[code].add(queue)
        return queue

    def unsubscribe(self, code: str, queue: asyncio.Queue[Event]) -> None:
        """Stop sending the table's events to this queue."""
        self.pages[code].discard(queue)
        if not self.pages[code]:
            del self.pages[code]

    def changed(self) -> None:
        """Look for new events now (this process just stored some)."""
        if self.wake is not None:
            self.wake.set()

    async def _poll(self) -> None:
        """Hand every new event to the pages of its table while any page listens."""
        while self.pages:
            for event in events_after(self.store.db, self.last):
                self.last = event.id
                for queue in self.pages.get(event.code, ()):
                    queue.put_nowait(event)
            wake = self.wake
            if wake is None:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), POLL_SECONDS)
            wake.clear()


# --- requests -----------------------------------------------------------------------------------

def bearer(request: Request) -> str | None:
    """The token of an `Authorization: Bearer ...` header, or None."""
    kind, _sep, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if kind.lower() == "bearer" else None


async def json_body(request: Request) -> dict[str, Any]:
    """A JSON object body of at most MAX_JSON bytes, sent in time (no body: an empty object)."""
    return await read_json(request, request.app.state.settings.body_seconds, MAX_JSON)


def answer(status: int = 200) -> Callable[[Callable[..., Awaitable[object]]], Handler]:
    """Wrap an API handler: its object as JSON, refused input with its status, any other problem as 400."""
    def wrap(work: Callable[..., Awaitable[object]]) -> Handler:
        async def handler(request: Request, hub: Hub) -> Response:
            try:
                if request.method == "POST":
                    check_origin(request)
                with language(request_language(request)):
                    result = await work(request, hub)
                hub.changed()
                return result if isinstance(result, Response) else JSONResponse(result, status_code=status)
            except HashiError as err:
                return JSONResponse({"error": " ".join(str(err).split())}, status_code=http_status(err))
            except Exception:
                log.exception("request to %s failed", request.url.path)
                return JSONResponse({"error": "the server could not handle this request"}, status_code=400)
        return handler
    return wrap


def join_url(request: Request, hub: Hub, code: str) -> str:
    """The address players open to join: the server's public one when it has one, else the host's."""
    base = hub.config.public_url or str(request.base_url)
    return f"{base.rstrip('/')}/table/{code}"


@answer(201)
async def create_table(request: Request, hub: Hub) -> object:
    """POST /api/tables: a new table; its code, the host's token and the join link."""
    body = await json_body(request)
    made = service.create(hub.store, body.get("side"), body.get("seed"), body.get("keep_photos", False))
    return made | {"join_url": join_url(request, hub, made["code"])}


@answer(201)
async def join_table(request: Request, hub: Hub) -> object:
    """POST /api/tables/{code}/players: a seat for a new player."""
    body = await json_body(request)
    address = request.client.host if request.client else "unknown"
    return service.join(hub.store, request.path_params["code"], body.get("name"), body.get("mode", "phone"),
                        address)


@answer()
async def setup(request: Request, hub: Hub) -> object:
    """POST /api/tables/{code}/setup: the setup numeral for the player on the left."""
    body = await json_body(request)
    return service.give_setup(hub.store, request.path_params["code"], bearer(request), body.get("island"),
                              body.get("numeral"))


@answer()
async def reveal(request: Request, hub: Hub) -> object:
    """POST /api/tables/{code}/reveal: the next card (host only)."""
    return service.reveal(hub.store, request.path_params["code"], bearer(request))


@answer()
async def turn(request: Request, hub: Hub) -> object:
    """POST /api/tables/{code}/turns/{turn}: a phone player's turn on their own sheet."""
    body = await json_body(request)
    number = request.path_params["turn"]
    if not number.isdigit() or len(number) > 3:
        raise TableError("the turn in the address must be a number from 1 to 17")
    return service.play(hub.store, request.path_params["code"], bearer(request), int(number),
                        body.get("numeral"), body.get("bridges", []))


@answer()
async def sheet(request: Request, hub: Hub) -> object:
    """POST /api/tables/{code}/sheet: a paper player's sheet, as a photo (multipart `photo`) or typed."""
    code, token = request.path_params["code"], bearer(request)
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        return service.hand_in_typed(hub.store, code, token, (await json_body(request)).get("sheet"))
    table, seat = service.paper_seat(hub.store, code, token)
    declared = request.headers.get("content-length", "")
    if not declared.isdigit() or int(declared) > paper.MAX_PHOTO_BYTES + 64 * 1024:
        raise TooLarge(f"the photo must be at most {paper.MAX_PHOTO_BYTES // 2**20} MB "
                       f"(and the request must say its length)")
    async with request.form(max_files=1, max_fields=2) as form:
        upload = form.get("photo")
        if upload is None or isinstance(upload, str):
            raise TableError('send the photo as the multipart field "photo"')
        data = await upload.read(paper.MAX_PHOTO_BYTES + 1)
    reading = await anyio.to_thread.run_sync(paper.read_photo, data, table.board, limiter=_READERS)
    return service.hand_in_reading(hub.store, table, seat, reading, data)


@answer()
async def settle(request: Request, hub: Hub) -> object:
    """POST /api/tables/{code}/sheet/settle: the value the player taps for one doubt of their photo."""
    body = await json_body(request)
    return service.settle(hub.store, request.path_params["code"], bearer(request), body.get("field"),
                          body.get("where"), body.get("value"))


@answer()
async def view(request: Request, hub: Hub) -> object:
    """GET /api/tables/{code}: the table as anyone with the code sees it, with its board side drawn."""
    shown = service.table_view(hub.store, request.path_params["code"])
    return shown | {"layout": _side_view(shown["side"])}


@answer()
async def me(request: Request, hub: Hub) -> object:
    """GET /api/tables/{code}/me: a player's own seat (their token says which)."""
    return service.seat_view(hub.store, request.path_params["code"], bearer(request))


@answer()
async def record(request: Request, hub: Hub) -> object:
    """GET /api/tables/{code}/players/{seat}/record: a seat's record or sheet as a text file."""
    seat = request.path_params["seat"]
    if not seat.isdigit() or len(seat) > 2:
        raise TableError("the seat in the address must be a number")
    name, text = service.seat_record(hub.store, request.path_params["code"], int(seat))
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@answer()
async def events(request: Request, hub: Hub) -> object:
    """GET /api/tables/{code}/events: the table's events as they happen (join, setup, reveal, done,
    scoreboard); a page that reconnects gets what it missed (Last-Event-ID or ?after=)."""
    code = clean_code(request.path_params["code"])
    service.table_view(hub.store, code)
    since = request.headers.get("last-event-id") or request.query_params.get("after", "0")
    if not since.isdigit() or len(since) > 18:
        raise TableError("the last event must be a number")
    return EventSourceResponse(_stream(hub, code, int(since)), ping=PING_SECONDS,
                               headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _stream(hub: Hub, code: str, since: int) -> AsyncIterator[dict[str, Any]]:
    """The events of one table after `since`: first those stored, then each as it comes."""
    queue = hub.subscribe(code)
    try:
        sent = since
        for event in events_after(hub.store.db, since, code):
            yield _sse(event)
            sent = event.id
        while True:
            event = await queue.get()
            if event.id > sent:
                yield _sse(event)
                sent = event.id
    finally:
        hub.unsubscribe(code, queue)


def _sse(event: Event) -> dict[str, Any]:
    """An event in the form the event-stream response writes."""
    return {"event": event.kind, "id": str(event.id), "data": event.data}


@cache
def _side_view(side: str) -> dict[str, Any]:
    """A board side as the pages draw it (the same view as the solo game's)."""
    return side_json(builtin_side(side))


async def qr_code(request: Request, hub: Hub) -> Response:
    """GET /table/{code}/qr.svg: the join link as a QR code, made here (nothing leaves the server)."""
    try:
        code = clean_code(request.path_params["code"])
    except NoTable as err:
        return JSONResponse({"error": str(err)}, status_code=404)
    out = io.BytesIO()
    segno.make(join_url(request, hub, code), error="m").save(out, kind="svg", scale=1, border=2,
                                                             xmldecl=False, dark="#000", light="#fff")
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})


async def page(request: Request, hub: Hub, template: str, title: str) -> Response:
    """A table page, rendered as the app's other pages."""
    from hashi_print.web.app import show_page

    return await show_page(request, template, title)


def routes(config: TableConfig | None = None) -> list[BaseRoute]:
    """Every table route, sharing one hub (and so one store) per app."""
    hub = Hub(config or TableConfig())
    api = "/api/tables/{code}"
    calls = [("/api/tables", create_table, "POST"), (f"{api}/players", join_table, "POST"),
             (f"{api}/setup", setup, "POST"), (f"{api}/reveal", reveal, "POST"),
             (f"{api}/turns/{{turn}}", turn, "POST"), (f"{api}/sheet", sheet, "POST"),
             (f"{api}/sheet/settle", settle, "POST"), (api, view, "GET"), (f"{api}/me", me, "GET"),
             (f"{api}/events", events, "GET"), (f"{api}/players/{{seat}}/record", record, "GET"),
             ("/table/{code}/qr.svg", qr_code, "GET")]
    out: list[BaseRoute] = [Route(path, partial(handler, hub=hub), methods=[method])
                            for path, handler, method in calls]
    out += [Route(path, partial(page, hub=hub, template=template, title=title))
            for path, (template, title) in PAGES.items()]
    return out


def lan_address() -> str | None:
    """This machine's address on the local network (the one its default route uses), or None.

    Connecting a UDP socket sends nothing; it only makes the system choose the outgoing address.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            found = probe.getsockname()[0]
        except OSError:
            return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found


LAN_WARNING = ("warning: every device on this network can now open the app: anyone who reaches this address "
               "can make tables, and anyone with a table's code can watch it and join before the first card. "
               "Codes and tokens travel unencrypted (plain HTTP). Serve on a network you trust and stop the "
               "server after the game.")


def table_config(host: str, port: int, db: str | None, announce: Callable[[str], None]) -> TableConfig:
    """The tables' settings for `serve`: the store (opened now, so a bad --db fails before the server
    starts) and, when the server listens beyond this computer, the join address, announced with a warning."""
    TableStore(Path(db) if db else default_path()).close()
    if host in ("0.0.0.0", "::"):
        found = lan_address()
    elif host.startswith("127.") or host in ("localhost", "::1"):
        return TableConfig(db)
    else:
        found = host
    if found is None:
        announce("no local network address found: players join at this computer's address, port "
                 f"{port}, /table/CODE")
        announce(LAN_WARNING)
        return TableConfig(db)
    url = f"http://{f'[{found}]' if ':' in found else found}:{port}"
    announce(f"game night: players join at {url}/table/CODE (the host page at {url}/table/new shows "
             f"the code and a QR code)")
    announce(LAN_WARNING)
    return TableConfig(db, url)
