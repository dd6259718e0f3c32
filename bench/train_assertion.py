"""Train the learned assertion layer (lae.match.assertion) on labelled validation memos.

For every (memo, finding) of the development sets that the model judges, the engine's assertion
features are extracted (the engine attaches them to the evidence): rule credits (in the veto
scope) and soft candidates (the rule rejected the finding for how it was said: hedged, reported,
negated, a bare citation, a heading, dismissed, while naming its subject and problem); labels:
RAISED = 1, NOT_RAISED / DISMISSED = 0. Gradient-boosted decision trees are fitted by
scikit-learn's ``HistGradientBoostingClassifier`` (class-balanced, fixed hyperparameters, one
thread, no early stopping or subsampling: the same rows give the same trees), its thresholds
chosen on leave-one-matter-out predictions, and the trees written as the generated module
``lae/match/_assertion_weights.py`` (plain tuples the grader walks in plain Python: no library
at run time; hashed into the grader identity with every scoring module). Trees replaced an L2
logistic regression on the same features: at the same leave-one-matter-out over-credit they
miss a quarter fewer raised findings (the kitchen-sink register and a real analysis differ in
combinations of features, which a linear score cannot express). Prints leave-one-matter-out over-/under-credit per memo kind and macro F1, rule alone
against rule + layer, and the in-sample figures.

    python bench/train_assertion.py [--memos DIR ...] [--check [--sample TASK ...]]

Training data (the default): the validation batches named in ``TRAIN_IDS`` (memo ids A–G,
A2–G2, ..., A6–G6, A8–G8, ..., A36–G36, and the fifteen G7 kitchen-sink memos under ``keys_private/*/validation/``)
and ``../shared/fidelity``. A batch waiting under ``keys_private/_drafts/batch<n>/`` is held out: it measures the layer on memos it never saw (``lae fidelity``). ``--memos DIR``
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
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from sklearn.ensemble import HistGradientBoostingClassifier  # training only (the test extra): the grader walks the exported trees
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fidelity_dev import _context, _matters  # noqa: E402  (bench helper: the key compiled in memory)

from lae.canonical import canonical_bytes, parse_json_strict  # noqa: E402
from lae.compiler.load import load_key, load_pocket_config, yaml_data  # noqa: E402
from lae.compiler.redteam import comma_list, must_not_variants, must_variants  # noqa: E402
from lae.grader.deliverables import read_deliverable  # noqa: E402
from lae.fsio import atomic_write  # noqa: E402
from lae.match import _assertion_weights as pinned  # noqa: E402
from lae.match.assertion import FEATURE_NAMES, Node, in_scope, probability, veto_threshold  # noqa: E402
from lae.match.engine import analyze_text  # noqa: E402
from lae.match.normalize import normalize  # noqa: E402
from lae.project import Project  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS_MODULE = ROOT / "lae" / "match" / "_assertion_weights.py"
ROWS_FILE = ROOT / "bench" / "assertion_rows.jsonl"
DEFAULT_MEMOS = (str(ROOT.parent / "shared" / "fidelity"),)
FIXTURE_MEMOS = ROOT / "tests" / "fixtures" / "memos"
GENERIC_MAX_CREDITS = 1  # a generic memo may credit at most one finding of its matter (tests/pockets)
TRAIN_IDS = frozenset(k + b for k in "ABCDEFG" for b in ("", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36"))  # batches 1-6, 8-36 and G7
OVER_TARGET, UNDER_TARGET = 0.02, 0.10  # the fidelity targets the thresholds are chosen against
# The boosted trees' hyperparameters (fixed: chosen once on leave-one-matter-out figures, not per run).
TREES, LEARNING_RATE, MAX_LEAVES, MIN_LEAF, L2 = 100, 0.1, 8, 20, 1.0
VALUE_DIGITS = 12  # leaf values and thresholds are written rounded: the module's bytes do not hang on the last ulp
# The over-credit a policy may show on leave-one-matter-out predictions: below the 2% target, with
# room for matters the layer never saw. Within it, the policy that misses fewest raised findings.
OVER_BUDGET = 0.015
# How far inside each pocket's freeze thresholds (pocket.yaml) the chosen policy must keep every
# memo of that pocket's validation set, in sample (:func:`gate_holds`). The estimate scores the
# same memos as the freeze gate (the held-out ones too, since 2026-12-07: an estimate on the
# training memos alone read 9.3% where the gate measured 10.05%), so the margin only absorbs the
# gate's rounding to six places.
GATE_MARGIN = 0.00001
THRESHOLDS = [round(0.02 * i, 2) for i in range(1, 50)]
RESCUE_THRESHOLDS = [*(round(0.02 * i, 2) for i in range(15, 50)), 1.01]  # 1.01: never rescue
NEAREST_REACH = 0.06  # --refit: how far from a pinned threshold it looks for thresholds that keep the gate
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
    "subject": ("r_subject",),
}
# The tiered model, trained on every rule credit, rescued hedged and citation-only candidates that
# the red team's glossary variants and a key's calibration negative ("Whether the drivers fail the
# ABC test is not a concern ...") must not credit, at every rescue threshold on offer: it rescues nothing.
# A third rescue was measured and left out: a sentence naming the subject with a plain word of wrongness
# ("was never valid", "won't hold up") and none of the key's problem phrases, as a soft candidate. It
# moved leave-one-matter-out figures little (over 5.1% -> 4.7%, under 11.2% -> 11.3%) and its chosen
# threshold credited a key's calibration negative ("We discuss the unlicensed Phase 1 question ...").
POLICIES = [(s, r) for s in SCOPES for r in RESCUE_SETS if not (s == "tiered" and r == "narrow")]
# Three more unit features were measured (2026-12-07) and left out: none moved the figures. A hedged legal conclusion
# ("could constitute an unlicensed export", "may have required a licence"; on 412 of 25,977 rows), a word of wrongness
# within 60 characters of the subject's name with no hedge, and whether the unit is itself a question. Leave-one-matter-
# out over the training memos, pinned policy: 2.29% / 8.99% without any of them; 2.29% / 8.99%, 2.37% / 8.98% and
# 2.29% / 8.98% with each. Held out on batch 39 (trained without it): 15.95% under-credit without, 15.95%, 16.14% and
# 16.51% with each. The interview outlines' and kitchen-sink lists' misses come from the memo-level register
# (m_question, m_hedge) learned from forms like them that raised nothing, which no unit feature outweighs.
# Dropping the memo-level question rate (m_question; questions still count where they are asked, d_question) was
# measured after batch 41 (2026-12-07), whose scoping emails list open questions and then conclude ("What I can
# already say: ..."): the layer vetoed 38 of batch 41's 113 misses on m_question. Leave-one-matter-out, pinned
# policy: 2.31% / 8.99% with it, 2.31% / 9.08% without; held out (trained without them): batch 39 15.76% -> 15.95%,
# batch 40 18.25% -> 16.76%, batch 41 20.21% -> 16.10% under-credit. `--refit` without it kept no thresholds within
# the fixture memos and the freeze gate (corporate-governance's under-credit sits at the limit), so it waits.


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


def _project_memos(project: Project, held_out: bool = False, matters: frozenset[str] | None = None):
    """(task, kind, .docx files, labels) of every matter's validation memos named in ``TRAIN_IDS``
    (``held_out``: those not named, which the freeze gate measures too); ``matters``: only these tasks'."""
    for labels_path in sorted(project.root.glob("keys_private/*/validation/*/labels.yaml")):
        folder = labels_path.parent
        if matters is not None and folder.name not in matters:
            continue
        data = yaml_data(labels_path.read_text(encoding="utf-8"))
        for memo_id, memo in sorted(data["memos"].items()):
            if (memo_id in TRAIN_IDS) != held_out:
                yield (folder.parent.parent.name, folder.name, memo_id, memo["kind"], sorted((folder / memo_id).glob("*.docx")),
                       {k: v["label"] for k, v in memo["labels"].items()})


