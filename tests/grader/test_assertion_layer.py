"""The learned assertion layer (lae.match.assertion): features on our own sentences, the veto
hook in the engine on the fixture matter, the evidence carrying features and probability,
and the pinned weights regenerating byte-identically."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lae.compiler.load import yaml_data

from lae.freeze.identity import derive_identity
from lae.match import _assertion_weights as pinned
from lae.match.assertion import (FEATURE_NAMES, _count, REASON_FEATURES, REGISTER_MIN_SENTENCES, Candidate, applies, sentence_count,
                                 contributions, features, in_scope, probability, problem_stems, raw_score,
                                 veto_threshold)
from lae.match.engine import analyze_text
from lae.match.normalize import normalize
from lae.match.segment import segment
from lae.project import Project

ROOT = Path(__file__).resolve().parents[2]
TRAIN = ROOT / "bench" / "train_assertion.py"


def feats(text: str, problem: str = "", subject: str = "", crowd: int = 0) -> dict[str, float]:
    """Features of the first unit of ``text`` as a credit candidate (hits located by substring)."""
    norm = normalize(text)
    seg = segment(text, (), norm)
    hits = []
    for cat, term in (("problem", problem), ("subject", subject)):
        if term:
            at = seg.text.index(term.lower())
            hits.append((at, at + len(term), cat, term))
    return features(seg, [Candidate(0, seg.units[0].block, tuple(hits))], crowd)


def test_hedged_generic_recital_versus_evaluative_stance():
    hedged = feats("The supply terms in Clause 12 and Clause 14 could create significant exposure and should be reviewed.")
    assert hedged["u_hedge"] == 1 and hedged["u_generic"] == 1 and hedged["d_hedge"] > 0 and applies(hedged)
    assert hedged["u_evaluative"] == 0 and hedged["u_stance"] == 0
    firm = feats("In our view the exclusivity clause is unenforceable because the statute prohibits it.")
    assert firm["u_hedge"] == 0 and firm["u_evaluative"] == 1 and firm["u_stance"] == 1 and firm["u_reasoning"] == 1
    assert firm["rule_credit"] == 1 and not any(firm[r] for r in REASON_FEATURES.values())
    assert not in_scope(firm, "hedged", ()) and not in_scope(firm, "marked", ()) and in_scope(firm, "all", ())
    assert set(firm) == set(FEATURE_NAMES)


def feats_soft(text: str, reason: str) -> dict[str, float]:
    seg = segment(text, (), normalize(text))
    return features(seg, [Candidate(0, seg.units[0].block, (), reason)], 0)


def test_soft_candidates_carry_their_reason_and_are_judged_only_where_rescuable():
    hedged = feats_soft("The Dover lease may be void.", "hedge")
    assert hedged["rule_credit"] == 0 and hedged["r_hedge"] == 1 and hedged["r_negated"] == 0
    assert in_scope(hedged, "hedged", ("r_hedge",)) and not in_scope(hedged, "hedged", ("r_citation",))
    assert not in_scope(feats_soft("The Dover lease is not void.", "negated"), "all", ("r_hedge", "r_citation"))
    assert feats_soft("Counsel said the lease is void.", "other-matter")["r_reported"] == 1
    # a glossary or chronology line is a soft candidate of its own kind, never a rule credit
    recital = feats_soft("Dover lease: void.", "recital")
    assert recital["r_recital"] == 1 and recital["rule_credit"] == 0 and not in_scope(recital, "tiered", ())
    with pytest.raises(KeyError):
        feats_soft("The Dover lease is void.", "a tag nobody named")


def test_dismissal_marks_a_discussion_for_the_marked_scope():
    dismissed = feats("The Dover lease is void, but we do not consider this a concern.", problem="void",
                      subject="Dover lease")
    assert dismissed["d_dismissal"] == 1 and dismissed["d_hedge"] == 0
    assert in_scope(dismissed, "marked", ()) and not in_scope(dismissed, "hedged", ())


def test_memo_register_features_see_the_whole_memo():
    calm = "The Dover lease is void. The guaranty is unenforceable. The notice was late."
    hedgy = "The Dover lease is void. Issues may arise. Exposure could potentially result. It might be relevant."
    assert feats(calm)["m_hedge"] == 0 and feats(hedgy)["m_hedge"] >= 0.5
    assert feats("We recommend that the client amend the lease.")["d_advice"] > 0
    assert feats("The lease was signed on March 3. It was recorded in May.")["d_recital"] > 0


def test_modal_of_ability_and_month_may_are_not_hedges():
    assert feats("She could keep working with a stool, so the forced leave violates the statute.")["u_hedge"] == 0
    assert feats("The notice went out on May 12, 2024, two weeks late.")["u_hedge"] == 0
    assert feats("The fee could give rise to liability for the agent.")["u_hedge"] == 1


def test_citation_only_enumeration_and_subject_problem():
    cite = feats("Sections 301, 302, 305, 310, 312 and 318 of the code, including section 305, apply here.",
                 problem="section 305")
    assert cite["u_citation_only"] == 1 and cite["u_enumeration"] > 0.5
    both = feats("The Dover lease is void for want of a signature.", problem="void", subject="Dover lease")
    assert both["u_subject_and_problem"] == 1 and both["u_citation_only"] == 0
    assert feats("The Dover lease is void.", crowd=8)["crowd"] == 1.0
    # a phrase with a digit and a word of its own says something of the provision: not a bare citation
    said = feats("A Schedule 13E-3 is mandatory for this deal.", problem="13E-3 is mandatory", subject="Schedule 13E-3")
    assert said["u_citation_only"] == 0
    for cited in ("17 C.F.R. § 240.13e-100", "Item 1015", "Section 144(c)", "820 ILCS 90/5"):
        assert feats(f"The filing must follow {cited}.", problem=cited)["u_citation_only"] == 1, cited


def test_a_discussion_sharing_the_problems_words_in_its_own_phrasing_is_a_feature():
    stems = problem_stems("Remote employees based at Harlow Falls left off the notice",
                          ("remote + omitted + notice", "home-base rule", "entitled + WARN notice"),
                          ("nine remote", "remote employees", "Harlow Falls"))
    # the subject's words and function words say nothing of what is wrong; word endings do not matter
    assert {"notic", "omitt", "entit", "warn", "rule", "home"} <= stems and not stems & {"remot", "emplo", "harlo"}
    text = "The 9 remote folks at Harlow Falls were omitted; they are entitled to WARN notices as well."
    seg = segment(text, (), normalize(text))
    shared = features(seg, [Candidate(0, seg.units[0].block, (), "subject-only")], 0, problem=stems)
    assert shared["u_problem_words"] == 1.0 and shared["d_problem_words"] == round(4 / 6, 6)
    recital = "The nine remote employees report to the Harlow Falls plant manager."
    seg = segment(recital, (), normalize(recital))
    bare = features(seg, [Candidate(0, seg.units[0].block, (), "subject-only")], 0, problem=stems)
    assert bare["u_problem_words"] == 0 and bare["d_problem_words"] == 0
    assert feats(text)["d_problem_words"] == 0  # a finding without problem words shares none


KITCHEN_SINK = ("The renewal option deadline in Section 9.1 is June 30, 2025, and the lease was signed on March 3, "
                "2019. The renewal option, Section 9.1 and the June 30, 2025 date could potentially create "
                "significant exposure, depending on the circumstances, and should be reviewed.")
ASSERTED = ("The renewal notice must go out by June 30, 2025; if that deadline lapses the client will lose the "
            "premises, so we recommend serving it this week.")


def test_hook_vetoes_hedged_kitchen_sink_and_keeps_asserted(spec):
    sink = analyze_text(spec[0], KITCHEN_SINK).finding("F1")
    assert not sink.credited and sink.status == "not-asserted"
    ev = sink.near_miss
    assert ev.model is not None and ev.model.vetoed and ev.model.probability < ev.model.threshold
    assert ev.reason.startswith("assertion model: ") and " < " in ev.reason and ev.assertion == "assertion model"
    kept = analyze_text(spec[0], ASSERTED).finding("F1")
    assert kept.credited and kept.credit.model is not None and not kept.credit.model.vetoed
    assert "assertion model" in kept.credit.reason


# Neutral sentences that make a memo long enough to have a register, without hedges or marks.
PADDING = " ".join(f"Item {i} of the file was read in full on day {i}." for i in range(1, REGISTER_MIN_SENTENCES + 1))


def test_evidence_carries_features_and_probability(spec):
    out = analyze_text(spec[0], ASSERTED).finding("F1").credit
    assert tuple(out.model.features) == FEATURE_NAMES
    # one sentence has no register: the tiered scope leaves its unmarked credit to the rule
    assert out.model.features["m_brief"] == 1 and out.model.threshold == 0.0 and not out.model.vetoed
    assert 0.0 <= out.model.probability <= 1.0
    again = analyze_text(spec[0], ASSERTED).finding("F1").credit
    assert again.model_dump() == out.model_dump()


def test_contributions_add_up_to_the_score_and_the_reason_names_the_heaviest(spec):
    """The explanation is exact: the trees' root values, the baseline and each feature's
    contribution (the changes of value along the path at its splits) add up to the log-odds."""
    ev = analyze_text(spec[0], KITCHEN_SINK).finding("F1").near_miss
    feats = ev.model.features
    c = contributions(feats)
    roots = sum(tree[0][4] for tree in pinned.TREES)
    assert c and abs(pinned.BASELINE + roots + sum(c.values()) - raw_score(feats)) < 1e-9
    heaviest = max(c, key=lambda k: (abs(c[k]), k))
    assert f"{heaviest}=" in ev.reason and set(c) <= set(FEATURE_NAMES)
    # an inner node's value is the mean of its leaves' (by training rows), so a tree's root holds
    # its average and the root split is not charged with the whole tree's offset
    assert sum(1 for tree in pinned.TREES if len(tree) > 1 and tree[0][4] != 0.0) > len(pinned.TREES) // 2


def test_a_long_memo_puts_an_unmarked_credit_to_the_unmarked_threshold(spec):
    ev = analyze_text(spec[0], ASSERTED + "\n\n" + PADDING).finding("F1")
    model = (ev.credit or ev.near_miss).model
    assert model.features["m_brief"] == 0 and model.features["d_hedge"] == 0
    expected = pinned.UNMARKED_THRESHOLD if pinned.VETO_SCOPE == "tiered" else pinned.THRESHOLD
    assert model.threshold == expected
    assert model.vetoed == (applies(model.features) and model.probability < expected) == (not ev.credited)


def test_veto_threshold_by_scope_mark_and_length():
    long_firm = {**dict.fromkeys(FEATURE_NAMES, 0.0), "rule_credit": 1.0}
    marked = {**long_firm, "d_dismissal": 1.0}
    brief = {**long_firm, "m_brief": 1.0}
    assert veto_threshold(long_firm, "tiered", 0.6, 0.3) == 0.3 and veto_threshold(marked, "tiered", 0.6, 0.3) == 0.6
    assert veto_threshold(brief, "tiered", 0.6, 0.3) == 0.0 and veto_threshold(long_firm, "marked", 0.6, 0.3) == 0.6
    assert in_scope(long_firm, "tiered", ()) and not in_scope(long_firm, "marked", ())


def test_reporting_register_and_questions_are_features():
    minutes = ("The CFO said the renewal deadline had passed. The chair asked whether that mattered? "
               "Counsel took the view that it did. No decision was reached.")
    f = feats(minutes)
    assert f["m_reported"] > 0.5 and f["d_reported"] > 0.5 and f["m_question"] > 0 and f["m_advice"] == 0
    advice = feats("We recommend serving the renewal notice this week. The deadline is June 30, 2025.")
    assert advice["m_reported"] == 0 and advice["m_advice"] > 0 and advice["m_question"] == 0
    assert f["m_brief"] == 1 and feats(PADDING)["m_brief"] == 0


def test_a_line_without_a_full_stop_is_a_sentence_of_the_register():
    """A map of bullets that carry no full stop has as many sentences as bullets: long enough to
    have a register, so its unmarked credits are judged; one line is still brief."""
    bullets = "\n".join(f"- Check item {i} of the file for the renewal deadline" for i in range(1, REGISTER_MIN_SENTENCES + 2))
    assert sentence_count(bullets) == REGISTER_MIN_SENTENCES + 1 and feats(bullets)["m_brief"] == 0
    assert sentence_count("The deadline lapses. It is June 30.") == 2
    # a heading, a label line and a short row are no sentences; a rule row has no words
    assert sentence_count("# Renewal option in Section 9.1\n\n- **Severity:** Critical\n\n| Renewal | High |") == 1
    assert sentence_count("The deadline lapses.\n\n| Renewal option | notice not yet served by the tenant |\n|---|---|") == 2
    assert feats("- Check item 1 of the file")["m_brief"] == 1


@pytest.mark.parametrize(("sentence", "advises"), [
    # advice names who is to act: the client in general words, or by its name
    ("The company should give consent under the covenant in advance.", True),
    ("Northlake should give consent under the covenant in advance.", True),
    ("Kestrel ought to stop the shipments before closing.", True),
    ("Ms. Whitfield needs to withdraw the draft.", True),
    ("Northlake should not sign the amendment.", True),
    # ... not a pronoun or a connective, nor a review to be done (a hedge, counted as one)
    ("It should be noted that the rule applies.", False),
    ("This should not matter to the buyer.", False),
    ("There must be a reason for the delay.", False),
    ("The policy should be reviewed before the meeting.", False),
    # "must" after any name states what the law requires, not advice (the client words above keep it)
    ("The employer must give sixty days' notice of the closing.", False),
])
def test_advice_to_a_named_client_counts_as_advice(sentence, advises):
    assert (feats(sentence)["d_advice"] > 0) == advises, sentence


def test_general_actors_examples_and_alert_hedges_are_features():
    alert = ("Consider a company that lets its renewal deadline lapse. Companies should be mindful of notice "
             "clauses, and an employer with leases in several states may face disputes. For example, Harbor's lease.")
    f = feats(alert)
    assert f["m_general"] > 0.5 and f["m_example"] > 0.5 and f["d_general"] > 0.5 and f["d_example"] > 0
    assert f["d_hedge"] > 0  # "should be mindful", "may face"
    firm = feats("We recommend serving the renewal notice this week: the deadline is June 30, 2025.")
    assert firm["m_general"] == 0 and firm["m_example"] == 0 and firm["d_hedge"] == 0
    drill = feats("Exercise: participants, the renewal deadline is June 30, 2025. "
                  "Scenario: the notice goes out late.")
    assert drill["m_example"] >= 1.0 and drill["d_example"] > 0  # training material sets the client up as a drill
    # a scenario analysis's numbered scenarios are the client's own risks, not a drill's
    analysis = feats("Scenario 1: the renewal notice goes out after June 30, 2025. Scenario 2: the option lapses.")
    assert analysis["m_example"] == 0


@pytest.mark.parametrize("sentence", [
    "The board should consider a waiver before June 30, 2025, or exercise the renewal option now.",
    "Take a firm line with the landlord: in that scenario the renewal option lapses on June 30, 2025.",
    "The customer's model training run on the cluster is not covered by the Section 9.1 licence.",
    "We recommend manager training on notice clauses once the renewal notice is served.",
])
def test_advice_in_example_or_teaching_words_is_not_an_example_or_a_lesson(sentence):
    # "consider a waiver", "exercise the option", "that scenario", a model's training run and the training the
    # memo recommends advise on this matter; they do not set it up as an example or teach the field
    f = feats(sentence)
    assert f["m_example"] == 0 and f["m_teaching"] == 0, sentence


def _load_trainer():
    sys.path.insert(0, str(TRAIN.parent))
    try:
        return importlib.import_module("train_assertion")
    finally:
        sys.path.remove(str(TRAIN.parent))


def test_training_is_deterministic_and_the_module_regenerates_identically(tmp_path):
    """Fitting on the same rows gives the same bytes, in-process and under another hash seed."""
    tr = _load_trainer()
    n = len(FEATURE_NAMES)
    rows = [tr.Row(f"m{i % 3}", "ABG"[i % 3], f"F{i % 5}", i % 4 != 0, True,
                   tuple(round(((i * 7 + j * 3) % 11) / 10, 3) for j in range(n))) for i in range(60)]
    w = tr.fit([r.features for r in rows], [r.raised for r in rows])
    policy = tr.Policy("marked", "narrow", 0.5, 0.8)
    text = tr.module_text(w, policy, rows)
    assert text == tr.module_text(tr.fit([r.features for r in rows], [r.raised for r in rows]), policy, rows)
    assert "Training-set digest" in text and "GENERATED" in text
    script = (f"import sys; sys.path.insert(0, {str(TRAIN.parent)!r}); import train_assertion as tr\n"
              f"n = {n}\n"
              "rows = [tr.Row(f'm{i % 3}', 'ABG'[i % 3], f'F{i % 5}', i % 4 != 0, True, "
              "tuple(round(((i * 7 + j * 3) % 11) / 10, 3) for j in range(n))) for i in range(60)]\n"
              "w = tr.fit([r.features for r in rows], [r.raised for r in rows])\n"
              "sys.stdout.write(tr.module_text(w, tr.Policy('marked', 'narrow', 0.5, 0.8), rows))\n")
    for seed in ("0", "12345"):
        got = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, cwd=ROOT)
        assert got.stdout == text
    # the generated module is valid Python whose weights are the fitted ones
    ns: dict = {}
    exec(compile(text, "w.py", "exec"), ns)
    assert ns["BASELINE"] == w.baseline and ns["TREES"] == w.trees and ns["THRESHOLD"] == 0.5
    assert len(w.trees) == tr.TREES and all(tree[0][0] in FEATURE_NAMES for tree in w.trees if len(tree) > 1)
    # the grader's plain-Python walk of the written trees gives the library's own probabilities
    lib = tr.HistGradientBoostingClassifier(max_iter=tr.TREES, learning_rate=tr.LEARNING_RATE, max_leaf_nodes=tr.MAX_LEAVES,
                                            min_samples_leaf=tr.MIN_LEAF, l2_regularization=tr.L2,
                                            class_weight="balanced", early_stopping=False, random_state=0)
    lib.fit([list(r.features) for r in rows], [int(r.raised) for r in rows])
    expected = lib.predict_proba([list(r.features) for r in rows])[:, 1]
    got = [probability(dict(zip(FEATURE_NAMES, r.features)), ns["TREES"], ns["BASELINE"]) for r in rows]
    assert max(abs(a - b) for a, b in zip(got, expected)) < 1e-9
    assert (ns["VETO_SCOPE"], ns["RESCUE_THRESHOLD"], ns["RESCUE_REASONS"]) == ("marked", 0.8, tr.RESCUE_SETS["narrow"])


def test_policy_credits_rule_rows_unless_vetoed_and_soft_rows_only_when_rescued():
    tr = _load_trainer()
    base = dict.fromkeys(FEATURE_NAMES, 0.0)
    hedged_rule = tuple({**base, "rule_credit": 1.0, "d_hedge": 0.5}[k] for k in FEATURE_NAMES)
    firm_rule = tuple({**base, "rule_credit": 1.0}[k] for k in FEATURE_NAMES)
    soft = tuple({**base, "r_hedge": 1.0}[k] for k in FEATURE_NAMES)
    policy = tr.Policy("hedged", "narrow", 0.5, 0.8)
    row = lambda feats, rule: tr.Row("m", "A", "F1", True, rule, feats)  # noqa: E731
    assert not policy.credited(row(hedged_rule, True), 0.4) and policy.credited(row(hedged_rule, True), 0.6)
    assert policy.credited(row(firm_rule, True), 0.01)  # outside the veto scope the rule's verdict stands
    assert policy.credited(row(soft, False), 0.85) and not policy.credited(row(soft, False), 0.79)
    assert not tr.Policy("hedged", "none", 0.5, 0.8).credited(row(soft, False), 0.99)
    assert not policy.credited(tr.Row("m", "A", "F1", True, False, ()), None)


def test_tiered_policy_vetoes_unmarked_credits_only_below_its_lower_threshold():
    tr = _load_trainer()
    base = {**dict.fromkeys(FEATURE_NAMES, 0.0), "rule_credit": 1.0}
    row = lambda extra: tr.Row("m", "D", "F1", False, True, tuple({**base, **extra}[k] for k in FEATURE_NAMES))  # noqa: E731
    policy = tr.Policy("tiered", "none", 0.5, 1.01, 0.3)
    assert not policy.credited(row({}), 0.29) and policy.credited(row({}), 0.31)
    assert not policy.credited(row({"d_hedge": 0.5}), 0.45) and policy.credited(row({"d_hedge": 0.5}), 0.55)
    assert policy.credited(row({"m_brief": 1.0}), 0.01)  # too short to have a register: the rule stands
    assert ("tiered", "none") in tr.POLICIES and ("tiered", "narrow") not in tr.POLICIES


SHARED_FIDELITY = ROOT.parent / "shared" / "fidelity"


# One matter of each pocket (every memo of theirs, the development set's included) is re-extracted;
# the full re-extraction of every row is its own CI step (.ci/run: train_assertion.py --check).
SAMPLED_MATTERS = ("ember-contractor-005", "ai-gpu-reseller-003", "solstice-committee-005")


@pytest.mark.skipif(not SHARED_FIDELITY.is_dir(), reason=f"the development set {SHARED_FIDELITY} is not present")
def test_pinned_weights_match_a_fresh_training_run():
    sample = [a for m in SAMPLED_MATTERS for a in ("--sample", m)]
    got = subprocess.run([sys.executable, str(TRAIN), "--check", *sample], capture_output=True, text=True, cwd=ROOT)
    assert got.returncode == 0, got.stdout + got.stderr
    assert "rows up to date" in got.stdout and "weights module up to date" in got.stdout


@pytest.mark.skipif(not SHARED_FIDELITY.is_dir(), reason=f"the development set {SHARED_FIDELITY} is not present")
def test_the_check_fails_when_a_stored_row_differs_from_a_fresh_extraction(tmp_path):
    rows = (ROOT / "bench" / "assertion_rows.jsonl").read_bytes().splitlines(keepends=True)
    target = next(i for i, line in enumerate(rows) if b'"matter":"ember-contractor-005"' in line and b'"raised":true' in line)
    rows[target] = rows[target].replace(b'"raised":true', b'"raised":false')
    (tmp_path / "rows.jsonl").write_bytes(b"".join(rows))
    got = subprocess.run([sys.executable, str(TRAIN), "--check", "--sample", "ember-contractor-005",
                          "--rows", str(tmp_path / "rows.jsonl")], capture_output=True, text=True, cwd=ROOT)
    assert got.returncode == 1, got.stdout + got.stderr
    assert "differs from a fresh extraction" in got.stdout


def test_weights_are_part_of_the_grader_identity():
    identity = derive_identity().identity
    assert identity is not None
    assert {"lae.match._assertion_weights", "lae.match.assertion"} <= {m.name for m in identity.modules}


def test_a_notes_surprised_aside_before_an_arrow_is_not_counted_as_a_question():
    assert _count("question", "asms exempt?? -> fails duties test.") == 0
    assert _count("question", "is the release void? we do not know.") == 1


def test_a_notes_doubled_question_mark_is_disbelief_not_a_question():
    """A margin note's "??" or "?!" says the writer does not believe what the file says ("NLR??
    no."): the register counts questions asked, so it counts neither, nor the marks one by one."""
    assert _count("question", "4a090.a to uae mar 2024, nlr?? no. d:4 needed a licence.") == 0
    assert _count("question", "48 hrs?! il needs 14 days.") == 0
    assert _count("question", "who signed off? and when?") == 2


