"""lae.parallel.fork_map: results in order on forked workers, and the parent's objects frozen out of
the garbage collector (and its youngest generation collected less often) only while the jobs run."""

from __future__ import annotations

import gc
import os

from lae.parallel import BATCH_GC_THRESHOLD, fork_map


def _square_and_pid(x: int) -> tuple[int, int, int]:
    return x * x, os.getpid(), gc.get_freeze_count()


def _threshold(x: int) -> int:
    return gc.get_threshold()[0]


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


def test_fork_map_with_one_worker_runs_here_under_the_batch_collector() -> None:
    before = gc.get_threshold()
    ballast = [[i] for i in range(10_000)]
    out = list(fork_map(_square_and_pid, [1, 2, 3], 1))
    assert [r[0] for r in out] == [1, 4, 9] and {r[1] for r in out} == {os.getpid()}
    assert all(r[2] >= len(ballast) for r in out)  # what existed before is frozen out while the jobs run
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before  # and both undone after


def test_the_youngest_generation_is_collected_less_often_while_jobs_run_here_or_on_workers() -> None:
    before = gc.get_threshold()
    assert before[0] < BATCH_GC_THRESHOLD
    for workers in (1, 2):
        assert set(fork_map(_threshold, list(range(6)), workers)) == {BATCH_GC_THRESHOLD}
        assert gc.get_threshold() == before