def _folder_memos(root: Path):
    """(task, kind, .docx files, labels) of a folder in the layout of ../shared/fidelity."""
    for pocket, task, folder in _matters(root):
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        for kind, lab in sorted(labels.items()):
            yield pocket, task, f"{root.name}/{kind}", kind, sorted((folder / kind).glob("*.docx")), lab


def _fixture_memos():
    """(task, kind, .docx files, labels) of the suite's bundled memos (``tests/fixtures/memos``):
    kind ``strong`` raises every finding, kind ``generic`` (a fluent memo about the field) none.
    They are not training data: they are constraints the chosen policy must keep (see
    :func:`fixtures_hold`), as the suite's attack tests do (tests/pockets/test_pockets.py)."""
    for folder in sorted(p for p in FIXTURE_MEMOS.glob("*/*") if p.is_dir()):
        for kind in ("strong", "generic"):
            yield folder.parent.name, folder.name, f"fixture/{kind}", kind, [folder / f"{kind}.docx"], None


def _model_of(f):
    """The assertion model's reading of one finding outcome (its credit's, else its near miss's), or None."""
    ev = f.credit or f.near_miss
    return ev.model if ev is not None else None


def _features(model) -> tuple[float, ...]:
    """A row's features in ``FEATURE_NAMES`` order; empty where the model has nothing to judge."""
    return tuple(model.features[k] for k in FEATURE_NAMES) if model else ()