def test_a_sentence_naming_the_subject_without_problem_words_is_a_soft_candidate_for_the_model(spec):
    """"Operations is treating the renewal option as an autumn item." names F1's subject, asserts,
    and holds none of its problem phrases: the rule never credits it; the model judges it as a
    subject-only soft candidate. The same words in a chronology section are recital: nothing to judge."""
    plain = analyze_text(spec[0], "Operations is treating the renewal option as an autumn item.").finding("F1")
    model = plain.near_miss.model
    assert plain.status == "no-problem" and model is not None and model.features["r_subject"] == 1
    assert model.features["rule_credit"] == 0 and "assertion model" in plain.near_miss.reason
    assert plain.credited == model.rescued
    recital = analyze_text(spec[0], "## Chronology\n\nOperations is treating the renewal option as an autumn item.")
    assert recital.finding("F1").near_miss.model is None
    asked = analyze_text(spec[0], "Is operations treating the renewal option as an autumn item?").finding("F1")
    assert asked.near_miss.model is None
    # verdict words the rule read as negated: the rule has read the sentence, nothing left to judge
    denied = analyze_text(spec[0], "The renewal option is not invalid for an autumn notice.").finding("F1")
    assert not denied.credited and (denied.near_miss is None or denied.near_miss.model is None)


