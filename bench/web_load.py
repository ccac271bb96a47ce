"""Load test of the web app on the loopback: a few heavy requests must not slow everyone else down.

Starts `hashi-print serve` on a free loopback port. HEAVY clients each send, again and again, a solve
of the 30x30 lattice that no solver proves within the time limit (each one runs to the limit and is
stopped); LIGHT clients each send solves of the README's 7x7 puzzle one after another, with no pause.
After SECONDS it prints, for the light requests, their count, median, p95 and maximum latency, and for
all requests the count of each status and of 5xx answers, with the machine's load average.

    .venv/bin/python bench/web_load.py --heavy 2 --light 18 --seconds 30

The players scenario (`--scenario players`) lets CLIENTS simulated players each send hint and check
requests on 15x15 puzzles with a think time between them, then times generating 15x15 hard puzzles:

    .venv/bin/python bench/web_load.py --scenario players --clients 50 --seconds 30

Bounded: at most 64 clients and 120 s, and only the loopback is used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter

import httpx2

from hashi_print.puzzle.deduce import island_names, lane_name
from hashi_print.puzzle.formats import parse_puzzle
from hashi_print.puzzle.solve import solve

LIGHT = "7x7m2:3c5a1c1a1b2b2b2g4a5a4h2d2a"
HEAVY = "\n".join("".join(("4" if 0 < r < 29 and 0 < c < 29 else "2") if r % 2 == 0 and c % 2 == 0 else "."
                          for c in range(30)) for r in range(30))


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank, in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


async def client(http: httpx2.AsyncClient, puzzle: str, until: float, times: list[float],
                 statuses: Counter) -> None:
    """Send solves of `puzzle` one after another until time is up, keeping latencies and statuses."""
    while time.monotonic() < until:
        start = time.perf_counter()
        try:
            r = await http.post("/api/solve", json={"puzzle": puzzle})
            statuses[r.status_code] += 1
        except httpx2.HTTPError as err:
            statuses[type(err).__name__] += 1
            await asyncio.sleep(0.1)
            continue
        times.append(time.perf_counter() - start)


async def run(base: str, heavy: int, light: int, seconds: float) -> dict:
    """Run the clients and return what they measured."""
    limits = httpx2.Limits(max_connections=heavy + light + 4)
    async with httpx2.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        light_times: list[float] = []
        heavy_times: list[float] = []
        light_status: Counter = Counter()
        heavy_status: Counter = Counter()
        until = time.monotonic() + seconds
        await asyncio.gather(*(client(http, HEAVY, until, heavy_times, heavy_status) for _ in range(heavy)),
                             *(client(http, LIGHT, until, light_times, light_status) for _ in range(light)))
    return {"light": light_times, "heavy": heavy_times, "light_status": light_status,
            "heavy_status": heavy_status}


def positions(puzzle_id: str, count: int, rng: random.Random) -> list[str]:
    """Bridges texts with about half of the solution drawn."""
    puzzle = parse_puzzle(puzzle_id)
    names = island_names(puzzle)
    solution = solve(puzzle).solution.lane_counts(puzzle.geometry)
    out = []
    for _ in range(count):
        drawn = [(k, c) for k, c in enumerate(solution) if c and rng.random() < 0.5]
        out.append(" ".join(lane_name(puzzle, k, names).replace("-", "=" if c == 2 else "-")
                            for k, c in drawn))
    return out


async def player(client: httpx2.AsyncClient, work: list[tuple[str, str]], until: float, think: float,
                 rng: random.Random, times: dict[str, list[float]], errors: list[str]) -> None:
    """One simulated player: a hint or a check, a pause, again, until time is up."""
    while time.monotonic() < until:
        puzzle, bridges = rng.choice(work)
        kind = rng.choice(("hint", "check"))
        start = time.perf_counter()
        try:
            r = await client.post(f"/api/{kind}", json={"puzzle": puzzle, "bridges": bridges})
            if r.status_code != 200:
                errors.append(f"{kind} {r.status_code} {r.text[:80]}")
        except httpx2.HTTPError as err:
            errors.append(f"{kind} {err!r}")
        times[kind].append(time.perf_counter() - start)
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))


async def run_players(base: str, clients: int, seconds: float, think: float, generates: int) -> None:
    """The players scenario: the load, then the generation timings; print the numbers."""
    rng = random.Random(1)
    limits = httpx2.Limits(max_connections=clients + 5)
    async with httpx2.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        ids = []
        for seed in range(4):
            r = await client.post("/api/generate", json={"width": 15, "height": 15, "difficulty": "hard",
                                                         "seed": seed})
            ids.append(r.json()["puzzle"])
        work = [(pid, text) for pid in ids for text in positions(pid, 25, rng)]
        times: dict[str, list[float]] = {"hint": [], "check": []}
        errors: list[str] = []
        until = time.monotonic() + seconds
        await asyncio.gather(*(player(client, work, until, think, random.Random(n), times, errors)
                               for n in range(clients)))
        gen = []
        for seed in range(100, 100 + generates):
            start = time.perf_counter()
            r = await client.post("/api/generate", json={"width": 15, "height": 15, "difficulty": "hard",
                                                         "seed": seed})
            gen.append(time.perf_counter() - start)
            if r.status_code != 200:
                errors.append(f"generate {r.status_code} {r.text[:80]}")
    print(f"{clients} clients, {seconds:g} s, think time about {think:g} s; errors: {len(errors)}")
    for line in errors[:5]:
        print("  ", line)
    for kind, values in (*times.items(), ("generate 15x15 hard", gen)):
        print(f"{kind:>20}: {len(values):5d} requests  median {1000 * statistics.median(values):7.1f} ms  "
              f"p95 {percentile(values, 95):7.1f} ms  max {1000 * max(values):7.1f} ms")


def main() -> None:
    """Start the server, run the load, stop the server, print the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("heavy", "players"), default="heavy")
    parser.add_argument("--clients", type=int, default=50, help="players scenario: simulated players")
    parser.add_argument("--think", type=float, default=1.0, help="players: mean pause between requests (s)")
    parser.add_argument("--generates", type=int, default=20, help="players: timed generate requests")
    parser.add_argument("--heavy", type=int, default=2)
    parser.add_argument("--light", type=int, default=18)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=10)
    args = parser.parse_args()
    if max(args.heavy + args.light, args.clients) > 64 or not 0 < args.seconds <= 120:
        parser.error("at most 64 clients and 120 s")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "hashi_print.cli", "serve", "--host", "127.0.0.1",
                               "--port", str(port), "--workers", str(args.workers), "--time-limit",
                               str(args.time_limit)], stdout=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                httpx2.get(base + "/help")
                break
            except httpx2.HTTPError:
                time.sleep(0.2)
        time.sleep(2)   # the workers finish starting
        if args.scenario == "players":
            asyncio.run(run_players(base, args.clients, args.seconds, args.think, args.generates))
            return
        load_before = os.getloadavg()
        got = asyncio.run(run(base, args.heavy, args.light, args.seconds))
        load_after = os.getloadavg()
    finally:
        server.terminate()
        server.wait(timeout=20)
    light, heavy = got["light"], got["heavy"]
    statuses = got["light_status"] + got["heavy_status"]
    fives = sum(n for code, n in statuses.items() if isinstance(code, int) and code >= 500)
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; load average "
          f"{load_before[0]:.1f} before, {load_after[0]:.1f} after (1 min)")
    print(f"{args.heavy} heavy + {args.light} light clients, {args.seconds:g} s, {args.workers} workers, "
          f"time limit {args.time_limit:g} s")
    if light:
        print(f"light: {len(light)} requests, median {1000 * statistics.median(light):.1f} ms, "
              f"p95 {percentile(light, 95):.1f} ms, max {1000 * max(light):.1f} ms, "
              f"statuses {dict(got['light_status'])}")
    print(f"heavy: {len(heavy)} requests, statuses {dict(got['heavy_status'])}")
    print(f"5xx answers: {fives}")


if __name__ == "__main__":
    main()
