"""Benchmark: compile a LAB-scale family of keys and print keys/s and peak memory.

Generates ``--keys`` (default 2,000) synthetic keys with 7 findings and ~55 criteria each
in a temporary project tree, then runs the real compiler over them (validation, term
compilation, calibration, canonical serialization, atomic writes).

    python bench/compile_scale.py            # LAB scale: 2,000 keys
    python bench/compile_scale.py --keys 200 # a tenth
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

import yaml

from lae.compiler.compile import compile_pocket
from lae.project import Project

SYLLABLES = "ka lo mi ra ve to shu ne pa dri gor lin sta bel qua mor tesh vin zal rop".split()


def word(rng: random.Random, n: int = 3) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(n))


def make_key(task_id: str, rng: random.Random) -> dict:
    findings = []
    for i in range(1, 8):
        core = f"{word(rng)} {word(rng)}"
        remedy = f"{word(rng)} the {word(rng)}"
        amount = f"${rng.randint(10, 999)},{rng.randint(100, 999)}"
        findings.append({
            "id": f"F{i}",
            "title": f"Issue {i}",
            "severity": rng.choice(["critical", "high", "medium", "low"]),
            "explanation": f"Private explanation {i} for {task_id}.",
            "names": [f"{core} breach", f"{core} violation", f"unlawful {core}"],
            "remediation": {"summary": "Private summary.", "terms": [remedy, f"renegotiate the {core}"]},
            "record": [{"term": amount}, {"term": f"Section {i}.{rng.randint(1, 9)}"}],
            "calibration": {
                "positive": [f"The {core} breach is a problem, and we recommend that the client {remedy} before signing."],
                "negative": [f"The agreement was reviewed together with its {word(rng)} schedules and exhibits.",
                             f"The {core} breach is not a concern for this client at this stage."],
            },
        })
    rubric = []
    n = 0
    for f in findings:
        for kind in ("finding", "finding_severity", "finding_remediation", "finding_record"):
            n += 1
            rubric.append({"id": f"C-{n:03d}", "title": f"Criterion {n}",
                           "match_criteria": f"PASS if the memo covers {f['id']}. FAIL otherwise.",
                           "proxy": {"kind": kind, "finding": f["id"]}})
    while n < 55:
        n += 1
        rubric.append({"id": f"C-{n:03d}", "title": f"Criterion {n}",
                       "match_criteria": "PASS if the memo states the fact. FAIL otherwise.",
                       "proxy": {"kind": "mentions", "terms": [f"{word(rng)} {word(rng)}"]}})
    return {
        "schema_version": 1, "task_id": task_id, "pocket": "bench", "title": f"Bench {task_id}",
        "work_type": "Bench", "instructions": "Review and prepare a memo. Output: memo.docx.",
        "deliverable": "memo.docx", "drafting_attorney": "Bench Author", "matter_date": "2025-01-01",
        "findings": findings,
        "distractors": [{"id": "D1", "title": "d1", "explanation": "x", "names": [f"{word(rng)} {word(rng)} plan"]},
                        {"id": "D2", "title": "d2", "explanation": "x", "names": [f"{word(rng)} {word(rng)} memo"]}],
        "must_not_say": [{"id": "M1", "claim": "x", "phrasings": [f"the {word(rng)} rule is in effect"]}],
        "rubric": rubric,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes for compile and --check")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="lae-bench-") as tmp:
        root = Path(tmp)
        keys = root / "keys_private" / "bench"
        keys.mkdir(parents=True)
        (root / "tasks" / "bench").mkdir(parents=True)
        (keys / "pocket.yaml").write_text(yaml.safe_dump({
            "schema_version": 1, "pocket": "bench", "title": "Bench", "environment_module": "bench",
            "false_flag_weight": 0.1, "must_not_say_weight": 0.1, "min_deliverable_chars": 200}))
        criteria = 0
        t0 = time.perf_counter()
        for i in range(args.keys):
            key = make_key(f"bench-{i:05d}", rng)
            criteria += len(key["rubric"])
            (keys / f"bench-{i:05d}.yaml").write_text(yaml.safe_dump(key, sort_keys=False, allow_unicode=True))
        gen = time.perf_counter() - t0
        t0 = time.perf_counter()
        report = compile_pocket(Project.at(root), "bench", jobs=args.jobs)
        elapsed = time.perf_counter() - t0
        written = sum(1 for t in report.tasks if t.status == "written")
        t0 = time.perf_counter()
        compile_pocket(Project.at(root), "bench", check=True, jobs=args.jobs)
        check = time.perf_counter() - t0
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"jobs: {args.jobs}")
    print(f"keys: {args.keys}  criteria: {criteria}  findings: {args.keys * 7}  (generated in {gen:.1f}s)")
    print(f"compile: {elapsed:.1f}s  {args.keys / elapsed:.1f} keys/s  {criteria / elapsed:.0f} criteria/s  ({written} written)")
    print(f"compile --check: {check:.1f}s  {args.keys / check:.1f} keys/s")
    print(f"peak RSS: {peak_kib / 1024:.0f} MiB  (python {sys.version.split()[0]})")


if __name__ == "__main__":
    main()