def test_a_policy_must_keep_the_fixture_memos():
    """Thresholds under which a strong fixture memo loses a finding, or a generic one credits two,
    are never chosen (the checks of tests/pockets, applied at training time)."""
    tr = _load_trainer()
    base = {**dict.fromkeys(FEATURE_NAMES, 0.0), "rule_credit": 1.0}
    vec = tuple(base[k] for k in FEATURE_NAMES)
    rows = [tr.Row("m", "strong", f"F{i}", True, True, vec, "fixture/strong") for i in (1, 2)]
    rows += [tr.Row("m", "generic", f"F{i}", False, True, vec, "fixture/generic") for i in (1, 2)]
    key = ("tiered", "none")
    fx = tr.Fixtures(rows, {key: {0: 0.9, 1: 0.8, 2: 0.5, 3: 0.2}})
    assert tr.fixtures_hold(fx, tr.Policy(*key, 0.9, 1.01, 0.3))  # generic: one credit (0.5), strong: both
    assert not tr.fixtures_hold(fx, tr.Policy(*key, 0.9, 1.01, 0.1))  # generic: two credits
    assert not tr.fixtures_hold(fx, tr.Policy(*key, 0.9, 1.01, 0.85))  # strong loses F2 (0.8)
    assert tr.fixtures_hold(None, tr.Policy(*key, 0.9, 1.01, 0.1))


