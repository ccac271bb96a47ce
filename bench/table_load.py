"""Game night under load: many tables play all 17 cards at once on one server, over loopback only.

Starts `hashi-print serve --db` on 127.0.0.1, makes TABLES tables of PLAYERS phone players each (every table's
players come from their own loopback address, 127.0.1.T, so the join limit per address holds as it would at
real tables), opens one event stream per player, then plays 17 rounds: every host reveals at the same moment,
and once a player's stream shows the card, that player sends a turn (a skip: the server still referees it).
It measures, per table and card, the time from the host sending the reveal to the last of its players'
streams receiving it, and counts every failed request or stream. Bounded: fixed counts and a time limit.

    python bench/table_load.py [--tables 50] [--players 4] [--limit 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CARDS = 17


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def request(port: int, method: str, path: str, body: dict | None = None, token: str | None = None,
                  source: str = "127.0.0.1") -> tuple[int, dict]:
    """One HTTP/1.1 request over a fresh loopback connection from `source`: (status, JSON answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    data = b"" if body is None else json.dumps(body).encode()
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
            f"Content-Length: {len(data)}", "Content-Type: application/json"]
    if token:
        head.append(f"Authorization: Bearer {token}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    status_line, _sep, rest = raw.partition(b"\r\n")
    _headers, _sep, payload = rest.partition(b"\r\n\r\n")
    try:
        return int(status_line.split()[1]), json.loads(payload or b"{}")
    except (IndexError, ValueError):
        return 0, {}


class Stream:
    """One player's event stream: the time each card's reveal arrived."""

    def __init__(self, port: int, code: str, source: str):
        self.port, self.code, self.source = port, code, source
        self.arrived: dict[int, float] = {}
        self.seen = asyncio.Event()
        self.failed = 0

    async def run(self) -> None:
        """Read the stream until the last card arrives."""
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                           local_addr=(self.source, 0))
            writer.write(f"GET /api/tables/{self.code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         f"Accept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            event = None
            while len(self.arrived) < CARDS:
                line = (await reader.readline()).decode().strip()
                if not line and reader.at_eof():
                    raise ConnectionError("the stream ended")
                if line.startswith("event:"):
                    event = line.split(":", 1)[1].strip()
                elif line.startswith("data:") and event == "reveal":
                    turn = json.loads(line.split(":", 1)[1])["turn"]
                    self.arrived[turn] = time.perf_counter()
                    self.seen.set()
            writer.close()
        except (OSError, ValueError, ConnectionError):
            self.failed += 1
            self.seen.set()


async def table(port: int, number: int, players: int) -> tuple[str, str, list[tuple[str, str]], int]:
    """Make one table and seat its players; return code, host token, (player token, address) and errors."""
    source = f"127.0.1.{number + 1}"
    errors = 0
    status, made = await request(port, "POST", "/api/tables", {"side": "A", "seed": number}, source=source)
    errors += status != 201
    code, host = made["code"], made["host_token"]
    seated = []
    for p in range(players):
        status, joined = await request(port, "POST", f"/api/tables/{code}/players",
                                       {"name": f"P{p}", "mode": "phone"}, source=source)
        errors += status != 201
        seated.append((joined["player_token"], source))
    for token, _src in seated:
        status, _ = await request(port, "POST", f"/api/tables/{code}/setup", {"island": "C", "numeral": 4},
                                  token, source)
        errors += status != 200
    return code, host, seated, errors


async def play_turn(port: int, code: str, stream: Stream, token: str, turn: int) -> int:
    """Wait for the card on the player's stream, then send a skip for it; return 1 on an error."""
    while turn not in stream.arrived and not stream.failed:
        stream.seen.clear()
        await stream.seen.wait()
    if stream.failed:
        return 1
    status, _ = await request(port, "POST", f"/api/tables/{code}/turns/{turn}",
                              {"numeral": None, "bridges": []}, token, stream.source)
    return int(status != 200)


async def reveal(port: int, n: int, code: str, host: str, sent: dict[int, float]) -> int:
    """The host of table `n` reveals the next card; its sending time goes into `sent`; 1 on an error."""
    sent[n] = time.perf_counter()
    status, _ = await request(port, "POST", f"/api/tables/{code}/reveal", token=host,
                              source=f"127.0.1.{n + 1}")
    return int(status != 200)


async def game(port: int, tables: int, players: int) -> dict:
    """Play every table's 17 cards at once; return the latencies and the errors."""
    made = await asyncio.gather(*(table(port, n, players) for n in range(tables)))
    errors = sum(m[3] for m in made)
    streams = [[Stream(port, code, src) for _token, src in seated] for code, _host, seated, _e in made]
    runs = [asyncio.create_task(s.run()) for group in streams for s in group]
    await asyncio.sleep(1.0)       # every stream is open before the first card
    latencies = []
    for turn in range(1, CARDS + 1):
        sent: dict[int, float] = {}
        errors += sum(await asyncio.gather(*(reveal(port, n, code, host, sent)
                                             for n, (code, host, _s, _e) in enumerate(made))))
        errors += sum(await asyncio.gather(*(play_turn(port, made[n][0], s, made[n][2][p][0], turn)
                                             for n, group in enumerate(streams)
                                             for p, s in enumerate(group))))
        for n, group in enumerate(streams):
            if all(turn in s.arrived for s in group):
                latencies.append(max(s.arrived[turn] for s in group) - sent[n])
    await asyncio.gather(*runs)
    errors += sum(s.failed for group in streams for s in group)
    return {"latencies": latencies, "errors": errors}


def main() -> None:
    """Run the benchmark and print its numbers."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--limit", type=float, default=300, help="seconds before the run is stopped")
    args = parser.parse_args()
    if not (1 <= args.tables <= 200 and 1 <= args.players <= 8):
        parser.error("--tables 1-200, --players 1-8")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([sys.executable, "-m", "hashi_print.cli", "serve", "--port", str(port),
                                   "--workers", "1", "--db", str(Path(folder) / "tables.sqlite")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 30
            while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            load = os.getloadavg()
            start = time.perf_counter()
            result = asyncio.run(asyncio.wait_for(game(port, args.tables, args.players), args.limit))
            seconds = time.perf_counter() - start
        finally:
            server.terminate()
            server.wait(timeout=20)
    ms = sorted(x * 1000 for x in result["latencies"])
    p95 = ms[min(len(ms) - 1, int(round(0.95 * len(ms))) - 1)] if ms else float("nan")
    print(f"tables {args.tables} x players {args.players}, {CARDS} cards: {len(ms)} reveals measured, "
          f"{result['errors']} errors, {seconds:.1f} s")
    print(f"reveal -> every player's stream: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
          f"max {ms[-1]:.1f} ms")
    print(f"machine: {os.cpu_count()} cores, load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, "
          f"after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
