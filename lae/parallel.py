"""The one batch engine: map a function over jobs on forked worker processes.

The parent prepares whatever the workers need (verified releases, task contexts) in
module-level caches *before* the pool starts; forked workers inherit them, so each
is built once. Where ``fork`` is unavailable the workers rebuild them on first use.
"""

from __future__ import annotations

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
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), mp_context=context) as pool:
        yield from pool.map(fn, jobs)
