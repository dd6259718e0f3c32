"""Benchmark: time to score memos of growing length, where the time goes, and rollouts/s in batch.

Uses a bundled nine-document task (default ``atlas-noncompete-001``) from the project
tree, writes memos of 1,000 / 3,000 / 10,000 / 30,000 words as real .docx files (built
from the task's strong fixture memo, varied so nothing repeats verbatim), and prints:

Every scoring timed is of a memo of its own (``--repeat`` variants of each length, and one per
rollout in the batch, differing in a word of the filler): the kernel caches some results by the
memo's text (its register features, a discussion's cue counts), so scoring one memo again
would time those caches, not the scoring of a new rollout.

* the median wall and CPU time of ``--repeat`` scorings of each (``score_files``: read the
  .docx, mask, match, build the result), and the linearity ratio: the per-word time at
  30,000 words over that at 3,000 (1.00 = linear; below 1, fixed costs are amortised);
* the median CPU time of each stage for the 3,000-word memo, and the share of each module
  (cProfile; a C call such as a regex search is charged to the module that called it);
* the CPU spent in the garbage collector per memo, at the default thresholds and as the batch
  commands run (``lae.parallel.batch_collector``);
* ``lae score --runs`` with -j 1 and -j 2 as a user runs it (a new process): the start-up
  (process start, imports, freeze gate, document index, pattern compilation; timed on a
  folder of one rollout) apart from the throughput after start-up (the extra rollouts of
  a ``--rollouts`` folder over the extra time), and the CPU per extra rollout of the process and
  its workers (read, mask, match, write the result: what sets the rate on idle cores).

The machine's load moves every figure: run it twice and compare CPU times.

    python bench/score_speed.py [--task atlas-noncompete-001] [--repeat 5] [--rollouts 60]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import docx

from lae.grader.deliverables import read_deliverable
from lae.grader.score import TaskContext, prepare_task, score_files, score_reads
from lae.match.engine import analyze_text
from lae.match.normalize import normalize
from lae.match.segment import segment
from lae.parallel import batch_collector
from lae.project import Project

LENGTHS = (1000, 3000, 10000, 30000)

FILLER = ("In reviewing the record we also considered the surrounding commercial context, the parties' "
          "course of dealing and the practical steps the client can take over the coming quarter {n}.")


def variant_tag(variant: int) -> str:
    """A word of letters naming ``variant`` ("" for 0, then "b", ..., "ba", ...): it tells variants
    apart without adding digits (long numbers would feed the number terms' prefilter)."""
    letters = ""
    while variant:
        variant, r = divmod(variant, 26)
        letters = "abcdefghijklmnopqrstuvwxyz"[r] + letters
    return letters


def memo_paragraphs(strong: list[str], words: int, variant: int = 0) -> list[str]:
    """About ``words`` words of the strong memo's paragraphs, each with a numbered filler
    sentence; each ``variant`` tags the filler with its own word, so no two variants share a
    paragraph (variant 0 is untagged)."""
    out: list[str] = []
    count = 0
    n = 0
    tag = variant_tag(variant)
    while count < words:
        for p in strong:
            n += 1
            para = p + " " + FILLER.format(n=f"{n} {tag}" if tag else n)
            out.append(para)
            count += len(para.split())
            if count >= words:
                break
    return out


def write_memo(path: Path, strong: list[str], words: int, variant: int = 0) -> None:
    d = docx.Document()
    for p in memo_paragraphs(strong, words, variant):
        d.add_paragraph(p)
    d.save(str(path))


def timed(fn: Callable[[int], object], repeat: int) -> tuple[float, float, object]:
    """Median wall and CPU seconds of ``fn(0)`` ... ``fn(repeat - 1)``, and the last result."""
    walls, cpus, out = [], [], None
    for i in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn(i)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus), out


