"""The server holds under slow requests: a job over its limit ends alone, queue time is free, a full
queue is a 503, our bugs are 500s with a request id, and the local API refuses other sites and slow or
idle clients."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import uvicorn
from starlette.testclient import TestClient

from hashi_print.web import app as web_app
from hashi_print.web.app import Settings, allowed_hosts, create_app, server_config
from hashi_print.web.pool import Busy, TooSlow, WorkPool

SMALL = "7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a"
LATTICE = "\n".join("".join(("4" if 0 < r < 29 and 0 < c < 29 else "2") if r % 2 == 0 and c % 2 == 0 else "."
                            for c in range(30)) for r in range(30))


def test_a_slow_job_ends_alone_while_small_jobs_go_on():
    with TestClient(create_app(Settings(workers=1, seconds=2))) as c, ThreadPoolExecutor(4) as ex:
        heavy = [ex.submit(c.post, "/api/solve", json={"puzzle": LATTICE}) for _ in range(2)]
        time.sleep(0.3)
        started = time.monotonic()
        light = [c.post("/api/solve", json={"puzzle": SMALL}) for _ in range(6)]
        light_seconds = time.monotonic() - started
        answers = [f.result() for f in heavy]
    assert [r.status_code for r in light] == [200] * 6
    assert all(r.json()["status"] == "unique" for r in light)
    # The six light solves ran on the worker kept for small jobs, not behind the two slow ones.
    assert light_seconds < 2
    for r in answers:
        assert r.status_code == 400 and "stopped after 2 s" in r.json()["error"]


def test_time_waiting_in_the_queue_does_not_count():
    async def run() -> list[object]:
        pool = WorkPool(1, 1.5, small_workers=0)
        try:
            # Each job takes 1 s of a 1.5 s limit; the second waits 1 s for the worker first.
            return await asyncio.gather(*(pool.run(time.sleep, 1.0) for _ in range(2)),
                                        return_exceptions=True)
        finally:
            pool.close()

    assert asyncio.run(run()) == [None, None]


def test_a_full_queue_is_a_503_with_retry_after():
    with TestClient(create_app(Settings(workers=1, small_workers=0, seconds=3, queue=1))) as c, \
            ThreadPoolExecutor(4) as ex:
        busy = [ex.submit(c.post, "/api/solve", json={"puzzle": LATTICE}) for _ in range(2)]
        time.sleep(0.5)
        r = c.post("/api/solve", json={"puzzle": SMALL})
        assert r.status_code == 503 and r.headers["retry-after"] == "3"
        assert "busy" in r.json()["error"]
        assert sorted(f.result().status_code for f in busy) == [400, 400]


def test_a_job_cancelled_or_stopped_by_shutdown_is_never_a_500():
    async def run() -> tuple[object, object]:
        pool = WorkPool(1, 30, small_workers=0)
        await pool.warm()
        running = asyncio.ensure_future(pool.run(time.sleep, 20))
        await asyncio.sleep(0.1)
        waiting = asyncio.ensure_future(pool.run(time.sleep, 0.2))
        await asyncio.sleep(0.1)
        waiting.cancel()
        await asyncio.sleep(0.5)
        pool.close()
        stopped = (await asyncio.gather(running, return_exceptions=True))[0]
        return waiting.cancelled(), stopped

    cancelled, stopped = asyncio.run(run())
    assert cancelled
    assert isinstance(stopped, Busy) and "stopping" in stopped.message


def test_a_job_over_the_memory_cap_is_stopped_cleanly():
    async def run() -> object:
        pool = WorkPool(1, 30, small_workers=0, memory_mb=400)
        try:
            return (await asyncio.gather(pool.run(bytearray, 800 * 1024 * 1024), return_exceptions=True))[0]
        finally:
            pool.close()

    err = asyncio.run(run())
    assert isinstance(err, (TooSlow, web_app.HashiError)) and "memory" in str(err)


async def _broken(body: dict, pool: WorkPool) -> object:
    """An API call with a bug in it."""
    return {"half": 1 / 0}


def test_a_bug_in_our_code_is_a_500_with_a_logged_request_id(monkeypatch, caplog):
    monkeypatch.setitem(web_app.API, "deal", _broken)
    with caplog.at_level(logging.ERROR), TestClient(create_app(Settings(workers=1))) as c:
        r = c.post("/api/deal", json={})
        bad = c.post("/api/solve", json={"puzzle": "7x7m2:zzz"})
    assert r.status_code == 500
    request_id = r.json()["request_id"]
    assert request_id in r.json()["error"]
    assert any(request_id in rec.getMessage() and rec.exc_info for rec in caplog.records)
    assert bad.status_code == 400 and "request_id" not in bad.json()


def test_other_sites_other_hosts_and_non_json_bodies_are_refused():
    hosts = allowed_hosts("127.0.0.1", 8000)
    with TestClient(create_app(Settings(workers=1), hosts), base_url="http://127.0.0.1:8000") as c:
        assert c.post("/api/deal", json={"seed": 1}).status_code == 200
        same = c.post("/api/deal", json={"seed": 1}, headers={"Origin": "http://127.0.0.1:8000"})
        assert same.status_code == 200
        for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"},
                        {"Host": "evil.example:8000"}, {"Sec-Fetch-Site": "cross-site"}):
            r = c.post("/api/deal", json={"seed": 1}, headers=headers)
            assert r.status_code == 403 and r.json()["error"], headers
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
            r = c.post("/api/deal", content=b'{"seed": 1}', headers={"Content-Type": kind})
            assert r.status_code == 415 and "application/json" in r.json()["error"]
        assert c.get("/help", headers={"Host": "localhost:8000"}).status_code == 200


@pytest.fixture
def live():
    """The app under uvicorn with the server's own settings, short client timeouts, on a free port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings(workers=1, body_seconds=1.0, idle_seconds=1)
    server = uvicorn.Server(server_config(create_app(settings, allowed_hosts("127.0.0.1", port)),
                                          "127.0.0.1", port, settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(10)


def _closed_within(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Read until the server closes the connection; whether it did within `seconds`, and what it sent."""
    sock.settimeout(seconds)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        return False, got
    return True, got


def test_slow_bodies_and_idle_connections_are_cut_off(live):
    with socket.create_connection(("127.0.0.1", live)) as slow:
        slow.sendall(b"POST /api/deal HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{" % live)
        started = time.monotonic()
        closed, got = _closed_within(slow, 8)
        assert got.startswith(b"HTTP/1.1 408") and time.monotonic() - started < 5
    with socket.create_connection(("127.0.0.1", live)) as idle:
        started = time.monotonic()
        closed, got = _closed_within(idle, 8)
        assert closed and got == b"" and time.monotonic() - started < 5
    with socket.create_connection(("127.0.0.1", live)) as trickle:
        started = time.monotonic()
        trickle.settimeout(0.1)
        for part in (b"POST /api/deal HTTP/1.1\r\n", b"Host: 127.0.0.1\r\n", *[b"X-Slow: 1\r\n"] * 10):
            try:
                trickle.sendall(part)
                assert trickle.recv(1) == b""   # the server closed the connection
                break
            except TimeoutError:
                time.sleep(0.5)
            except OSError:
                break
        assert time.monotonic() - started < 4.5


def _post_status(url: str, puzzle: str, answer: dict) -> None:
    """POST a solve and keep the HTTP status (or the connection error) in answer["status"]."""
    body = json.dumps({"puzzle": puzzle}).encode()
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    try:
        answer["status"] = urllib.request.urlopen(req, timeout=30).status
    except urllib.error.HTTPError as err:
        answer["status"] = err.code
    except OSError as err:
        answer["status"] = repr(err)


def test_ctrl_c_on_serve_is_quiet_idle_and_with_a_job_in_flight():
    for with_job in (False, True):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = subprocess.Popen([sys.executable, "-m", "hashi_print.cli", "serve", "--port", str(port),
                                 "--time-limit", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        base = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/help", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        answer = {}
        if with_job:
            asker = threading.Thread(target=_post_status, args=(base + "/api/solve", LATTICE, answer))
            asker.start()
            time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=20)
        if with_job:
            asker.join(20)
            assert answer["status"] in (503, 200), answer
        assert "Traceback" not in err and len(err.splitlines()) <= 2, err


def test_large_jobs_run_at_a_lower_priority_than_small_ones():
    async def run() -> tuple[object, object]:
        pool = WorkPool(1, 10, small_workers=1)
        try:
            await pool.warm()
            return await pool.run(os.nice, 0), await pool.run(os.nice, 0, small=True)
        finally:
            pool.close()

    large, small = asyncio.run(run())
    assert (large, small) == (os.nice(0) + 10, os.nice(0))