def _constraint_texts(project: Project):
    """(pocket, task, finding ids, must credit?, text) of what ``lae compile`` refuses anchors for:
    each key's calibration positives and negatives and the red team's variants (SPEC section 5)."""
    for path in sorted(project.root.glob("keys_private/*/*.yaml")):
        if path.name == "pocket.yaml":
            continue
        key = load_key(path, project=project)
        pocket, task = path.parent.name, path.stem
        yield pocket, task, tuple(f.id for f in key.findings), False, comma_list(key)
        for f in key.findings:
            yield from ((pocket, task, (f.id,), True, t) for t in f.calibration.positive)
            yield from ((pocket, task, (f.id,), False, t) for t in f.calibration.negative)
            yield from ((pocket, task, (f.id,), True, v.text) for v in must_variants(f))
            yield from ((pocket, task, (f.id,), False, v.text) for v in must_not_variants(f))


def constraint_rows(project: Project) -> list[Row]:
    """One row per (constraint text, finding): kind ``must`` (the text must credit the finding)
    or ``must-not``. Not training data: the chosen policy must keep them all
    (:func:`fixtures_hold`), as the compiler will when it next compiles the keys."""
    rows: list[Row] = []
    contexts: dict[str, tuple] = {}
    for pocket, task, fids, must, text in _constraint_texts(project):
        if task not in contexts:
            ctx = _context(project, pocket, task)
            contexts[task] = (ctx.anchors.match_spec(), ctx.index)
        spec, index = contexts[task]
        norm = normalize(text)
        analysis = analyze_text(spec, text, index.mask(norm), norm=norm)
        for fid in fids:
            f = analysis.finding(fid)
            model = _model_of(f)
            rule = model.features["rule_credit"] >= 1.0 if model else f.credited
            rows.append(Row(task, "must" if must else "must-not", fid, must, rule, _features(model), "constraint"))
    return rows


def _sources(roots: list[str], project: Project, fixtures: bool, held_out: bool, matters: frozenset[str] | None):
    """The memo iterators :func:`collect` reads (see there)."""
    if fixtures:
        return [_fixture_memos()]
    if held_out:
        return [_project_memos(project, True, matters)]
    return [_project_memos(project, False, matters), *(_folder_memos(Path(r)) for r in roots)]