def by_length(ctx: TaskContext, memos: dict[int, list[Path]], repeat: int) -> None:
    rate: dict[int, float] = {}
    for words, paths in memos.items():
        wall, cpu, result = timed(lambda i: score_files(ctx, [paths[i]]), repeat)
        rate[words] = cpu / words
        print(f"{words:>6} words: median {wall * 1000:7.1f} ms wall, {cpu * 1000:7.1f} ms CPU "
              f"({cpu / words * 1e6:5.1f} us/word)  recall {result.metrics.finding_recall:.3f}")
    print(f"linearity: CPU per word at 30,000 words / at 3,000 = {rate[30000] / rate[3000]:.2f} (1.00 = linear)")


def stages(ctx: TaskContext, paths: list[Path], repeat: int) -> None:
    """Median CPU of each stage of scoring the memos ``paths`` (each stage timed on its own;
    the kernel and score_reads each on memos of their own: ``paths`` holds 2 * ``repeat``)."""
    declared = ctx.anchors.deliverables[0]
    spec = ctx.anchors.match_spec()
    reads = [read_deliverable(p, declared) for p in paths]
    norms = [normalize(r.text) for r in reads]
    masks = [ctx.index.mask(n) for n in norms]
    steps: list[tuple[str, Callable[[int], object]]] = [
        ("read .docx (zip guard, python-docx, text)", lambda i: read_deliverable(paths[i], declared)),
        ("normalise", lambda i: normalize(reads[i].text)),
        ("quote masking", lambda i: ctx.index.mask(norms[i])),
        ("segmentation", lambda i: segment(reads[i].text, masks[i], norms[i])),
        ("kernel (segmentation, matching, polarity, assertion, evidence)",
         lambda i: analyze_text(spec, reads[i].text, masks[i], norm=norms[i])),
        ("score_reads (kernel + metrics, criteria, result model)", lambda i: score_reads(ctx, [reads[repeat + i]])),
    ]
    for name, fn in steps:
        print(f"  {timed(fn, repeat)[1] * 1000:7.1f} ms CPU  {name}")
    result = score_reads(ctx, [reads[0]])
    print(f"  {timed(lambda i: result.model_dump_json(), repeat)[1] * 1000:7.1f} ms CPU  result serialisation (JSON)")


def collections(ctx: TaskContext, paths: list[Path], repeat: int) -> None:
    """CPU spent in the garbage collector per memo scored (score_files), at the interpreter's
    default thresholds and under :func:`lae.parallel.batch_collector` (what ``lae score --runs``
    and ``lae fidelity`` run their jobs under); memos of their own for each (``paths``: 2 * ``repeat``)."""
    spent = [0.0, 0.0]  # total, started at

    def track(phase: str, _info: dict) -> None:
        if phase == "start":
            spent[1] = time.process_time()
        else:
            spent[0] += time.process_time() - spent[1]

    def per_memo(chunk: list[Path]) -> float:
        spent[0] = 0.0
        for path in chunk:
            score_files(ctx, [path])
        return spent[0] / len(chunk) * 1000

    gc.callbacks.append(track)
    try:
        default = per_memo(paths[:repeat])
        with batch_collector():
            batch = per_memo(paths[repeat:])
    finally:
        gc.callbacks.remove(track)
    print(f"  {default:7.1f} ms CPU  garbage collection at the default thresholds ({batch:.1f} ms under "
          f"lae.parallel.batch_collector, as in lae score --runs)")


def _module(filename: str) -> str:
    parts = Path(filename).parts
    for top in ("lae", "grader", "compiler", "freeze"):
        if top in parts:
            return "/".join(parts[parts.index(top):])
    return "site-packages/" + parts[parts.index("site-packages") + 1] if "site-packages" in parts else "python"


