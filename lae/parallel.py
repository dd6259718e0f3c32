"""The one batch engine: map a function over jobs on forked worker processes.

The parent prepares whatever the workers need (verified releases, task contexts) in
module-level caches *before* the pool starts; forked workers inherit them, so each
is built once. Where ``fork`` is unavailable the workers rebuild them on first use. The
parent's objects are frozen out of the garbage collector while the workers run: a worker's
collection would otherwise touch (and so copy) every page of them.
"""

from __future__ import annotations

import gc
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Iterator, Sequence, TypeVar

__all__ = ["fork_map"]

J = TypeVar("J")
R = TypeVar("R")


def fork_map(fn: Callable[[J], R], jobs: Sequence[J], workers: int) -> Iterator[R]:
    """``fn`` over ``jobs`` in order: in this process when ``workers`` is 1 (or there is
    one job), else on ``workers`` forked processes. ``fn`` must be a module-level function."""
    if workers <= 1 or len(jobs) <= 1:
        yield from map(fn, jobs)
        return
    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    gc.freeze()  # what the parent prepared is never collected by a worker, so its pages stay shared, not copied
    try:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
            yield from pool.map(fn, jobs)
    finally:
        gc.unfreeze()