def collect(roots: list[str], project: Project, matters: frozenset[str] | None = None, *,
            fixtures: bool = False, held_out: bool = False) -> tuple[list[Row], float]:
    """One row per (memo, finding); features only where the rule credits. Returns rows and the
    mean analysis time per memo (ms). ``matters``: only these tasks' memos. ``fixtures``: the
    suite's bundled memos instead (a strong memo's findings all raised, a generic memo's none).
    ``held_out``: the project's validation memos outside ``TRAIN_IDS`` instead (not training
    data: the freeze gate measures them, :func:`_gate`)."""
    rows: list[Row] = []
    elapsed, memos = 0.0, 0
    sources = _sources(roots, project, fixtures, held_out, matters)
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
                model = _model_of(f)
                rule = model is not None and model.features["rule_credit"] >= 1.0
                raised = kind == "strong" if lab is None else lab[f.id] == "RAISED"
                rows.append(Row(task, kind, f.id, raised, rule, _features(model), memo))
    return rows, 1000 * elapsed / max(1, memos)


def _round(x: float) -> float:
    return float(f"{float(x):.{VALUE_DIGITS}g}")


def _inner_values(nodes) -> list[float]:
    """Each node's value: a leaf's own; an inner node's, the mean of its leaves' values weighted
    by how many training rows reached each (scikit-learn leaves an inner node's value unset; the
    explanation's contributions are the changes of value along a path)."""
    values = [0.0] * len(nodes)

    def fill(i: int) -> tuple[float, int]:
        n = nodes[i]
        if n["is_leaf"]:
            values[i] = float(n["value"])
            return values[i] * int(n["count"]), int(n["count"])
        (ls, lc), (rs, rc) = fill(int(n["left"])), fill(int(n["right"]))
        values[i] = (ls + rs) / max(1, lc + rc)
        return ls + rs, lc + rc

    fill(0)
    return values


def _export(tree) -> tuple[Node, ...]:
    """One fitted scikit-learn tree predictor as plain nodes (see :data:`lae.match.assertion.Node`)."""
    nodes = tree.nodes
    values = _inner_values(nodes)
    out = []
    for n, value in zip(nodes, values):
        leaf = bool(n["is_leaf"])
        out.append(("" if leaf else FEATURE_NAMES[int(n["feature_idx"])], 0.0 if leaf else _round(n["num_threshold"]),
                    0 if leaf else int(n["left"]), 0 if leaf else int(n["right"]), _round(value)))
    return tuple(out)


@dataclass(frozen=True)
class Forest:
    """The fitted model: the baseline log-odds and the trees."""

    baseline: float
    trees: tuple[tuple[Node, ...], ...]


def fit(xs: list[tuple[float, ...]], ys: list[bool]) -> Forest:
    """Class-balanced gradient-boosted trees on the rows (one thread: deterministic)."""
    model = HistGradientBoostingClassifier(max_iter=TREES, learning_rate=LEARNING_RATE, max_leaf_nodes=MAX_LEAVES,
                                           min_samples_leaf=MIN_LEAF, l2_regularization=L2, class_weight="balanced",
                                           early_stopping=False, random_state=0)
    with threadpool_limits(limits=1):
        model.fit([list(x) for x in xs], [int(y) for y in ys])
    baseline = _round(model._baseline_prediction.ravel()[0])
    return Forest(baseline, tuple(_export(p[0]) for p in model._predictors))


def predict(forest: Forest, x: tuple[float, ...]) -> float:
    return probability(dict(zip(FEATURE_NAMES, x)), forest.trees, forest.baseline)


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


def _cost(rows: list[Row], probs: dict[int, float], policy: Policy) -> tuple[int, float]:
    """What a policy is chosen by (smaller is better): within the over-credit budget, its
    under-credit; outside it (after every policy within), its balanced error."""
    a = _sum(tally(rows, probs, policy))
    over, under = a["over"] / max(1, a["neg"]), a["under"] / max(1, a["pos"])
    if over <= OVER_BUDGET:
        return 0, round(under, 9)
    return 1, round(over / OVER_TARGET + under / UNDER_TARGET, 9)


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


@dataclass(frozen=True)
class Fixtures:
    """The suite's bundled memos as rows, with the probabilities of the model fitted on every
    training row (per scope and rescue set): what a policy must keep (:func:`fixtures_hold`)."""

    rows: list[Row]
    probs: dict[tuple[str, str], dict[int, float]]


