"""Filling: the same seed gives the same bank on any number of workers, and interrupted fills resume."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import closing

import pytest

from hashi_print.bank.executors import LocalPool
from hashi_print.bank.fill import fill, make_entry, make_spec
from hashi_print.bank.store import open_bank, stored_puzzles
from hashi_print.errors import BankError
from tests.bank.conftest import SMALL, SMALL_COUNT
from tests.independent import is_valid_solution


def listing(path) -> list[tuple]:
    """What a bank holds, in stored order: index, Tatham ID, attempt seed, solution, grade, key."""
    with closing(open_bank(path)) as conn:
        return [(p.index, p.tatham_id, p.seed, p.solution, p.grade, p.key) for p in stored_puzzles(conn)]


def filled(path, spec, count, workers):
    """Fill a bank in this process on `workers` local processes; return the report."""
    with closing(open_bank(path, create=True)) as conn:
        return fill(conn, spec, count, LocalPool(workers))


def test_the_same_seed_gives_the_same_bank_on_one_two_or_three_workers(small_bank, tmp_path):
    one = filled(tmp_path / "one.sqlite", SMALL, SMALL_COUNT, 1)
    filled(tmp_path / "three.sqlite", SMALL, SMALL_COUNT, 3)
    reference = listing(small_bank)
    assert listing(tmp_path / "one.sqlite") == reference == listing(tmp_path / "three.sqlite")
    assert one.state.stored == SMALL_COUNT and one.added == SMALL_COUNT
    # Puzzle i is puzzle i of the seed, made here in this process one by one.
    assert [e[:3] for e in reference] == [(e.index, e.tatham_id, e.seed) for e in
                                          (make_entry(SMALL, i) for i, *_ in reference)]
    with closing(open_bank(small_bank)) as conn:
        assert all(is_valid_solution(p.puzzle, p.solution) for p in stored_puzzles(conn))


def test_another_seed_gives_other_puzzles_and_a_larger_count_extends_the_fill(small_bank, tmp_path):
    path = tmp_path / "b.sqlite"
    filled(path, SMALL, 5, 2)
    assert listing(path) == listing(small_bank)[:5]
    again = filled(path, SMALL, 5, 2)
    assert again.added == 0 and again.state.stored == 5
    filled(path, SMALL, SMALL_COUNT, 2)
    assert listing(path) == listing(small_bank)
    other = filled(path, make_spec(7, 7, "easy", seed=6), 4, 2)
    assert other.added == 4
    assert len({row[5] for row in listing(path)}) == SMALL_COUNT + 4


class Interrupting:
    """A local pool that is interrupted (as by Ctrl-C) after handing back `after` results."""

    def __init__(self, workers: int, after: int):
        self.pool = LocalPool(workers)
        self.after = after

    def describe(self) -> str:
        """Say where the work runs."""
        return self.pool.describe()

    def completed(self, task, spec, next_index):
        """Yield the pool's results, then raise KeyboardInterrupt."""
        with closing(self.pool.completed(task, spec, next_index)) as results:
            for n, item in enumerate(results):
                if n == self.after:
                    raise KeyboardInterrupt
                yield item


def test_an_interrupted_fill_keeps_what_was_finished_in_order_and_resumes(small_bank, tmp_path):
    path = tmp_path / "b.sqlite"
    with closing(open_bank(path, create=True)) as conn, pytest.raises(KeyboardInterrupt):
        fill(conn, SMALL, SMALL_COUNT, Interrupting(2, after=7))
    kept = listing(path)
    assert 0 < len(kept) <= 7
    assert kept == listing(small_bank)[:len(kept)]
    resumed = filled(path, SMALL, SMALL_COUNT, 1)
    assert resumed.added == SMALL_COUNT - len(kept)
    assert listing(path) == listing(small_bank)


def cmdline(pid: int) -> bytes:
    """The command line of a process, or b"" once it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read()
    except OSError:
        return b""


def workers_of(pid: int) -> list[int]:
    """The pool's worker processes: children forked with the parent's own command line."""
    return [child for child in children(pid) if cmdline(child) == cmdline(pid)]


def children(pid: int) -> list[int]:
    """The process ids whose parent is `pid`, read from /proc."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def zombie(pid: int) -> bool:
    """Tell whether a process has ended and waits only to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def stored_count(path) -> int:
    """How many puzzles a bank holds now (0 before it exists)."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as conn:
            return conn.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0]
    except sqlite3.Error:
        return 0


def wait_for(path, at_least: int, proc) -> int:
    """Wait until the bank holds `at_least` puzzles (or the fill has ended); return the count."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        n = stored_count(path)
        if n >= at_least:
            return n
        time.sleep(0.02)
    return stored_count(path)


def default_sigint():
    """Restore the default SIGINT disposition in a child before it starts Python."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc to find the worker processes")