def test_a_policy_must_keep_each_pocket_inside_its_freeze_gate():
    """Thresholds whose in-sample figures put a pocket's validation set past its pocket.yaml
    thresholds are never chosen, however well they do leave-one-matter-out:
    the freeze gate would refuse the release. The shared development set belongs to no pocket."""
    tr = _load_trainer()
    vec = tuple({**dict.fromkeys(FEATURE_NAMES, 0.0), "rule_credit": 1.0}[k] for k in FEATURE_NAMES)
    rows = [tr.Row("m1", "A", f"F{i}", True, True, vec, "A1") for i in range(10)]
    rows += [tr.Row("m1", "D", f"F{i}", False, True, vec, "D1") for i in range(10)]
    rows += [tr.Row("m1", "A", "F0", True, True, vec, "fidelity/A")]  # vetoed everywhere: no pocket's
    key = ("tiered", "none")
    lomo = {**{i: 0.3 for i in range(10)}, **{i: 0.35 for i in range(10, 20)}, 20: 0.0}
    gate = tr.Gate(rows, {key: {**{i: 0.3 for i in range(10)}, **{i: 0.1 for i in range(10, 20)}, 20: 0.0}},
                   {"m1": "p"}, {"p": (0.02, 0.10)})
    assert tr.pocket_tally(gate, tr.Policy(*key, 0.9, 1.01, 0.3)) == {"p": {"pos": 10, "under": 0, "tp": 10, "neg": 10, "over": 0}}
    assert tr.gate_holds(gate, tr.Policy(*key, 0.9, 1.01, 0.3))
    assert not tr.gate_holds(gate, tr.Policy(*key, 0.9, 1.01, 0.32))  # every raised finding vetoed
    assert not tr.gate_holds(gate, tr.Policy(*key, 0.9, 1.01, 0.1))  # every distractor credited
    assert tr.gate_holds(None, tr.Policy(*key, 0.9, 1.01, 0.1))
    free = tr._best_for(rows, lomo, key)
    held = tr._best_for(rows, lomo, key, gate=gate)
    assert free is not None and free.unmarked > 0.35  # leave-one-matter-out alone: credit nothing
    assert held is not None and held.unmarked == 0.3 and tr.gate_holds(gate, held)