def fixtures_hold(fx: Fixtures | None, policy: Policy) -> bool:
    """Every strong memo credits all its findings and every generic memo at most
    ``GENERIC_MAX_CREDITS`` (the suite's tests/pockets checks, under the policy's final model);
    every compiler constraint holds (a calibration positive or must-credit variant credits its
    finding, a calibration negative, must-not variant or comma list does not)."""
    if fx is None:
        return True
    probs = fx.probs[policy.key]
    credited: dict[tuple[str, str], int] = defaultdict(int)
    for i, r in enumerate(fx.rows):
        hit = policy.credited(r, probs.get(i))
        if (r.kind in ("strong", "must") and not hit) or (r.kind == "must-not" and hit):
            return False
        credited[(r.matter, r.memo)] += hit and r.kind == "generic"
    return all(n <= GENERIC_MAX_CREDITS for n in credited.values())


@dataclass(frozen=True)
class Gate:
    """What ``lae freeze`` will measure, on every validation memo's rows: per scope and rescue
    set, the in-sample probabilities of the model fitted on every training row; each matter's
    pocket; each pocket's thresholds (over, under) from its ``pocket.yaml``."""

    rows: list[Row]
    probs: dict[tuple[str, str], dict[int, float]]
    pockets: dict[str, str]
    limits: dict[str, tuple[float, float]]


def pocket_tally(gate: Gate, policy: Policy) -> dict[str, dict[str, int]]:
    """Per pocket, the policy's in-sample tally of the rows of that pocket's validation set (the
    shared development set, ``fidelity/<kind>``, belongs to no pocket)."""
    probs = gate.probs[policy.key]
    by_pocket: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(gate.rows):
        if "/" not in r.memo and r.matter in gate.pockets:
            by_pocket[gate.pockets[r.matter]].append(i)
    return {pocket: _sum(tally([gate.rows[i] for i in idx], {j: probs[i] for j, i in enumerate(idx) if i in probs}, policy))
            for pocket, idx in sorted(by_pocket.items())}


def gate_holds(gate: Gate | None, policy: Policy) -> bool:
    """Every pocket's in-sample over- and under-credit at least ``GATE_MARGIN`` inside its
    freeze thresholds: a policy the freeze gate would refuse is not on offer."""
    if gate is None:
        return True
    for pocket, a in pocket_tally(gate, policy).items():
        max_over, max_under = gate.limits[pocket]
        if (a["over"] / max(1, a["neg"]) > max_over - GATE_MARGIN
                or a["under"] / max(1, a["pos"]) > max_under - GATE_MARGIN):
            return False
    return True


def _holds(fx: Fixtures | None, gate: Gate | None, policy: Policy) -> bool:
    return fixtures_hold(fx, policy) and gate_holds(gate, policy)


def _best_for(rows: list[Row], probs: dict[int, float], key: tuple[str, str], fx: Fixtures | None = None,
              gate: Gate | None = None) -> Policy | None:
    """The thresholds of one scope and rescue set of least cost (:func:`_cost`; ties: the higher
    thresholds) that keep the fixture memos and the freeze gate (None: no thresholds do). The cost
    sums over rows and each threshold decides its own rows (marked credits, soft candidates, the
    tiered scope's unmarked credits), so the unmarked threshold comes last."""
    ranked = sorted(((_cost(rows, probs, c), -c.rescue, -c.threshold), c) for c in
                    (Policy(*key, t, tr) for t in THRESHOLDS for tr in (RESCUE_THRESHOLDS if key[1] != "none" else [1.01])))
    for _score, policy in ranked:
        if key[0] != "tiered":
            if _holds(fx, gate, policy):
                return policy
            continue
        kept = [c for c in (dataclasses.replace(policy, unmarked=tu) for tu in [0.0, *THRESHOLDS] if tu <= policy.threshold)
                if _holds(fx, gate, c)]
        if kept:
            return min(kept, key=lambda c: (_cost(rows, probs, c), -c.unmarked))
    return None