def test_ctrl_c_a_killed_worker_and_a_killed_fill_lose_nothing_that_was_stored(tmp_path):
    spec, count = make_spec(7, 7, "medium", seed=8), 400
    filled(tmp_path / "reference.sqlite", spec, count, 2)
    path = tmp_path / "b.sqlite"
    argv = [sys.executable, "-m", "hashi_print.cli", "bank", "fill", "--db", str(path), "--size", "7x7",
            "--difficulty", "medium", "--count", str(count), "--seed", "8", "--workers", "2"]

    # Ctrl-C: the fill saves what is finished in order and exits 130.
    err = tmp_path / "err.txt"
    # A job started in the background inherits SIGINT ignored; give the child the default so that
    # Python turns Ctrl-C into KeyboardInterrupt as it does in a terminal.
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err.open("w"), text=True,
                            preexec_fn=default_sigint)
    assert wait_for(path, 10, proc) < count
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130, err.read_text()
    assert "run the same command again" in err.read_text()
    first = stored_count(path)
    assert 10 <= first < count

    # A worker killed mid-fill: the pool restarts and redoes its puzzles; then the fill itself is killed.
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err.open("w"), text=True)
    wait_for(path, first + 20, proc)
    workers = workers_of(proc.pid)
    assert workers and proc.poll() is None
    os.kill(workers[0], signal.SIGKILL)
    deadline = time.monotonic() + 60
    while "worker process died" not in err.read_text() and time.monotonic() < deadline \
            and proc.poll() is None:
        time.sleep(0.05)
    assert "worker process died" in err.read_text()
    second = wait_for(path, stored_count(path) + 20, proc)
    assert second < count and proc.poll() is None
    workers = workers_of(proc.pid)
    proc.kill()
    proc.wait(timeout=60)
    # The orphaned workers notice that their parent is gone and end on their own.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(os.path.exists(f"/proc/{pid}") and not zombie(pid)
                                              for pid in workers):
        time.sleep(0.1)
    left = [pid for pid in workers if os.path.exists(f"/proc/{pid}") and not zombie(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left

    done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert listing(path) == listing(tmp_path / "reference.sqlite")


def test_the_local_pool_works_without_dask_and_the_scheduler_option_says_what_to_install(tmp_path):
    block = "import sys; sys.modules['dask'] = sys.modules['distributed'] = None; "
    run = "from hashi_print.cli import cli; cli(sys.argv[1:])"
    base = [sys.executable, "-c", block + run, "bank", "fill", "--db", str(tmp_path / "b.sqlite"),
            "--size", "7x7", "--difficulty", "easy", "--count", "3", "--seed", "5"]
    ok = subprocess.run([*base, "--workers", "2"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert [row[:3] for row in listing(tmp_path / "b.sqlite")] == listing_of_small()
    no = subprocess.run([*base, "--count", "4", "--scheduler", "tcp://127.0.0.1:8786"], capture_output=True,
                        text=True, timeout=120)
    assert no.returncode == 2 and "hashi-print[cluster]" in no.stderr
    assert len(no.stderr.strip().splitlines()) == 1


def listing_of_small() -> list[tuple]:
    """The first puzzles of the small fill, made one by one in this process."""
    return [(e.index, e.tatham_id, e.seed) for e in (make_entry(SMALL, i) for i in range(3))]


@pytest.mark.parametrize("args, message", [
    (["--count", "0"], "--count 0"),
    (["--count", "3", "--size", "3x3"], "5 to 40"),
    (["--count", "3", "--seed", "-1"], "--seed -1"),
    (["--count", "3", "--workers", "0"], "--workers 0"),
    (["--count", "3", "--density", "0.9"], "density"),
])
def test_bad_fill_requests_are_one_line_and_exit_2(tmp_path, args, message):
    from click.testing import CliRunner

    from hashi_print.cli import cli

    result = CliRunner().invoke(cli, ["bank", "fill", "--db", str(tmp_path / "b.sqlite"), *args])
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_count_beyond_the_cap_is_refused_before_any_work(tmp_path):
    path = tmp_path / "b.sqlite"
    with closing(open_bank(path, create=True)) as conn, pytest.raises(BankError, match="count"):
        fill(conn, SMALL, 10**9, LocalPool(1))


def test_a_ctrl_c_while_the_fill_bar_starts_waits_until_the_bar_can_be_stopped(monkeypatch):
    from types import SimpleNamespace

    from hashi_print.console import FillBar

    bar = FillBar(10, "easy 7x7")
    console = bar.progress.console
    push = console.push_render_hook

    def ctrl_c_then_push(hook):
        # The Ctrl-C lands inside rich's start, between marking the display started and registering it.
        os.kill(os.getpid(), signal.SIGINT)
        push(hook)

    monkeypatch.setattr(console, "push_render_hook", ctrl_c_then_push)
    # Run in the background (as CI may be), Python starts with SIGINT ignored: make Ctrl-C what it is
    # in a terminal.
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    # A fill has worker threads about, and the system may hand the Ctrl-C to any of them.
    idle = threading.Event()
    threading.Thread(target=idle.wait, daemon=True).start()
    try:
        with pytest.raises(KeyboardInterrupt), bar:
            bar.update(SimpleNamespace(stored=1, duplicates=0), 1)
    finally:
        signal.signal(signal.SIGINT, before)
        idle.set()
    assert not bar.progress.live.is_started
    assert console._render_hooks == []