def test_the_gate_estimate_reads_every_validation_memo_the_gate_measures():
    """The trainer's freeze-gate estimate reads the held-out memos too: training memos and held-out
    memos partition every memo id of every labels.yaml, and some matters have held-out memos (batch 7
    and batches 37 onward), so an estimate on the training memos alone would miss them."""
    tr = _load_trainer()
    from_trainer = [(task, memo) for _pocket, task, memo, *_ in tr._project_memos(Project.at(None))]
    held_out = [(task, memo) for _pocket, task, memo, *_ in tr._project_memos(Project.at(None), held_out=True)]
    labelled = []
    for path in sorted(Project.at(None).root.glob("keys_private/*/validation/*/labels.yaml")):
        labelled += [(path.parent.name, memo) for memo in yaml_data(path.read_text(encoding="utf-8"))["memos"]]
    assert held_out and not set(held_out) & set(from_trainer)
    assert sorted(from_trainer + held_out) == sorted(labelled)
    assert all(memo not in tr.TRAIN_IDS for _task, memo in held_out)


def test_a_policy_must_keep_the_compilers_calibration_and_red_team():
    """A soft candidate from a calibration negative or a must-not variant that the rescue
    threshold would credit, or a must-credit text the veto would drop, rules the thresholds out:
    the compiler would refuse the anchors such weights produce."""
    tr = _load_trainer()
    soft = tuple({**dict.fromkeys(FEATURE_NAMES, 0.0), "r_subject": 1.0}[k] for k in FEATURE_NAMES)
    credit = tuple({**dict.fromkeys(FEATURE_NAMES, 0.0), "rule_credit": 1.0}[k] for k in FEATURE_NAMES)
    rows = [tr.Row("m", "must-not", "F1", False, False, soft, "constraint"),
            tr.Row("m", "must", "F1", True, True, credit, "constraint")]
    key = ("tiered", "subject")
    fx = tr.Fixtures(rows, {key: {0: 0.7, 1: 0.6}})
    assert tr.fixtures_hold(fx, tr.Policy(*key, 0.5, 0.8, 0.5))  # negative not rescued, positive kept
    assert not tr.fixtures_hold(fx, tr.Policy(*key, 0.5, 0.64, 0.5))  # the negative rescued at 0.7
    assert not tr.fixtures_hold(fx, tr.Policy(*key, 0.65, 0.8, 0.65))  # the positive vetoed at 0.6