def choose_policy(rows: list[Row], cv: dict[tuple[str, str], dict[int, float]], fx: Fixtures | None = None,
                  per_key: dict[tuple[str, str], Policy | None] | None = None, gate: Gate | None = None) -> Policy:
    """The scope, rescue set and thresholds of least leave-one-matter-out cost that keep the
    fixture memos and the freeze gate (ties: the narrower scope and set: the rule's verdict is the
    default). ``per_key``: each scope and rescue set's best thresholds, if already found."""
    per_key = per_key if per_key is not None else {key: _best_for(rows, probs, key, fx, gate) for key, probs in cv.items()}
    best = [p for p in per_key.values() if p is not None]
    if not best:
        raise SystemExit("no scope, rescue set and thresholds keep the fixture memos (tests/fixtures/memos) and the "
                         "freeze gate: every strong memo fully credited, every generic memo at most "
                         f"{GENERIC_MAX_CREDITS} credit, every pocket's validation set within its pocket.yaml "
                         f"thresholds less {GATE_MARGIN}; mend the features or the rule, then retrain")
    return min(best, key=lambda p: (_cost(rows, cv[p.key], p), list(cv).index(p.key)))


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
    policy = _pinned_policy()
    train = _train_rows(stored, policy.key)
    text = module_text(fit([r.features for r in train], [r.raised for r in train]), policy, stored)
    same = WEIGHTS_MODULE.read_text(encoding="utf-8") == text
    print(f"rows up to date ({len(fresh)} re-extracted)")
    print("weights module up to date" if same else f"{WEIGHTS_MODULE}: differs from a fresh training run")
    return 0 if same else 1


def _pinned_policy() -> Policy:
    """The scope, rescue set and thresholds the weights module was trained with."""
    return Policy(pinned.VETO_SCOPE, _rescue_set_named(pinned.RESCUE_REASONS), pinned.THRESHOLD,
                  pinned.RESCUE_THRESHOLD, pinned.UNMARKED_THRESHOLD)


def refit(roots: list[str], project: Project) -> int:
    """Extract the rows afresh, refit the forest with the pinned policy, report its in-sample
    figures per pocket and write the module and the rows file."""
    rows, ms = collect(roots, project)
    policy = _pinned_policy()
    print(f"{len(rows)} (memo, finding) pairs; analysis {ms:.0f} ms/memo; refitting with {policy}")
    train = _train_rows(rows, policy.key)
    forest = fit([r.features for r in train], [r.raised for r in train])
    gate = _gate(rows, {policy.key: forest}, project)
    report("rule + layer, in-sample (all training memos)", rows, gate.probs[policy.key], policy)
    _print_pockets(gate, policy)
    fx = _fixtures({policy.key: forest})
    if not _holds(fx, gate, policy):
        near = _nearest_holding(fx, gate, policy)
        if near is None:
            print("no thresholds keep the fixture memos and the freeze gate; nothing written: mend the rule or run a "
                  "full training (`python bench/train_assertion.py`)")
            return 1
        print(f"the pinned thresholds no longer keep the fixture memos and the freeze gate; the nearest that do: {near}")
        policy = near
        _print_pockets(gate, policy)
    atomic_write(WEIGHTS_MODULE, module_text(forest, policy, rows).encode("utf-8"))
    atomic_write(ROWS_FILE, rows_bytes(rows))
    print(f"wrote {WEIGHTS_MODULE.relative_to(ROOT)} and {ROWS_FILE.relative_to(ROOT)}")
    return 0


def _print_pockets(gate: Gate, policy: Policy) -> None:
    """Each pocket's in-sample over- and under-credit under ``policy`` (the freeze gate's estimate)."""
    for pocket, a in pocket_tally(gate, policy).items():
        print(f"    {pocket:22} over {a['over'] / max(1, a['neg']):.1%}  under {a['under'] / max(1, a['pos']):.1%}")


