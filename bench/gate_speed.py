#!/usr/bin/env python3
"""What the freeze gate costs: deriving the grader identity, checking cached bytecode,
and opening a pocket (read once, hash, verify, keep the bytes) against plain verify.

    python bench/gate_speed.py [--pocket employment-law] [--repeat 5] [--root DIR]

Prints the best of ``--repeat`` runs for each step, in milliseconds, plus the bytes the
opened pocket holds. Run it from a checkout whose pockets are frozen.
"""

from __future__ import annotations

import argparse
import time
import warnings
from typing import Callable

from lae.freeze import open_pocket, verify_pocket
from lae.freeze.identity import bytecode_problems, derive_identity
from lae.project import Project


def best_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pocket", default="employment-law")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--root", default=None)
    args = parser.parse_args()
    project = Project.at(args.root)
    t0 = time.perf_counter()
    derived = derive_identity()  # the first call also scans installed distributions' metadata
    first = (time.perf_counter() - t0) * 1000
    sources = derived.sources
    print(f"grader identity: {len(sources)} modules, "
          f"{len(derived.identity.packages) if derived.identity else 0} bound packages")
    print(f"derive_identity, first call in a process: {first:8.1f} ms")
    print(f"derive_identity, warm:                    {best_ms(derive_identity, args.repeat):8.1f} ms")
    compile_all = best_ms(lambda: [compile(s.data, str(s.path), "exec", dont_inherit=True) for s in sources],
                          args.repeat)
    print(f"compile every scoring module (the bytecode check's worst case): {compile_all:8.1f} ms")
    print(f"bytecode_problems here:                   {best_ms(lambda: bytecode_problems(sources), args.repeat):8.1f} ms")
    print(f"verify_pocket({args.pocket}):            {best_ms(lambda: verify_pocket(project, args.pocket), args.repeat):8.1f} ms")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a frozen pocket opens without a warning
        opened_ms = best_ms(lambda: open_pocket(project, args.pocket, allow_unfrozen=False), args.repeat)
        opened = open_pocket(project, args.pocket, allow_unfrozen=False)
    held = sum(len(opened.read(p)) for p in opened.paths(""))
    print(f"open_pocket({args.pocket}) (keeps bytes): {opened_ms:8.1f} ms, holding {held / 1e6:.2f} MB "
          f"in {len(opened.paths(''))} files")


if __name__ == "__main__":
    main()
