"""Benchmark: peak memory (RSS) and disk of `lae run` under hostile replies, with the default limits.

Runs the real CLI in a subprocess against the loopback chat server of the tests
(``tests/chat_server.py``) on the fixture task, and prints for each attack the child's
peak RSS (``getrusage(RUSAGE_CHILDREN)``), the bytes the run left on disk, the wall time
and how the rollout ended:

* a 300 MiB reply (streamed by the server; the client stops at ``--max-reply-bytes``);
* 200 ``save_deliverable`` calls of 2 MiB in one reply (~400 MiB of JSON);
* the same 200 × 2 MiB spread over replies of 3 calls each (each reply under the reply
  limit; ``--max-saved-files``, ``--max-saved-bytes`` and ``--max-turns`` bound it).

    python bench/run_limits.py                 # from the repository root
    python bench/run_limits.py --reply-mib 300 --flood 200x2048
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.chat_server import ChatServer  # noqa: E402  (the tests' loopback server)

from lae.compiler.compile import compile_pocket  # noqa: E402
from lae.project import Project  # noqa: E402


def _tree(tmp: Path) -> Path:
    import shutil

    tree = tmp / "tree"
    shutil.copytree(REPO / "tests" / "fixtures" / "tree", tree)
    compile_pocket(Project.at(tree), "fixture")
    return tree


_WRAPPER = ("import resource, subprocess, sys\n"
            "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode\n"
            "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")  # ru_maxrss: KiB on Linux


def _disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _one(tree: Path, out: Path, server: ChatServer, model: str) -> dict:
    start = time.monotonic()
    # A fresh wrapper per attack, so its RUSAGE_CHILDREN peak is this `lae run` alone.
    proc = subprocess.run([sys.executable, "-c", _WRAPPER, sys.executable, "-m", "lae", "run", "--root", str(tree),
                           "--task", "harbor-lease-001", "--model", model, "--base-url", server.base_url, "--rollouts", "1",
                           "--allow-unfrozen", "--out", str(out)],
                          capture_output=True, text=True, env=dict(os.environ, OPENAI_API_KEY="bench"))
    wall = time.monotonic() - start
    code, peak = (int(x) for x in proc.stdout.split()[-2:])
    meta = next(out.glob("*/*/r1/rollout.json"), None)
    status = json.loads(meta.read_text()) if meta else {}
    return {"model": model, "exit": code, "peak_rss_mib": peak / 1024,
            "disk_mib": _disk(out) / 2**20, "wall_s": wall, "status": status.get("status"),
            "cause": (status.get("error") or status.get("stop_reason") or "")[-110:]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reply-mib", type=int, default=300)
    parser.add_argument("--flood", default="200x2048", help="N x KiB of save_deliverable calls")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lae-bench-") as tmp, ChatServer() as server:
        tree = _tree(Path(tmp))
        rows = [("baseline (a normal saver)", "saver"), (f"{args.reply_mib} MiB reply", f"huge-{args.reply_mib}"),
                (f"{args.flood} KiB saves, one reply", f"calls-{args.flood}"),
                (f"{args.flood} KiB saves, 3 per reply", f"calls-{args.flood}x3")]
        print("| Attack | Exit | Peak RSS (MiB) | Disk (MiB) | Wall (s) | Rollout |")
        print("| --- | ---: | ---: | ---: | ---: | --- |")
        for label, model in rows:
            r = _one(tree, Path(tmp) / model, server, model)
            print(f"| {label} | {r['exit']} | {r['peak_rss_mib']:.0f} | {r['disk_mib']:.1f} | {r['wall_s']:.1f} | {r['status']}: {r['cause']} |")


if __name__ == "__main__":
    main()