def _nearest_holding(fx: Fixtures, gate: Gate, pinned_policy: Policy) -> Policy | None:
    """The thresholds of the pinned scope and rescue set nearest the pinned ones (summed distance;
    ties: the higher) that keep the fixture memos and the freeze gate, or None."""
    def near(values: list[float], v: float) -> list[float]:
        return [x for x in values if abs(x - v) <= NEAREST_REACH + 1e-9]
    grid = [dataclasses.replace(pinned_policy, threshold=t, rescue=r, unmarked=u)
            for t in near(THRESHOLDS, pinned_policy.threshold) for r in near(RESCUE_THRESHOLDS, pinned_policy.rescue)
            for u in near(THRESHOLDS, pinned_policy.unmarked) if u <= t]
    def distance(p: Policy) -> tuple[float, float]:
        d = abs(p.threshold - pinned_policy.threshold) + abs(p.rescue - pinned_policy.rescue) + abs(p.unmarked - pinned_policy.unmarked)
        return round(d, 6), -(p.threshold + p.rescue + p.unmarked)
    return next((p for p in sorted(grid, key=distance) if _holds(fx, gate, p)), None)


def _rescue_set_named(reasons: tuple[str, ...]) -> str:
    return next(name for name, members in RESCUE_SETS.items() if tuple(members) == tuple(reasons))