def test_an_inner_node_value_is_the_row_weighted_mean_of_its_leaves():
    tr = _load_trainer()
    nodes = [{"is_leaf": False, "left": 1, "right": 2, "value": 0.0, "count": 4},
             {"is_leaf": True, "left": 0, "right": 0, "value": 1.0, "count": 3},
             {"is_leaf": False, "left": 3, "right": 4, "value": 0.0, "count": 1},
             {"is_leaf": True, "left": 0, "right": 0, "value": -2.0, "count": 1},
             {"is_leaf": True, "left": 0, "right": 0, "value": 4.0, "count": 0}]
    assert tr._inner_values(nodes) == [0.25, 1.0, -2.0, -2.0, 4.0]


def test_a_question_the_memo_answers_at_once_is_not_an_open_one():
    """A self-interview or FAQ asks itself a question and answers it on the next line ("Q: ..." / "A: ..."):
    its questions are answered, not left open, and do not count toward the memo's rate of questions."""
    pairs = "\n\n".join(f"**Q:** Is the renewal notice for unit {i} late?\n\n**A:** Yes. It went out after June 30, "
                        "so the option lapsed." for i in range(1, 4))
    assert feats(pairs)["m_question"] == 0
    open_questions = "\n\n".join(f"**Q:** Is the renewal notice for unit {i} late?" for i in range(1, 4))
    assert feats(open_questions + "\n\nThe deadline is June 30.")["m_question"] > 0.5
    unanswered = pairs.replace("**A:** Yes.", "Yes.")  # no answer label: the question stands as asked
    assert feats(unanswered)["m_question"] > 0


