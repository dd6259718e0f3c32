"""Train the learned assertion layer (lae.match.assertion) on labelled validation memos.

For every (memo, finding) of the development sets that the model judges, the engine's assertion
features are extracted (the engine attaches them to the evidence): rule credits (in the veto
scope) and soft candidates (the rule rejected the finding for how it was said: hedged, reported,
negated, a bare citation, a heading, dismissed, while naming its subject and problem); labels:
RAISED = 1, NOT_RAISED / DISMISSED = 0. An L2-regularised logistic regression is fitted by
Newton's method (fixed iterations, plain Python: deterministic, no numpy at run time), its
threshold chosen on leave-one-matter-out predictions, and the weights written as the generated
module ``lae/match/_assertion_weights.py`` (hashed into the grader identity with every scoring
module). Prints leave-one-matter-out over-/under-credit per memo kind and macro F1, rule alone
against rule + layer, and the in-sample figures.

    python bench/train_assertion.py [--memos DIR ...] [--check [--sample TASK ...]]

Training data (the default): the validation batches named in ``TRAIN_IDS`` (memo ids A–G,
A2–G2, ..., A6–G6, A8–G8, ..., A19–G19, and the fifteen G7 kitchen-sink memos under ``keys_private/*/validation/``)
and ``../shared/fidelity``. A batch kept off main (a branch ``holdout-batch<n>``) is held out: it measures the layer on memos it never saw (``lae fidelity``). ``--memos DIR``
replaces the shared development set by other folders in its layout.

A training run also writes every (memo, finding) row, features and label, to
``bench/assertion_rows.jsonl`` (one canonical JSON object per line; numbers only, no memo text).

``--check`` re-extracts every row with the grader as it is, refits with the pinned policy, and
exits 1 if the rows differ from the rows file or the module from the file (~4 minutes).
``--check --sample TASK`` re-extracts only the named matters' rows (every memo of theirs, the
development set's included), compares them with the rows file, and refits from the rows file: the
test suite's check (a grader change that moves any feature of the sampled matters fails it; the
full check runs as its own CI step).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import math
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fidelity_dev import _context, _matters  # noqa: E402  (bench helper: the key compiled in memory)

from lae.canonical import canonical_bytes, parse_json_strict  # noqa: E402
from lae.grader.deliverables import read_deliverable  # noqa: E402
from lae.fsio import atomic_write  # noqa: E402
from lae.match import _assertion_weights as pinned  # noqa: E402
from lae.match.assertion import FEATURE_NAMES, in_scope, veto_threshold  # noqa: E402
from lae.match.engine import analyze_text  # noqa: E402
from lae.match.normalize import normalize  # noqa: E402
from lae.project import Project  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS_MODULE = ROOT / "lae" / "match" / "_assertion_weights.py"
ROWS_FILE = ROOT / "bench" / "assertion_rows.jsonl"
DEFAULT_MEMOS = (str(ROOT.parent / "shared" / "fidelity"),)
TRAIN_IDS = frozenset(k + b for k in "ABCDEFG" for b in ("", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19"))  # batches 1-6, 8-19 and G7
OVER_TARGET, UNDER_TARGET = 0.02, 0.10  # the fidelity targets the thresholds are chosen against
L2 = 1.0  # penalty on the weights (not the bias), in units of the summed, class-balanced log loss
NEWTON_STEPS = 30
THRESHOLDS = [round(0.02 * i, 2) for i in range(1, 50)]
RESCUE_THRESHOLDS = [*(round(0.02 * i, 2) for i in range(15, 50)), 1.01]  # 1.01: never rescue
# The policies on offer. Two more were measured and left out because the compiler refuses them:
# veto scope "all" (and marks of recital) vetoes the keys' own calibration positives (one plain
# sentence of fact and consequence, no hedge; "tiered" leaves a text that short to the rule), and rescuing what the rule read as a definition,
# a report, a bare list, a question, a negation or a dismissal credits the red team's must-not
# variants; rescuing a heading without analysis under it credits a memo of bare terms, one per line
# (the keyword-salad attack). The compiler's calibration and red team, and the attack memos of
# tests/pockets, stay the hard constraints; the model works inside them.
SCOPES = ("hedged", "marked", "tiered")
RESCUE_SETS: dict[str, tuple[str, ...]] = {
    "none": (),
    "narrow": ("r_citation", "r_hedge"),
}
# The tiered model, trained on every rule credit, rescued hedged and citation-only candidates that
# the red team's glossary variants and a key's calibration negative ("Whether the drivers fail the
# ABC test is not a concern ...") must not credit, at every rescue threshold on offer: it rescues nothing.
# A third rescue was measured and left out: a sentence naming the subject with a plain word of wrongness
# ("was never valid", "won't hold up") and none of the key's problem phrases, as a soft candidate. It
# moved leave-one-matter-out figures little (over 5.1% -> 4.7%, under 11.2% -> 11.3%) and its chosen
# threshold credited a key's calibration negative ("We discuss the unlicensed Phase 1 question ...").
POLICIES = [(s, r) for s in SCOPES for r in RESCUE_SETS if not (s == "tiered" and r != "none")]


@dataclass(frozen=True)
class Row:
    matter: str
    kind: str
    finding: str
    raised: bool
    rule_credit: bool
    features: tuple[float, ...]  # empty: the model has nothing to judge (no credit, no soft candidate)
    memo: str = ""  # the memo's id within its matter

    @property
    def soft(self) -> bool:
        """The rule rejected the finding for how it was said; the model may rescue it."""
        return bool(self.features) and not self.rule_credit

    @functools.cached_property
    def named(self) -> dict[str, float]:
        """The features by name (built once: policy search asks of every row many times)."""
        return dict(zip(FEATURE_NAMES, self.features))

    def judged(self, scope: str, rescue: str) -> bool:
        """The model decides this row under a veto scope and a rescue set."""
        return bool(self.features) and in_scope(self.named, scope, RESCUE_SETS[rescue])


@dataclass(frozen=True)
class Policy:
    """The decision the pinned module encodes: veto scope, rescue set and the two thresholds."""

    scope: str
    rescue_set: str
    threshold: float
    rescue: float
    unmarked: float = 0.0  # the tiered scope's threshold for a discussion without a mark

    @property
    def key(self) -> tuple[str, str]:
        return self.scope, self.rescue_set

    def credited(self, row: Row, p: float | None) -> bool:
        judged = row.judged(self.scope, self.rescue_set) and p is not None
        if row.soft:
            return judged and p >= self.rescue  # type: ignore[operator]
        if not (row.rule_credit and judged):
            return row.rule_credit
        return p >= veto_threshold(row.named, self.scope, self.threshold, self.unmarked)  # type: ignore[operator]


def _project_memos(project: Project):
    """(task, kind, .docx files, labels) of the first validation batch of every matter."""
    for labels_path in sorted(project.root.glob("keys_private/*/validation/*/labels.yaml")):
        folder = labels_path.parent
        data = yaml.safe_load(labels_path.read_text(encoding="utf-8"))
        for memo_id, memo in sorted(data["memos"].items()):
            if memo_id in TRAIN_IDS:
                yield (folder.parent.parent.name, folder.name, memo_id, memo["kind"], sorted((folder / memo_id).glob("*.docx")),
                       {k: v["label"] for k, v in memo["labels"].items()})


def _folder_memos(root: Path):
    """(task, kind, .docx files, labels) of a folder in the layout of ../shared/fidelity."""
    for pocket, task, folder in _matters(root):
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        for kind, lab in sorted(labels.items()):
            yield pocket, task, f"{root.name}/{kind}", kind, sorted((folder / kind).glob("*.docx")), lab


def collect(roots: list[str], project: Project, matters: frozenset[str] | None = None) -> tuple[list[Row], float]:
    """One row per (memo, finding); features only where the rule credits. Returns rows and the
    mean analysis time per memo (ms). ``matters``: only these tasks' memos."""
    rows: list[Row] = []
    elapsed, memos = 0.0, 0
    sources = [_project_memos(project), *(_folder_memos(Path(r)) for r in roots)]
    for pocket, task, memo, kind, files, lab in (m for source in sources for m in source):
        if matters is not None and task not in matters:
            continue
        ctx = _context(project, pocket, task)
        for path in files:
            text = read_deliverable(path, path.name).text or ""
            norm = normalize(text)
            t0 = time.perf_counter()
            analysis = analyze_text(ctx.anchors.match_spec(), text, ctx.index.mask(norm), norm=norm)
            elapsed += time.perf_counter() - t0
            memos += 1
            for f in analysis.findings:
                ev = f.credit or f.near_miss
                model = ev.model if ev is not None else None
                feats = tuple(model.features[k] for k in FEATURE_NAMES) if model else ()
                rule = model is not None and model.features["rule_credit"] >= 1.0
                rows.append(Row(task, kind, f.id, lab[f.id] == "RAISED", rule, feats, memo))
    return rows, 1000 * elapsed / max(1, memos)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting (a is positive definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: (abs(m[r][col]), -r))
        m[col], m[piv] = m[piv], m[col]
        d = m[col][col]
        m[col] = [x / d for x in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] for i in range(n)]


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def fit(xs: list[tuple[float, ...]], ys: list[bool]) -> list[float]:
    """Class-balanced, L2-regularised logistic regression; returns [bias, w1, ...]. Newton's
    method, stopped when no weight moves by more than 1e-12 (or after NEWTON_STEPS)."""
    n, k = len(xs), len(xs[0]) + 1
    pos = sum(ys)
    cw = {True: n / (2.0 * max(1, pos)), False: n / (2.0 * max(1, n - pos))}
    xb = [(1.0,) + x for x in xs]
    nz = [[i for i, v in enumerate(x) if v] for x in xb]
    w = [0.0] * k
    for _ in range(NEWTON_STEPS):
        grad = [0.0 if j == 0 else L2 * w[j] for j in range(k)]
        hess = [[(L2 if i == j and i > 0 else (1e-9 if i == j else 0.0)) for j in range(k)] for i in range(k)]
        for x, idx, y in zip(xb, nz, ys):
            p = _sigmoid(sum(w[i] * x[i] for i in idx))
            c = cw[y]
            r = c * (p - float(y))
            s = c * p * (1.0 - p)
            for i in idx:
                grad[i] += r * x[i]
                si = s * x[i]
                hi = hess[i]
                for j in idx:
                    hi[j] += si * x[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(d) for d in step) < 1e-12:
            break
    return w


