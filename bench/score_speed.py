"""Benchmark: time to score memos of growing length, and rollouts/s in batch.

Uses a bundled nine-document task (default ``atlas-noncompete-001``) from the project
tree, writes memos of 1,000 / 3,000 / 10,000 / 30,000 words as real .docx files (built
from the task's strong fixture memo, varied so nothing repeats verbatim), and prints the
median of ``--repeat`` scorings each, then times ``lae score --runs`` with -j 1 and -j 2.

    python bench/score_speed.py [--task atlas-noncompete-001] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import docx

from lae.grader.score import prepare_task, score_files
from lae.project import Project

FILLER = ("In reviewing the record we also considered the surrounding commercial context, the parties' "
          "course of dealing and the practical steps the client can take over the coming quarter {n}.")


def memo_paragraphs(strong: list[str], words: int) -> list[str]:
    out: list[str] = []
    count = 0
    n = 0
    while count < words:
        for p in strong:
            n += 1
            para = p + " " + FILLER.format(n=n)
            out.append(para)
            count += len(para.split())
            if count >= words:
                break
    return out


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
    pocket = ctx.anchors.pocket
    strong_docx = project.root / "tests" / "fixtures" / "memos" / pocket / ctx.anchors.task_id / "strong.docx"
    strong = [p.text for p in docx.Document(str(strong_docx)).paragraphs if p.text.strip()]
    declared = ctx.anchors.deliverables[0]
    docs = len(list((ctx.task_dir / "documents").iterdir()))
    print(f"task {ctx.anchors.task_id}: {docs} documents, index {len(ctx.index)} 8-grams built (pocket opened and verified) in {index_s * 1000:.0f} ms")
    with tempfile.TemporaryDirectory(prefix="lae-score-bench-") as tmp:
        tmpdir = Path(tmp)
        base = None
        for words in (1000, 3000, 10000, 30000):
            folder = tmpdir / f"w{words}"
            folder.mkdir()
            path = folder / declared
            d = docx.Document()
            for p in memo_paragraphs(strong, words):
                d.add_paragraph(p)
            d.save(str(path))
            times, cpu = [], []
            for _ in range(args.repeat):
                t0, c0 = time.perf_counter(), time.process_time()
                result = score_files(ctx, [path])
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            med = statistics.median(times)
            base = base or med / words
            print(f"{words:>6} words: median {med * 1000:8.1f} ms wall, {statistics.median(cpu) * 1000:8.1f} ms CPU "
                  f"({med / words * 1e6:6.1f} us/word, {(med / words) / base:4.2f}x the 1,000-word rate)  "
                  f"recall {result.metrics.finding_recall:.3f}")
        runs = tmpdir / "runs"
        for i in range(args.rollouts):
            r = runs / f"r{i:03d}"
            r.mkdir(parents=True)
            shutil.copy(tmpdir / "w3000" / declared, r / declared)
            (r / "rollout.json").write_text(json.dumps({"task_id": ctx.anchors.task_id}))
        for jobs in (1, 2):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "lae", "score", "--root", str(project.root), "--runs", str(runs),
                            "-j", str(jobs), "--allow-unfrozen"], check=True, capture_output=True)
            el = time.perf_counter() - t0
            print(f"lae score --runs ({args.rollouts} rollouts of 3,000 words) -j {jobs}: {el:.2f}s  "
                  f"{args.rollouts / el:.2f} rollouts/s (includes process start and index build)")


if __name__ == "__main__":
    main()
