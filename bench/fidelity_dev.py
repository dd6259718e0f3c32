"""Measure the grader against labelled memos in the layout of ``../shared/fidelity/``.

A development companion to ``lae fidelity`` (which it predates): with ``--verbose`` it prints
every disagreement's evidence and hits. Run ``lae compile`` first. Scores every ``X/<deliverable>.docx`` with the
real grader and compares, per memo kind, with ``labels.json``. Prints over-credit
(credited ÷ labelled NOT_RAISED or DISMISSED), under-credit (not credited ÷ labelled
RAISED), distractor and claim disagreements, and the mean reward per kind.

    python bench/fidelity_dev.py [--memos ../shared/fidelity] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from collections import defaultdict
from pathlib import Path

from lae.compiler.load import yaml_data
from lae.freeze import OpenedPocket, open_for_measurement
from lae.grader.score import TaskContext, load_task_context, score_files
from lae.project import Project
from lae.render import markdown_to_docx

_OPENED: dict[tuple[str, str], OpenedPocket] = {}
_CONTEXTS: dict[tuple[str, str, str], TaskContext] = {}


def _context(project: Project, pocket: str, task: str) -> TaskContext:
    """The task's compiled anchors (run `lae compile` first), read through the gate for
    measurement: every result is ``reportable: false``. Built once per task: its documents are
    read and indexed once, not once per memo."""
    key = (str(project.root), pocket)
    if key not in _OPENED:
        _OPENED[key] = open_for_measurement(project, pocket, reason="development measurement")
    if key + (task,) not in _CONTEXTS:
        _CONTEXTS[key + (task,)] = load_task_context(_OPENED[key], task)
    return _CONTEXTS[key + (task,)]


def _matters(root: Path):
    for labels in sorted(root.glob("*/*/labels.json")):
        yield labels.parent.parent.name, labels.parent.name, labels.parent


def _validation_sets(project: Project):
    """``keys_private/<pocket>/validation/<task>/``: ``<id>.md`` memos and ``labels.yaml``."""
    for labels in sorted(project.root.glob("keys_private/*/validation/*/labels.yaml")):
        yield labels.parent.parent.parent.name, labels.parent.name, labels.parent


def _validation_memos(folder: Path, deliverable: str, tmp: Path) -> dict[str, tuple[list[Path], dict[str, str]]]:
    data = yaml_data((folder / "labels.yaml").read_text(encoding="utf-8"))
    out = {}
    for memo_id, memo in sorted(data["memos"].items()):
        target = tmp / folder.name / memo_id / deliverable
        target.parent.mkdir(parents=True, exist_ok=True)
        markdown_to_docx((folder / f"{memo_id}.md").read_text(encoding="utf-8"), target)
        labels = {k: v["label"] for k, v in memo["labels"].items()}
        out[memo.get("kind", memo_id)] = ([target], labels)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memos", default=str(Path(__file__).resolve().parents[2] / "shared" / "fidelity"))
    parser.add_argument("--root", default=None)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--validation", action="store_true",
                        help="score the project's own validation sets (keys_private/*/validation/) instead")
    args = parser.parse_args()
    project = Project.at(args.root)
    tally: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    tmp = Path(tempfile.mkdtemp(prefix="lae-fidelity-"))
    sets = _validation_sets(project) if args.validation else _matters(Path(args.memos))
    for pocket, task, folder in sets:
        try:
            ctx = _context(project, pocket, task)
        except Exception as exc:  # a v1 key: not measurable with this grader
            print(f"skipped {task}: {str(exc).splitlines()[0]}")
            continue
        if args.validation:
            memos = _validation_memos(folder, ctx.anchors.deliverables[0], tmp)
        else:
            labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
            memos = {kind: (sorted((folder / kind).glob("*.docx")), lab) for kind, lab in labels.items()}
        for kind, (files, lab) in sorted(memos.items()):
            res = score_files(ctx, files)
            t = tally[kind]
            t["memos"] += 1
            t["reward"] += res.metrics.reward
            for f in res.findings:
                want = lab[f.id]
                if want == "RAISED":
                    t["raised"] += 1
                    t["under"] += not f.credited
                else:
                    t["not_raised"] += 1
                    t["over"] += f.credited
                if args.verbose and (f.credited != (want == "RAISED")):
                    ev = f.evidence or f.near_miss
                    hits = "; ".join(f"{h.category}:{h.term}={h.text!r}" for h in ev.hits) if ev else ""
                    prob = [h for h in ev.hits if h.category == "problem"] if ev else []
                    if prob:
                        text = res.graded_text
                        a = max(text.rfind(". ", 0, prob[0].span[0]), text.rfind("\n", 0, prob[0].span[0]))
                        b = min(x for x in (text.find(". ", prob[0].span[1]), text.find("\n", prob[0].span[1]), len(text)) if x >= 0)
                        hits = f"UNIT {text[a + 1:b + 1].strip()!r}\n      {hits}"
                    print(f"  {task} {kind} {f.id} label={want} credited={f.credited}: {f.reason}"
                          + (f"\n      | {ev.text[:300]!r}\n      hits {hits[:400]}" if ev else ""))
            for d in res.distractors:
                t["distractor_dis"] += d.flagged != (lab[d.id] == "ESCALATED")
                if args.verbose and d.flagged != (lab[d.id] == "ESCALATED"):
                    ev = d.evidence or d.declined
                    print(f"  {task} {kind} {d.id} label={lab[d.id]} flagged={d.flagged}"
                          + (f" {ev.reason}\n      | {ev.text[:300]!r}" if ev else ""))
            for c in res.claims:
                t["claim_dis"] += c.made != (lab[c.id] == "MADE")
                if args.verbose and c.made != (lab[c.id] == "MADE"):
                    print(f"  {task} {kind} {c.id} label={lab[c.id]} made={c.made}"
                          + (f"\n      | {c.evidence.text[:300]!r}" if c.evidence else ""))
    shutil.rmtree(tmp, ignore_errors=True)
    print("kind  memos  over-credit        under-credit       distr.dis claim.dis mean-reward")
    total = defaultdict(float)
    for kind, t in sorted(tally.items()):
        for k, v in t.items():
            total[k] += v
        over = f"{int(t['over'])}/{int(t['not_raised'])}" + (f" {t['over'] / t['not_raised']:.0%}" if t["not_raised"] else "")
        under = f"{int(t['under'])}/{int(t['raised'])}" + (f" {t['under'] / t['raised']:.0%}" if t["raised"] else "")
        print(f"{kind:5} {int(t['memos']):5}  {over:18} {under:18} {int(t['distractor_dis']):9} "
              f"{int(t['claim_dis']):9} {t['reward'] / t['memos']:.3f}")
    print(f"all   {int(total['memos']):5}  over {total['over'] / max(1, total['not_raised']):.1%}  "
          f"under {total['under'] / max(1, total['raised']):.1%}")


if __name__ == "__main__":
    main()
