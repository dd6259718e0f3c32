#!/usr/bin/env python3
"""Wall time of `lae fidelity` (real subprocess) with -j 1 and -j 2; prints figures, asserts nothing.

    python bench/fidelity_speed.py [--memos ../shared/fidelity] [--repeat 3]

Without --memos it measures the project's validation sets. Report the best of --repeat
runs; the machine's load average is printed beside it, since the figures depend on it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(jobs: int, memos: str | None) -> float:
    args = [sys.executable, "-m", "lae", "fidelity", "--json", "-j", str(jobs)] + (["--memos", memos] if memos else [])
    start = time.perf_counter()
    proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(proc.stderr)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memos", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    for jobs in (1, 2):
        times = [_run(jobs, opts.memos) for _ in range(opts.repeat)]
        print(f"lae fidelity -j {jobs}: best {min(times):.2f} s, runs " + ", ".join(f"{t:.2f}" for t in times)
              + f"  (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