def module_text(forest: Forest, policy: Policy, rows: list[Row]) -> str:
    train = _train_rows(rows, policy.key)
    lines = [
        '"""Pinned model of the learned assertion layer (lae.match.assertion). GENERATED: do not edit.',
        "",
        "Generated by ``python bench/train_assertion.py``: class-balanced gradient-boosted trees",
        f"({TREES} trees of at most {MAX_LEAVES} leaves, learning rate {LEARNING_RATE!r}, at least {MIN_LEAF} rows a leaf,"
        f" L2={L2!r};",
        f"scikit-learn's HistGradientBoostingClassifier) on {len(train)} judged (memo, finding) pairs (veto scope"
        f" {policy.scope!r},",
        f"rescue set {policy.rescue_set!r}) of",
        f"{len({(r.matter, r.memo) for r in rows})} labelled validation memos of {len({r.matter for r in rows})} matters;"
        " scope and thresholds chosen on leave-one-matter-out predictions.",
        f"Training-set digest (sha256 of the feature rows and labels): {digest(rows)}",
        "A node is (feature, threshold, left, right, value): a feature value <= threshold goes left; a leaf's",
        "feature is empty. The log-odds is BASELINE plus the value of the leaf each tree sends the features to.",
        '"""',
        "",
        f"BASELINE = {forest.baseline!r}",
        f"THRESHOLD = {policy.threshold!r}",
        f"RESCUE_THRESHOLD = {policy.rescue!r}",
        f"UNMARKED_THRESHOLD = {policy.unmarked!r}",
        f"VETO_SCOPE = {policy.scope!r}",
        f"RESCUE_REASONS = {RESCUE_SETS[policy.rescue_set]!r}",
        "TREES: tuple[tuple[tuple[str, float, int, int, float], ...], ...] = (",
    ]
    for tree in forest.trees:
        lines.append("    (")
        lines += [f"        {node!r}," for node in tree]
        lines.append("    ),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def _importance(forest: Forest) -> list[tuple[str, int]]:
    """How many splits each feature makes across the trees, most first."""
    counts: dict[str, int] = defaultdict(int)
    for tree in forest.trees:
        for node in tree:
            if node[0]:
                counts[node[0]] += 1
    return sorted(counts.items(), key=lambda t: (-t[1], t[0]))


def _final_forests(rows: list[Row], keys: list[tuple[str, str]]) -> dict[tuple[str, str], Forest]:
    """Per scope and rescue set, the model fitted on every training row it judges."""
    forests = {}
    for key in keys:
        train = _train_rows(rows, key)
        forests[key] = fit([r.features for r in train], [r.raised for r in train])
    return forests


def _in_sample(rows: list[Row], forests: dict[tuple[str, str], Forest]) -> dict[tuple[str, str], dict[int, float]]:
    return {key: {i: predict(forest, r.features) for i, r in enumerate(rows) if r.judged(*key)}
            for key, forest in forests.items()}


def _fixtures(forests: dict[tuple[str, str], Forest]) -> Fixtures:
    """The fixture memos' rows and, per scope and rescue set, their probabilities under the
    model fitted on every training row that scope and set judge."""
    fixture_rows, _ms = collect([], Project.at(None), fixtures=True)
    fixture_rows += constraint_rows(Project.at(None))
    return Fixtures(fixture_rows, _in_sample(fixture_rows, forests))


def _gate(rows: list[Row], forests: dict[tuple[str, str], Forest], project: Project) -> Gate:
    """Every validation memo's rows as the freeze gate will see them (:class:`Gate`): the training
    rows and the project's held-out ones (``TRAIN_IDS`` leaves some landed memos out)."""
    held, _ms = collect([], project, held_out=True)
    rows = rows + held
    pockets = {path.stem: path.parent.name for path in sorted(project.root.glob("keys_private/*/*.yaml"))
               if path.name != "pocket.yaml"}
    limits = {}
    for pocket in sorted(set(pockets.values())):
        f = load_pocket_config(project, pocket).fidelity
        limits[pocket] = (f.max_over_credit, f.max_under_credit)
    return Gate(rows, _in_sample(rows, forests), pockets, limits)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memos", action="append", help="a development set root (repeatable)")
    parser.add_argument("--check", action="store_true",
                        help="refit with the pinned scope, rescue set and thresholds; exit 1 if the weights would change")
    parser.add_argument("--policy", help="force the veto scope and rescue set, e.g. 'marked,stance' (thresholds "
                        "are still chosen by leave-one-matter-out)")
    parser.add_argument("--refit", action="store_true",
                        help="refit with the pinned scope, rescue set and thresholds on freshly extracted rows and "
                        "write the module and rows (no leave-one-matter-out search: after a change of the rule "
                        "that leaves the policy standing; the freeze gate still judges the result)")
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
    if args.refit:
        return refit(roots, Project.at(None))
    rows, ms = collect(roots, Project.at(None))
    print(f"{len(rows)} (memo, finding) pairs, {sum(r.rule_credit for r in rows)} rule-credited, "
          f"{sum(r.soft for r in rows)} soft candidates; analysis {ms:.0f} ms/memo")
    keys = [tuple(args.policy.split(","))] if args.policy else POLICIES
    cv = {key: lomo(rows, key) for key in keys}
    forests = _final_forests(rows, keys)
    fx, gate = _fixtures(forests), _gate(rows, forests, Project.at(None))
    per_key = {key: _best_for(rows, probs, key, fx, gate) for key, probs in cv.items()}
    policy = choose_policy(rows, cv, fx, per_key, gate)
    w = forests[policy.key]
    text = module_text(w, policy, rows)
    print("leave-one-matter-out, each scope and rescue set at its best thresholds that keep the fixture memos and the freeze gate:")
    print("  scope   rescue  veto  unmarked  rescue   over  under  macro F1")
    for key, probs in cv.items():
        best = per_key[key]
        if best is None:
            print(f"  {key[0]:7} {key[1]:6} no thresholds keep the fixture memos and the freeze gate")
            continue
        a = _sum(tally(rows, probs, best))
        print(f"  {key[0]:7} {key[1]:6} {best.threshold:5} {best.unmarked:8} {best.rescue:5}  {a['over'] / max(1, a['neg']):6.1%} "
              f"{a['under'] / max(1, a['pos']):6.1%}  {macro_f1(a):.3f}")
    report("rule alone", rows, cv[policy.key], None)
    report(f"rule + layer, leave-one-matter-out ({policy})", rows, cv[policy.key], policy)
    full = gate.probs[policy.key]
    report("rule + layer, in-sample (all training memos)", rows, full, policy)
    print("  in sample per pocket (the freeze gate's estimate):")
    _print_pockets(gate, policy)
    print(f"trees: {len(w.trees)}, baseline {w.baseline:+.3f}; splits per feature:")
    for name, n in _importance(w):
        print(f"  {name:26} {n}")
    atomic_write(WEIGHTS_MODULE, text.encode("utf-8"))
    atomic_write(ROWS_FILE, rows_bytes(rows))
    print(f"wrote {WEIGHTS_MODULE.relative_to(ROOT)} and {ROWS_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
