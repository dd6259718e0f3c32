"""lae.parallel.fork_map: results in order on forked workers, and the parent's objects frozen out of
the garbage collector only while the workers run."""

from __future__ import annotations

import gc
import os

from lae.parallel import fork_map


def _square_and_pid(x: int) -> tuple[int, int, int]:
    return x * x, os.getpid(), gc.get_freeze_count()


def test_fork_map_in_order_on_workers_with_the_parent_frozen_meanwhile() -> None:
    assert gc.get_freeze_count() == 0
    ballast = [[i] for i in range(10_000)]  # tracked objects the parent holds before the pool starts
    out = list(fork_map(_square_and_pid, list(range(40)), 2))
    assert [r[0] for r in out] == [x * x for x in range(40)]
    assert os.getpid() not in {r[1] for r in out}  # really run on forked workers
    assert all(r[2] >= len(ballast) for r in out)  # each worker started with the parent's objects frozen
    assert gc.get_freeze_count() == 0  # unfrozen again once the workers are done


def test_fork_map_unfreezes_when_the_caller_stops_early() -> None:
    results = fork_map(_square_and_pid, list(range(20)), 2)
    assert next(results)[0] == 0
    results.close()
    assert gc.get_freeze_count() == 0


def test_fork_map_with_one_worker_runs_here_and_freezes_nothing() -> None:
    out = list(fork_map(_square_and_pid, [1, 2, 3], 1))
    assert [r[0] for r in out] == [1, 4, 9] and {r[1] for r in out} == {os.getpid()} and {r[2] for r in out} == {0}
