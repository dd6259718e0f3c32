"""How fast is ``lae verify`` next to ``sha256sum`` and ``openssl dgst -sha256``?

Generates a throwaway tree in a temp folder, freezes it, then times, in the same run
and over the same files (page cache warm, best of ``--repeat``):

* ``lae verify`` as a user runs it (a subprocess: interpreter start and imports
  included) and the library call ``verify_pocket`` in-process;
* ``sha256sum -c anchors/<pocket>/SHA256SUMS`` (the file freeze writes);
* ``openssl dgst -sha256`` over the same file list (through ``xargs``).

Two cases:

1. *many small files*: a fraction (``--scale``, default 0.25) of LAB scale, i.e.
   2,000 tasks x 24 documents (~48,000 documents) at scale 1; document sizes mimic a
   matter file (emails of a few KB to PDFs of ~100 KB);
2. *large files*: ``--large-count`` files of ``--large-mb`` MB, to compare throughput.

For the small-file case it also splits verify's time per file: walking the folders,
open/read/close, hashing, parsing the stamp, and the rest (comparison, manifest,
canonical bytes).

Run::

    /work/venv/bin/python bench/verify_speed.py                 # default, < 2 minutes
    /work/venv/bin/python bench/verify_speed.py --scale 1       # full LAB scale
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lae.freeze import freeze_pocket, render_unfrozen_stamp, verify_pocket
from lae.freeze.manifest import hash_pocket, scan_pocket
from lae.freeze.stamp import read_stamp
from lae.project import Project

LAB_TASKS = 2000
DOCS_PER_TASK = 24  # 2,000 x 24 = 48,000 documents at scale 1
# (suffix, min bytes, max bytes): a matter file's mix
DOC_KINDS = [(".eml", 1_500, 6_000), (".txt", 4_000, 30_000), (".xlsx", 8_000, 40_000),
             (".docx", 12_000, 60_000), (".pdf", 20_000, 120_000)]


def _openssl_version() -> str:
    return subprocess.run(["openssl", "version"], capture_output=True, text=True).stdout.strip()


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def _write_module(root: Path, pocket: str, module: str) -> None:
    env = root / "environments"
    env.mkdir(parents=True, exist_ok=True)
    (env / f"{module}.py").write_text(f'"""Bench pocket."""\n\n{render_unfrozen_stamp(pocket)}\n')


def _anchors(task_id: str, pocket: str) -> bytes:
    body = {"anchors_schema_version": 1, "task_id": task_id, "pocket": pocket,
            "scoring": {"false_flag_weight": 0.1, "must_not_say_weight": 0.1, "min_deliverable_chars": 200},
            "findings": [{"id": f"F{i}", "names": [{"term": f"issue {i}", "pattern": f"issue\\s+{i}"}] * 4}
                         for i in range(1, 8)]}
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def make_small_tree(root: Path, tasks: int, docs: int, seed: int = 7) -> int:
    """A pocket of ``tasks`` tasks x ``docs`` documents; returns the bytes written."""
    rng = random.Random(seed)
    pocket = "bench"
    blob = os.urandom(1 << 20)  # documents are slices of one random megabyte, salted per file
    total = 0
    (root / "anchors" / pocket).mkdir(parents=True)
    for t in range(tasks):
        tid = f"task-{t:05d}"
        data = _anchors(tid, pocket)
        (root / "anchors" / pocket / f"{tid}.anchors.json").write_bytes(data)
        tdir = root / "tasks" / pocket / tid
        (tdir / "documents").mkdir(parents=True)
        task = json.dumps({"title": tid, "instructions": "Review. Output: memo.docx.",
                           "deliverables": {"memo.docx": "memo.docx"}}, indent=2).encode() + b"\n"
        (tdir / "task.json").write_bytes(task)
        total += len(data) + len(task)
        for d in range(docs):
            suffix, lo, hi = DOC_KINDS[d % len(DOC_KINDS)]
            size = rng.randint(lo, hi)
            start = rng.randrange(0, len(blob) - size)
            payload = f"{tid}/{d}".encode() + blob[start:start + size]
            (tdir / "documents" / f"{d:02d}-document{suffix}").write_bytes(payload)
            total += len(payload)
    _write_module(root, pocket, "bench_env")
    return total


def make_large_tree(root: Path, count: int, megabytes: int) -> int:
    pocket = "bench"
    (root / "anchors" / pocket).mkdir(parents=True)
    (root / "anchors" / pocket / "big-001.anchors.json").write_bytes(_anchors("big-001", pocket))
    tdir = root / "tasks" / pocket / "big-001"
    (tdir / "documents").mkdir(parents=True)
    (tdir / "task.json").write_text('{"title": "big"}\n')
    chunk = os.urandom(1 << 20)
    for i in range(count):
        with open(tdir / "documents" / f"{i:02d}-scan.pdf", "wb") as fh:
            for j in range(megabytes):
                fh.write(bytes([i, j & 0xFF]) + chunk[2:])
    _write_module(root, pocket, "bench_env")
    return count * megabytes * (1 << 20)


def _run(cmd: list[str] | str, cwd: Path, shell: bool = False) -> None:
    done = subprocess.run(cmd, cwd=cwd, shell=shell, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if done.returncode != 0:
        raise SystemExit(f"command failed ({done.returncode}): {cmd}\n{done.stderr.decode()[-2000:]}")


def measure(root: Path, repeat: int, label: str, nbytes: int, breakdown: bool) -> dict:
    project = Project.at(root)
    t = time.perf_counter()
    freeze_pocket(project, "bench")
    freeze_s = time.perf_counter() - t
    sums = root / "anchors" / "bench" / "SHA256SUMS"
    nfiles = sum(1 for _ in sums.open())
    listing = root / "filelist.txt"
    listing.write_text("".join(line.split("  ", 1)[1] for line in sums.open()))
    lae_cli = [sys.executable, "-m", "lae", "verify", "--root", str(root), "--pocket", "bench"]

    _run(["sha256sum", "-c", "--quiet", str(sums.relative_to(root))], root)  # warm the page cache
    results = {
        "lae verify (CLI)": _best(lambda: _run(lae_cli, root), repeat),
        "verify_pocket (library)": _best(lambda: verify_pocket(project, "bench"), repeat),
        "sha256sum -c SHA256SUMS": _best(lambda: _run(["sha256sum", "-c", "--quiet", "anchors/bench/SHA256SUMS"], root),
                                         repeat),
        "openssl dgst -sha256": _best(lambda: _run("xargs -d '\\n' -a filelist.txt openssl dgst -sha256 >/dev/null",
                                                   root, shell=True), repeat),
    }
    startup = _best(lambda: _run([sys.executable, "-c", "import lae.cli"], root), repeat)
    base = results["sha256sum -c SHA256SUMS"]
    mb = nbytes / 1e6
    print(f"\n== {label}: {nfiles:,} files, {mb:,.1f} MB (freeze took {freeze_s:.2f} s) ==")
    print(f"{'tool':<28}{'seconds':>10}{'MB/s':>10}{'us/file':>10}{'x sha256sum':>13}")
    for name, secs in results.items():
        print(f"{name:<28}{secs:>10.3f}{mb / secs:>10.0f}{secs / nfiles * 1e6:>10.1f}{secs / base:>13.2f}")
    print(f"{'(python + import lae.cli)':<28}{startup:>10.3f}")
    out = {"label": label, "files": nfiles, "megabytes": round(mb, 1), "freeze_s": round(freeze_s, 3),
           "seconds": {k: round(v, 4) for k, v in results.items()}, "startup_s": round(startup, 4)}
    if breakdown:
        out["breakdown_us_per_file"] = per_file_breakdown(project, repeat, nfiles, results["verify_pocket (library)"])
    return out


def per_file_breakdown(project: Project, repeat: int, nfiles: int, verify_s: float) -> dict:
    """Split verify's time per file into its parts (each measured alone, warm cache)."""
    scan = scan_pocket(project, "bench")
    paths = [f.abspath for f in scan.files]
    module = project.environments_dir / "bench_env.py"

    def read_only() -> None:
        for p in paths:
            with open(p, "rb", buffering=0) as fh:
                while fh.read(1 << 20):
                    pass

    blobs = [Path(p).read_bytes() for p in paths[: min(len(paths), 20000)]]
    scale = len(paths) / len(blobs)

    def hash_only() -> None:
        for b in blobs:
            hashlib.sha256(b).hexdigest()

    def syscalls_only() -> None:
        for p in paths:
            fd = os.open(p, os.O_RDONLY)
            os.close(fd)

    parts = {
        "walk folders (scandir)": _best(lambda: scan_pocket(project, "bench"), repeat),
        "open+close only": _best(syscalls_only, repeat),
        "open+read+close": _best(read_only, repeat),
        "sha256 of bytes in memory": _best(hash_only, repeat) * scale,
        "scan+hash (hash_pocket)": _best(lambda: hash_pocket(scan_pocket(project, "bench")), repeat),
        "read+parse stamp": _best(lambda: read_stamp(module.read_bytes()), repeat),
    }
    parts["rest (compare, manifest, sums)"] = max(
        0.0, verify_s - parts["scan+hash (hash_pocket)"] - parts["read+parse stamp"])
    print("per-file cost of verify_pocket, small files (microseconds per file; parts overlap):")
    for name, secs in parts.items():
        print(f"  {name:<34}{secs / nfiles * 1e6:>8.1f}")
    return {k: round(v / nfiles * 1e6, 2) for k, v in parts.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=0.25,
                    help="fraction of LAB scale (2,000 tasks x 24 documents); default 0.25")
    ap.add_argument("--large-count", type=int, default=3, help="large files (default 3)")
    ap.add_argument("--large-mb", type=int, default=256, help="size of each large file in MB (default 256)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per tool; the best is kept (default 3)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    ap.add_argument("--keep", action="store_true", help="keep the generated trees (printed)")
    args = ap.parse_args(argv)

    tasks = max(1, round(LAB_TASKS * args.scale))
    print(f"scale {args.scale:g} of LAB: {tasks:,} tasks x {DOCS_PER_TASK} documents; "
          f"large case: {args.large_count} x {args.large_mb} MB; best of {args.repeat}; "
          f"{os.cpu_count()} CPU(s); Python {sys.version.split()[0]}; {_openssl_version()}")
    work = Path(tempfile.mkdtemp(prefix="lae-verify-bench-"))
    figures = []
    try:
        small = work / "small"
        t = time.perf_counter()
        nbytes = make_small_tree(small, tasks, DOCS_PER_TASK)
        print(f"generated small-file tree in {time.perf_counter() - t:.1f} s at {small}")
        figures.append(measure(small, args.repeat, f"small files, scale {args.scale:g}", nbytes, breakdown=True))
        shutil.rmtree(small)
        if args.large_count > 0:
            large = work / "large"
            t = time.perf_counter()
            nbytes = make_large_tree(large, args.large_count, args.large_mb)
            print(f"\ngenerated large-file tree in {time.perf_counter() - t:.1f} s at {large}")
            figures.append(measure(large, args.repeat, f"large files, {args.large_count} x {args.large_mb} MB",
                                   nbytes, breakdown=False))
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