def test_a_numbered_question_with_a_labelled_answer_is_not_an_open_one():
    """A cross-examination outline's numbered "Q:" answered by its "Likely answer:" line, and a teaching case's "Q1."
    answered by its "Model answer:", are answered, not open; without the answer's label the question stands."""
    def rate(memo: str) -> float:
        return feats(memo + "\n\nThe deadline is June 30.")["m_question"]
    for question, label in (("{i}. **Q:**", "Likely answer"), ("**Q{i}.**", "Model answer"), ("Q{i}:", "Response")):
        pairs = "\n\n".join(f"{question.format(i=i)} Was the renewal notice for unit {i} late?\n\n**{label}:** It "
                              "was. It went out after June 30." for i in range(1, 4))
        assert rate(pairs) == 0, label
        assert rate(pairs.replace(f"**{label}:**", "")) > 0, label


def test_a_question_answered_on_its_own_line_is_not_an_open_one():
    """An assumptions register's "Does it hold? Partly." and an outline's "... late? **Likely answer:** ..." answer the
    question where it is asked; a question left bare stays open."""
    def rate(memo: str) -> float:
        return feats(memo + "\n\nThe deadline is June 30.")["m_question"]
    for answer in ("No.", "Partly, because", "**Likely answer:** It was.", "Answer: yes"):
        lines = "\n\n".join(f"Was the renewal notice for unit {i} late? {answer} It went out after June 30."
                            for i in range(1, 4))
        assert rate(lines) == 0, answer
        assert rate(lines.replace(answer, "Nobody knows.")) > 0, answer


