"""The one batch engine: map a function over jobs on forked worker processes.

The parent prepares whatever the workers need (verified releases, task contexts) in
module-level caches *before* the pool starts; forked workers inherit them, so each
is built once. Where ``fork`` is unavailable the workers rebuild them on first use. The
parent's objects are frozen out of the garbage collector while the workers run: a worker's
collection would otherwise touch (and so copy) every page of them.

While the jobs run, the collector's youngest generation is collected after
:data:`BATCH_GC_THRESHOLD` net new container objects instead of 700: scoring a memo allocates
and frees hundreds of thousands of short-lived objects (regex matches, spans, sets), and at
the default threshold the transient peaks trigger a few collections per memo, each walking the
objects that happen to be alive (some 5% of a memo's CPU, measured by bench/score_speed.py).
Objects are still freed by reference counting as before; only cycles wait longer. Results
do not change.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterator, Sequence, TypeVar

__all__ = ["fork_map", "batch_collector", "BATCH_GC_THRESHOLD"]

BATCH_GC_THRESHOLD = 50_000  # net new container objects between collections of the youngest generation

J = TypeVar("J")
R = TypeVar("R")


@contextlib.contextmanager
def batch_collector() -> Iterator[None]:
    """Inside: what exists now is frozen out of the collector (never collected, so never walked
    and, in a forked worker, never copied), and the youngest generation is collected after
    :data:`BATCH_GC_THRESHOLD` new objects; both are undone on leaving."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(BATCH_GC_THRESHOLD, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def fork_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    """``fn`` over ``jobs`` in order: in this process when ``workers`` is 1 (or there is
    one job), else on ``workers`` forked processes (which inherit :func:`batch_collector`'s
    settings). ``fn`` must be a module-level function."""
    with batch_collector():
        if workers <= 1 or len(jobs) <= 1:
            yield from map(fn, jobs)
            return
        context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
            yield from pool.map(fn, jobs)