def predict(w: list[float], x: tuple[float, ...]) -> float:
    return _sigmoid(w[0] + sum(a * b for a, b in zip(w[1:], x)))


def tally(rows: list[Row], probs: dict[int, float], policy: Policy | None) -> dict[str, dict[str, int]]:
    """Per kind: over (credited, not RAISED), neg, under (RAISED, not credited), pos. Without a
    policy: the rule alone."""
    t: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for i, r in enumerate(rows):
        credited = r.rule_credit if policy is None else policy.credited(r, probs.get(i))
        k = t[r.kind]
        if r.raised:
            k["pos"] += 1
            k["under"] += not credited
            k["tp"] += credited
        else:
            k["neg"] += 1
            k["over"] += credited
    return t


def _sum(t: dict[str, dict[str, int]]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for k in t.values():
        for name, v in k.items():
            out[name] += v
    return out


def macro_f1(a: dict[str, int]) -> float:
    """Mean of the F1 of 'credited = RAISED' and of 'not credited = not RAISED'."""
    tp, fp, fn = a["tp"], a["over"], a["under"]
    tn = a["neg"] - a["over"]
    f_pos = 2 * tp / max(1, 2 * tp + fp + fn)
    f_neg = 2 * tn / max(1, 2 * tn + fn + fp)
    return (f_pos + f_neg) / 2


def _balanced_error(rows: list[Row], probs: dict[int, float], policy: Policy) -> float:
    """Over- and under-credit, each in units of its target (issue 13: at most 2% over, 10% under):
    a point of over-credit costs five of under-credit, as the targets weigh them."""
    a = _sum(tally(rows, probs, policy))
    return a["over"] / max(1, a["neg"]) / OVER_TARGET + a["under"] / max(1, a["pos"]) / UNDER_TARGET


def _train_rows(rows: list[Row], key: tuple[str, str]) -> list[Row]:
    return [r for r in rows if r.judged(*key)]


def lomo(rows: list[Row], key: tuple[str, str]) -> dict[int, float]:
    """Leave-one-matter-out probabilities for every row judged under ``key`` (scope, rescue set)."""
    out: dict[int, float] = {}
    judged = _train_rows(rows, key)
    for matter in sorted({r.matter for r in rows}):
        train = [r for r in judged if r.matter != matter]
        w = fit([r.features for r in train], [r.raised for r in train])
        for i, r in enumerate(rows):
            if r.matter == matter and r.judged(*key):
                out[i] = predict(w, r.features)
    return out


def _best_for(rows: list[Row], probs: dict[int, float], key: tuple[str, str]) -> Policy:
    """The thresholds of one scope and rescue set with the least balanced error (ties: the higher
    thresholds). The error sums over rows and each threshold decides its own rows (marked credits,
    soft candidates, the tiered scope's unmarked credits), so the unmarked threshold comes last."""
    best: tuple | None = None
    policy = Policy(*key, 0.5, 1.01)
    for t in THRESHOLDS:
        for tr in (RESCUE_THRESHOLDS if key[1] != "none" else [1.01]):
            candidate = Policy(*key, t, tr)
            score = (round(_balanced_error(rows, probs, candidate), 9), -tr, -t)
            if best is None or score < best:
                best, policy = score, candidate
    if key[0] == "tiered":
        policy = min((dataclasses.replace(policy, unmarked=tu) for tu in [0.0, *THRESHOLDS] if tu <= policy.threshold),
                     key=lambda c: (round(_balanced_error(rows, probs, c), 9), c.unmarked))
    return policy


def choose_policy(rows: list[Row], cv: dict[tuple[str, str], dict[int, float]]) -> Policy:
    """The scope, rescue set and thresholds with the least leave-one-matter-out balanced error
    (ties: the narrower scope and set: the rule's verdict is the default)."""
    best = {key: _best_for(rows, probs, key) for key, probs in cv.items()}
    return min(best.values(), key=lambda p: (round(_balanced_error(rows, cv[p.key], p), 9), list(cv).index(p.key)))


def report(title: str, rows: list[Row], probs: dict[int, float], policy: Policy | None) -> None:
    t = tally(rows, probs, policy)
    print(title)
    print("  kind  over-credit      under-credit")
    for kind in sorted(t):
        k = t[kind]
        over = f"{k['over']}/{k['neg']}" + (f" {k['over'] / k['neg']:.0%}" if k["neg"] else "")
        under = f"{k['under']}/{k['pos']}" + (f" {k['under'] / k['pos']:.0%}" if k["pos"] else "")
        print(f"  {kind:5} {over:16} {under:16}")
    a = _sum(t)
    print(f"  all   over {a['over'] / max(1, a['neg']):.1%}  under {a['under'] / max(1, a['pos']):.1%}  "
          f"macro F1 {macro_f1(a):.3f}")


def digest(rows: list[Row]) -> str:
    data = [[r.matter, r.kind, r.finding, r.raised, r.rule_credit, list(r.features)] for r in rows]
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def rows_bytes(rows: list[Row]) -> bytes:
    """The rows file: one canonical JSON object per row, in collection order."""
    return b"".join(canonical_bytes({"matter": r.matter, "kind": r.kind, "memo": r.memo, "finding": r.finding,
                                     "raised": r.raised, "rule_credit": r.rule_credit,
                                     "features": list(r.features)}) + b"\n" for r in rows)


def read_rows(path: Path = ROWS_FILE) -> list[Row]:
    """The rows a training run wrote (``rows_bytes``)."""
    if not path.is_file():
        raise SystemExit(f"{path}: missing; run `python bench/train_assertion.py` to write it")
    rows = []
    for n, line in enumerate(path.read_bytes().splitlines(), 1):
        try:
            d = parse_json_strict(line)
            rows.append(Row(d["matter"], d["kind"], d["finding"], d["raised"], d["rule_credit"],
                            tuple(float(x) for x in d["features"]), d["memo"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise SystemExit(f"{path}:{n}: not a row ({exc}); rerun `python bench/train_assertion.py`") from exc
    return rows


def check(roots: list[str], project: Project, sample: list[str] | None, rows_file: Path = ROWS_FILE) -> int:
    """Re-extract the rows (all, or the sampled matters'), compare them with the rows file, refit
    with the pinned policy from the rows file and compare the module. 0 if both agree."""
    stored = read_rows(rows_file)
    unknown = sorted(set(sample or ()) - {r.matter for r in stored})
    if unknown:
        raise SystemExit(f"--sample {', '.join(unknown)}: no rows of that matter in {rows_file}")
    fresh, _ = collect(roots, project, frozenset(sample) if sample else None)
    expected = [r for r in stored if not sample or r.matter in sample]
    if fresh != expected:
        first = next((i for i, (a, b) in enumerate(zip(fresh, expected)) if a != b), min(len(fresh), len(expected)))
        print(f"{rows_file}: differs from a fresh extraction ({len(fresh)} rows against {len(expected)}; "
              f"first difference at row {first} of the {'sample' if sample else 'file'})")
        return 1
    policy = Policy(pinned.VETO_SCOPE, _rescue_set_named(pinned.RESCUE_REASONS), pinned.THRESHOLD,
                    pinned.RESCUE_THRESHOLD, pinned.UNMARKED_THRESHOLD)
    train = _train_rows(stored, policy.key)
    text = module_text(fit([r.features for r in train], [r.raised for r in train]), policy, stored)
    same = WEIGHTS_MODULE.read_text(encoding="utf-8") == text
    print(f"rows up to date ({len(fresh)} re-extracted)")
    print("weights module up to date" if same else f"{WEIGHTS_MODULE}: differs from a fresh training run")
    return 0 if same else 1


def _rescue_set_named(reasons: tuple[str, ...]) -> str:
    return next(name for name, members in RESCUE_SETS.items() if tuple(members) == tuple(reasons))


def module_text(w: list[float], policy: Policy, rows: list[Row]) -> str:
    train = _train_rows(rows, policy.key)
    lines = [
        '"""Pinned weights of the learned assertion layer (lae.match.assertion). GENERATED: do not edit.',
        "",
        "Generated by ``python bench/train_assertion.py``: class-balanced L2 logistic regression",
        f"(L2={L2!r}, Newton's method) on {len(train)} judged (memo, finding) pairs (veto scope {policy.scope!r},",
        f"rescue set {policy.rescue_set!r}) of",
        f"{len({(r.matter, r.memo) for r in rows})} labelled validation memos of {len({r.matter for r in rows})} matters;"
        " scope and thresholds chosen on leave-one-matter-out predictions.",
        f"Training-set digest (sha256 of the feature rows and labels): {digest(rows)}",
        '"""',
        "",
        f"BIAS = {w[0]!r}",
        f"THRESHOLD = {policy.threshold!r}",
        f"RESCUE_THRESHOLD = {policy.rescue!r}",
        f"UNMARKED_THRESHOLD = {policy.unmarked!r}",
        f"VETO_SCOPE = {policy.scope!r}",
        f"RESCUE_REASONS = {RESCUE_SETS[policy.rescue_set]!r}",
        "WEIGHTS: dict[str, float] = {",
    ]
    lines += [f"    {name!r}: {val!r}," for name, val in sorted(zip(FEATURE_NAMES, w[1:]))]
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memos", action="append", help="a development set root (repeatable)")
    parser.add_argument("--check", action="store_true",
                        help="refit with the pinned scope, rescue set and thresholds; exit 1 if the weights would change")
    parser.add_argument("--policy", help="force the veto scope and rescue set, e.g. 'marked,stance' (thresholds "
                        "are still chosen by leave-one-matter-out)")
    parser.add_argument("--sample", action="append", metavar="TASK",
                        help="with --check: re-extract only this matter's rows (repeatable)")
    parser.add_argument("--rows", metavar="FILE", help="with --check: compare with this rows file (default: "
                        "bench/assertion_rows.jsonl)")
    args = parser.parse_args()
    if (args.sample or args.rows) and not args.check:
        parser.error("--sample and --rows go with --check")
    roots = args.memos or list(DEFAULT_MEMOS)
    if args.check:  # the pinned policy (chosen by a full run) refitted: rows and weights must be the same
        return check(roots, Project.at(None), args.sample, Path(args.rows) if args.rows else ROWS_FILE)
    rows, ms = collect(roots, Project.at(None))
    print(f"{len(rows)} (memo, finding) pairs, {sum(r.rule_credit for r in rows)} rule-credited, "
          f"{sum(r.soft for r in rows)} soft candidates; analysis {ms:.0f} ms/memo")
    keys = [tuple(args.policy.split(","))] if args.policy else POLICIES
    cv = {key: lomo(rows, key) for key in keys}
    policy = choose_policy(rows, cv)
    train = _train_rows(rows, policy.key)
    w = fit([r.features for r in train], [r.raised for r in train])
    text = module_text(w, policy, rows)
    print("leave-one-matter-out, each scope and rescue set at its best thresholds:")
    print("  scope   rescue  veto  unmarked  rescue   over  under  macro F1")
    for key, probs in cv.items():
        best = _best_for(rows, probs, key)
        a = _sum(tally(rows, probs, best))
        print(f"  {key[0]:7} {key[1]:6} {best.threshold:5} {best.unmarked:8} {best.rescue:5}  {a['over'] / max(1, a['neg']):6.1%} "
              f"{a['under'] / max(1, a['pos']):6.1%}  {macro_f1(a):.3f}")
    report("rule alone", rows, cv[policy.key], None)
    report(f"rule + layer, leave-one-matter-out ({policy})", rows, cv[policy.key], policy)
    full = {i: predict(w, r.features) for i, r in enumerate(rows) if r.judged(*policy.key)}
    report("rule + layer, in-sample (all training memos)", rows, full, policy)
    print("weights (bias first):")
    print(f"  bias {w[0]:+.3f}")
    for name, val in sorted(zip(FEATURE_NAMES, w[1:]), key=lambda t: -abs(t[1])):
        print(f"  {name:26} {val:+.3f}")
    atomic_write(WEIGHTS_MODULE, text.encode("utf-8"))
    atomic_write(ROWS_FILE, rows_bytes(rows))
    print(f"wrote {WEIGHTS_MODULE.relative_to(ROOT)} and {ROWS_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
