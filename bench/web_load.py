"""Load test of the web app on the loopback: many players asking for hints and checks on 15x15 puzzles.

Starts `hashi-print serve` on a free port, lets CLIENTS simulated players each send hint and check
requests (half the solution drawn, at random) for SECONDS, with a think time between requests, then
times generating 15x15 hard puzzles one after another. Prints counts, errors and latency percentiles.

    .venv/bin/python bench/web_load.py --clients 50 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import statistics
import subprocess
import sys
import time

import httpx2

from hashi_print.puzzle.deduce import island_names, lane_name
from hashi_print.puzzle.formats import parse_puzzle
from hashi_print.puzzle.solve import solve


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank, in milliseconds."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


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


async def run(base: str, clients: int, seconds: float, think: float, generates: int) -> None:
    """Run the load, then the generation timings, and print the numbers."""
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
    """Start the server, run the load, stop the server."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between a player's requests (s)")
    parser.add_argument("--generates", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "hashi_print.cli", "serve", "--port", str(port),
                               "--workers", str(args.workers)], stdout=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx2.get(base + "/help")
                break
            except httpx2.HTTPError:
                time.sleep(0.2)
        asyncio.run(run(base, args.clients, args.seconds, args.think, args.generates))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