def by_module(ctx: TaskContext, paths: list[Path], top: int = 12) -> None:
    """Each module's share of the CPU of scoring ``paths`` (own time; C calls charged to their caller)."""
    profile = cProfile.Profile()
    profile.runcall(lambda: [score_files(ctx, [path]) for path in paths])
    spent: dict[str, float] = {}
    for (filename, _line, _name), (_cc, _nc, own, _cum, callers) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        if filename == "~":  # a C function: charge each caller's share to the caller's module
            for (caller_file, _l, _n), (_c, _n2, caller_own, _cum2) in callers.items():
                spent[_module(caller_file)] = spent.get(_module(caller_file), 0.0) + caller_own
        else:
            spent[_module(filename)] = spent.get(_module(filename), 0.0) + own
    total = sum(spent.values())
    print("CPU by module (cProfile, 3,000 words; the profiler inflates Python-heavy code):")
    for name, t in sorted(spent.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {100 * t / total:5.1f}%  {name}")


def rollout_folder(root: Path, memos: list[Path], task_id: str) -> Path:
    """One rollout folder per memo (each a memo of its own)."""
    for i, memo in enumerate(memos):
        r = root / f"r{i:03d}"
        r.mkdir(parents=True)
        shutil.copy(memo, r / memo.name)
        (r / "rollout.json").write_text(json.dumps({"task_id": task_id}))
    return root


def batch(project: Project, memos: list[Path], task_id: str, tmpdir: Path) -> None:
    rollouts = len(memos)
    one = rollout_folder(tmpdir / "runs1", memos[:1], task_id)
    many = rollout_folder(tmpdir / "runsN", memos, task_id)

    def run(folder: Path, jobs: int) -> tuple[float, float]:
        """Wall seconds, and CPU seconds of the process and its workers."""
        r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run([sys.executable, "-m", "lae", "score", "--root", str(project.root), "--runs", str(folder),
                        "-j", str(jobs), "--allow-unfrozen"], check=True, capture_output=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.perf_counter() - t0, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime

    for jobs in (1, 2):
        (start, start_cpu), (total, total_cpu) = run(one, jobs), run(many, jobs)
        per = (total_cpu - start_cpu) / (rollouts - 1)
        print(f"lae score --runs -j {jobs}: start-up and 1 rollout {start:.2f}s; {rollouts} rollouts of 3,000 words "
              f"{total:.2f}s ({rollouts / total:.1f}/s overall); after start-up "
              f"{(rollouts - 1) / max(total - start, 1e-9):.1f} rollouts/s; {per * 1000:.1f} ms CPU per rollout "
              f"(all included: {jobs / max(per, 1e-9):.0f} rollouts/s on {jobs} idle core(s))")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="atlas-noncompete-001")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=60)
    parser.add_argument("--root", default=None)
    args = parser.parse_args()
    project = Project.at(args.root)
    t0 = time.perf_counter()
    ctx = prepare_task(project, args.task, allow_unfrozen=True)  # opens (verifies) the pocket, builds the index
    index_s = time.perf_counter() - t0
    strong_docx = project.root / "tests" / "fixtures" / "memos" / ctx.anchors.pocket / ctx.anchors.task_id / "strong.docx"
    strong = [p.text for p in docx.Document(str(strong_docx)).paragraphs if p.text.strip()]
    declared = ctx.anchors.deliverables[0]
    docs = len(list((ctx.task_dir / "documents").iterdir()))
    print(f"task {ctx.anchors.task_id}: {docs} documents, index {len(ctx.index)} 8-grams built "
          f"(pocket opened and verified) in {index_s * 1000:.0f} ms")
    with tempfile.TemporaryDirectory(prefix="lae-score-bench-") as tmp:
        tmpdir = Path(tmp)

        def memos(words: int, count: int, first: int = 0) -> list[Path]:
            out = []
            for v in range(first, first + count):
                out.append(tmpdir / f"w{words}-{v}" / declared)
                out[-1].parent.mkdir()
                write_memo(out[-1], strong, words, variant=v)
            return out

        score_files(ctx, memos(3000, 1, first=999)[:1])  # compiles the task's patterns (start-up, not per memo)
        by_length(ctx, {words: memos(words, args.repeat) for words in LENGTHS}, args.repeat)
        print("where the time goes (3,000 words):")
        stages(ctx, memos(3000, 2 * args.repeat, first=100), args.repeat)
        collections(ctx, memos(3000, 2 * args.repeat, first=500), args.repeat)
        by_module(ctx, memos(3000, args.repeat, first=200))
        batch(project, memos(3000, args.rollouts, first=300), ctx.anchors.task_id, tmpdir)

if __name__ == "__main__":
    main()