def test_a_yes_no_grid_answers_its_questions():
    """A yes/no grid's row answers its question in the next cell ("| Is the notice timely? | N | ... |"): its
    questions are not left open and do not count toward the memo's rate of questions; a "?" there leaves them open."""
    grid = "| Question | Y/N | Why |\n|---|---|---|\n" + "\n".join(
        f"| Is the renewal notice for unit {i} on time? | N | Sent after June 30. |" for i in range(1, 4))
    assert feats(grid)["m_question"] == 0
    assert feats(grid.replace("| N |", "| ? |"))["m_question"] > 0


def test_a_verdict_table_answers_the_question_each_row_asks():
    """A verdict table's row answers its question in the next cell ("| Is the notice on time? | PROBLEM | ... |",
    "| ...? | Yes. It went out ... |", "| ...? | Partly met |", "| ...? | Missing |"): not an open question; a cell that
    is not a verdict ("UNCLEAR", "Needs facts", a phrase that merely begins with one: "no hold issued", "Problematic
    if late") leaves it open."""
    def rate(verdict: str) -> float:
        return feats("| # | Question checked | Verdict | Why |\n|---|---|---|---|\n" + "\n".join(
            f"| {i} | Is the renewal notice for unit {i} on time? | {verdict} | Sent after 6/30. |" for i in range(1, 4)))["m_question"]
    for verdict in ("PROBLEM", "OK", "**Compliant**", "Yes. It went out after June 30", "No - sent late", "Fails; late",
                    "Partly met", "Missing", "True.", "Fine", "Breach: late", "N/A"):
        assert rate(verdict) == 0, verdict
    for open_cell in ("UNCLEAR", "Needs facts", "no hold issued", "Owner: HR", "?", "Problematic if late"):
        assert rate(open_cell) > 0, open_cell


def test_an_faq_answers_the_question_each_heading_asks():
    """A board FAQ's "### Is ...?" heading (or a line wholly in bold) with its answer on the line under it asks
    and answers at once: its questions are not open; a heading followed by another question, or by the next
    heading, leaves its question open."""
    def rate(memo: str) -> float:
        return feats(memo + "\n\nThe deadline is June 30.")["m_question"]
    for heading in ("### {q}", "## {q}", "**{q}**"):
        faq = "\n\n".join(heading.format(q=f"Is the renewal notice for unit {i} late?") + "\n\nYes. It went out after "
                          "June 30, so the option lapsed." for i in range(1, 4))
        assert rate(faq) == 0, heading
        asked_back = faq.replace("Yes. It went out after June 30, so the option lapsed.", "Was it sent after June 30?")
        assert rate(asked_back) > rate(asked_back.replace("late?", "late.")), heading  # a question under it: open
        bare = "\n\n".join(heading.format(q=f"Is the renewal notice for unit {i} late?") for i in range(1, 4))
        assert rate(bare) > 0, heading


def test_an_faq_answer_under_its_question_heading_is_not_an_open_question():
    """The discussion of an FAQ's answer holds its heading: the question the heading asks, answered by the line under
    it, does not count toward the discussion's rate of questions; a question under the heading stays open."""
    def discussion_rate(memo: str) -> float:
        seg = segment(memo, (), normalize(memo))
        answer = next(i for i, u in enumerate(seg.units) if seg.blocks[u.block].kind != "heading")
        return features(seg, [Candidate(answer, seg.units[answer].block, ())], 0)["d_question"]
    memo = "# Board FAQ\n\n### Is the renewal notice for unit 4 late?\n\nYes. It went out after June 30, so the option lapsed."
    assert discussion_rate(memo) == 0
    assert discussion_rate(memo.replace("so the option lapsed.", "so did the option lapse?")) > 0
