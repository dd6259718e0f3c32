"""Aggregation arithmetic, release mixing, LAB separation and the inputs ``lae report`` reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lae.grader.anchors import ScoringBlock
from lae.grader.score import compute_reward

from lae.errors import InvalidInputError, RefusalError
from lae.report.aggregate import (
    aggregate,
    cohen_kappa,
    load_runs,
    render_markdown,
    spread,
)
from tests.report.conftest import ROOT_A, ROOT_B, variant, write_rollout, write_run

SCORING = ScoringBlock(false_flag_weight=0.1, must_not_say_weight=0.1, min_deliverable_chars=200)
TASKS = ["t1", "t2", "t3", "t4", "t5"]


def seed_run(graded, out: Path, model: str, recalls: list[list[float]], root: str | None = ROOT_A) -> Path:
    """5 tasks × 3 rollouts with the given recall per task and rollout; every memo saved, no flags."""
    results = {}
    for task, row in zip(TASKS, recalls):
        results[task] = [variant(graded, task_id=task, freeze_root=root, finding_recall=r, deliverable_complete=1.0,
                                 false_flag_rate=0.0, must_not_say=0.0,
                                 reward=round(compute_reward(SCORING, r, 1.0, 0.0, 0.0), 6)) for r in row]
    return write_run(out, model, results)


# Per-task recalls whose 15-rollout mean is exactly the seed README's 0.324 / 0.010.
STRONG = [[0.4, 0.3, 0.35], [0.3, 0.25, 0.2], [0.5, 0.45, 0.4], [0.2, 0.3, 0.25], [0.35, 0.3, 0.31]]
WEAK = [[0.0, 0.05, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.05], [0.0, 0.0, 0.0], [0.05, 0.0, 0.0]]


def test_seed_row_recall_0324_with_15_of_15_saved_gives_reward_0594(graded, tmp_path):
    assert round(compute_reward(SCORING, 0.324, 1.0, 0.0, 0.0), 3) == 0.594
    seed_run(graded, tmp_path / "runs", "gpt-5.5", STRONG)
    summary = aggregate(load_runs([tmp_path / "runs"]))
    row = summary.pockets[0].models[0]
    assert (row.setup, row.deliverables_saved, row.deliverables_total) == ("5 tasks × 3 rollouts", 15, 15)
    assert row.finding_recall.mean == pytest.approx(0.324)
    assert row.reward.mean == pytest.approx(0.5944)
    assert f"{row.reward.mean:.3f}" == "0.594"


def test_markdown_row_has_the_seed_table_shape_with_ranges(graded, tmp_path):
    seed_run(graded, tmp_path / "runs", "gpt-5.5", STRONG)
    seed_run(graded, tmp_path / "runs", "qwen3-30b-a3b-instruct-2507", WEAK)
    md = render_markdown(aggregate(load_runs([tmp_path / "runs"])))
    assert "| Model | Setup | Reward | Finding recall | Deliverables saved | False flags |" in md
    # replicate means of recall: pass 1 = mean(.4,.3,.5,.2,.35) = .35, pass 2 = .32, pass 3 = .302
    assert ("| gpt-5.5 | 5 tasks × 3 rollouts | 0.594 (0.581–0.610) | 0.324 (0.302–0.350) | 15/15 | "
            "0.000 (0.000–0.000) |") in md
    assert "| qwen3-30b-a3b-instruct-2507 | 5 tasks × 3 rollouts | 0.406 (0.406–0.406) | 0.010 (0.010–0.010) | 15/15 |" in md
    assert md.index("| gpt-5.5 |") < md.index("| qwen3-30b")  # best reward first
    assert "gpt-5.5 is ahead beyond the noise" in md


def test_replicates_are_means_over_the_tasks_kth_rollouts():
    s = spread({"a": [1.0, 0.0, 0.5], "b": [0.0, 0.0, 0.5]})
    assert s.replicates == [0.5, 0.0, 0.5]
    assert (s.mean, s.min, s.max, s.n) == (pytest.approx(1 / 3, abs=1e-6), 0.0, 0.5, 6)


def test_one_rollout_per_task_has_no_range():
    s = spread({"a": [0.2], "b": [0.4]})
    assert (s.mean, s.min, s.max, s.replicates) == (pytest.approx(0.3), None, None, [0.3])


def test_uneven_rollouts_use_the_tasks_that_reach_each_index():
    s = spread({"a": [1.0, 1.0], "b": [0.0]})
    assert s.replicates == [0.5, 1.0] and s.mean == pytest.approx(2 / 3, abs=1e-6)


def test_missing_values_are_left_out_of_the_mean():
    s = spread({"a": [None, None], "b": [None]})
    assert (s.mean, s.n, s.replicates) == (None, 0, [])


@pytest.mark.parametrize("a, b, verdict", [
    ([[0.5, 0.6, 0.7]], [[0.55, 0.65, 0.75]], "within_noise"),
    ([[0.8, 0.9, 0.85]], [[0.1, 0.2, 0.15]], "separated"),
    ([[0.8]], [[0.1]], "no_spread"),
], ids=["overlapping-ranges", "disjoint-ranges", "single-rollout"])
def test_comparison_says_whether_a_gap_exceeds_the_noise(graded, tmp_path, a, b, verdict):
    for model, rows in (("m-a", a), ("m-b", b)):
        write_run(tmp_path / "runs", model, {"t1": [variant(graded, task_id="t1", freeze_root=ROOT_A, finding_recall=r,
                                                            reward=r) for r in rows[0]]})
    summary = aggregate(load_runs([tmp_path / "runs"]))
    verdicts = {c.metric: c.verdict for c in summary.pockets[0].comparisons}
    assert verdicts == {"reward": verdict, "finding_recall": verdict}
    text = summary.pockets[0].comparisons[0].text
    assert {"within_noise": "within the noise", "separated": "beyond the noise",
            "no_spread": "cannot be judged against the noise"}[verdict] in text


def test_different_task_sets_are_called_out(graded, tmp_path):
    write_run(tmp_path / "runs", "m-a", {"t1": [variant(graded, task_id="t1", freeze_root=ROOT_A)]})
    write_run(tmp_path / "runs", "m-b", {"t2": [variant(graded, task_id="t2", freeze_root=ROOT_A)]})
    comp = aggregate(load_runs([tmp_path / "runs"])).pockets[0].comparisons[0]
    assert not comp.same_tasks and "not like for like" in comp.text


def test_results_from_two_freeze_roots_are_refused(graded, tmp_path):
    write_run(tmp_path / "runs", "m", {"t1": [variant(graded, task_id="t1", freeze_root=ROOT_A)],
                                       "t2": [variant(graded, task_id="t2", freeze_root=ROOT_B)]})
    with pytest.raises(RefusalError, match="refusing to mix") as info:
        aggregate(load_runs([tmp_path / "runs"]))
    assert info.value.exit_code == 3
    report = info.value.report()
    assert ROOT_A in report and ROOT_B in report and "--allow-mixed" in report


def test_frozen_and_unfrozen_results_of_one_pocket_are_refused(graded, tmp_path):
    write_run(tmp_path / "runs", "m", {"t1": [variant(graded, task_id="t1", freeze_root=ROOT_A),
                                              variant(graded, task_id="t1", freeze_root=None)]})
    with pytest.raises(RefusalError, match="freeze roots"):
        aggregate(load_runs([tmp_path / "runs"]))


def test_same_task_graded_against_two_anchors_files_is_refused(graded, tmp_path):
    write_run(tmp_path / "runs", "m", {"t1": [variant(graded, task_id="t1"),
                                              variant(graded, task_id="t1", anchors_sha256="0" * 64)]})
    with pytest.raises(RefusalError, match="different releases") as info:
        aggregate(load_runs([tmp_path / "runs"]))
    assert "2 different anchors files" in info.value.report()


def test_allow_mixed_marks_the_pocket_mixed_and_unreportable(graded, tmp_path):
    write_run(tmp_path / "runs", "m", {"t1": [variant(graded, task_id="t1", freeze_root=ROOT_A)],
                                       "t2": [variant(graded, task_id="t2", freeze_root=ROOT_B)]})
    summary = aggregate(load_runs([tmp_path / "runs"]), allow_mixed=True)
    pocket = summary.pockets[0]
    assert pocket.mixed and not pocket.reportable and summary.mixed and not summary.reportable
    assert pocket.freeze_roots == [ROOT_A, ROOT_B]
    md = render_markdown(summary)
    assert "Mixed releases (--allow-mixed): not reportable" in md and "| m *(mixed releases)* |" in md


def test_each_pocket_may_have_its_own_root(graded, tmp_path):
    write_run(tmp_path / "runs", "m", {"t1": [variant(graded, task_id="t1", pocket="p1", freeze_root=ROOT_A)],
                                       "t2": [variant(graded, task_id="t2", pocket="p2", freeze_root=ROOT_B)]})
    summary = aggregate(load_runs([tmp_path / "runs"]))
    assert [(p.pocket, p.freeze_roots, p.reportable) for p in summary.pockets] == [("p1", [ROOT_A], True),
                                                                                ("p2", [ROOT_B], True)]
    assert summary.reportable


def test_unreportable_results_are_flagged_with_the_reason(graded, tmp_path):
    write_run(tmp_path / "runs", "m", {"t1": [variant(graded, task_id="t1")]})
    summary = aggregate(load_runs([tmp_path / "runs"]))
    assert not summary.reportable and [r.split(':')[0] for r in summary.pockets[0].unreportable_reasons] == ["pocket 'fixture' is not frozen"]
    md = render_markdown(summary)
    assert "**Not reportable** (1 of 1 rollouts): pocket 'fixture' is not frozen: " in md
    assert "| m *(not reportable)* | 1 task × 1 rollout |" in md


def write_lab(folder: Path, model: str, task: str, **metrics: float) -> None:
    folder.mkdir(parents=True)
    (folder / "result.json").write_text(json.dumps({"task_id": task, "metrics": metrics}))
    (folder / "rollout.json").write_text(json.dumps({"model": model, "task_id": task}))


def test_lab_metrics_are_never_averaged_with_factory_metrics(graded, tmp_path):
    write_run(tmp_path / "runs", "m", {"t1": [variant(graded, task_id="t1", freeze_root=ROOT_A, reward=0.5)]})
    write_lab(tmp_path / "runs" / "m" / "lab-task" / "r1", "m", "lab-task", lab_deliverables_saved=1.0,
              lab_deliverable_complete=0.0, reward=0.0)
    summary = aggregate(load_runs([tmp_path / "runs"]))
    factory = summary.pockets[0].models[0]
    assert (factory.rollouts, factory.reward.mean) == (1, 0.5)  # the LAB rollout's reward 0.0 is not in it
    assert summary.reportable  # a LAB result does not make the factory pocket unreportable
    [lab] = summary.lab
    assert (lab.model, lab.rollouts) == ("m", 1)
    assert lab.metrics["lab_deliverables_saved"].mean == 1.0 and lab.metrics["reward"].mean == 0.0
    md = render_markdown(summary)
    lab_part = md[md.index("## LAB mode"):]
    assert "never averaged with factory metrics" in lab_part
    assert "| m | 1 task × 1 rollout | 0.000 | 1.000 | `reward` |" not in lab_part
    assert "| Model | Setup | Complete | Deliverables saved | `reward` |" in lab_part


def test_verifiers_jsonl_records_with_metrics_and_info_are_read(tmp_path):
    folder = tmp_path / "outputs" / "evals" / "env--model" / "abc"
    folder.mkdir(parents=True)
    (folder / "metadata.json").write_text(json.dumps({"model": "vf-model", "env_id": "employment-law"}))
    metrics = {"reward": 0.55, "finding_recall": 0.5, "deliverable_complete": 1.0, "false_flag_rate": 0.5,
               "must_not_say": 1.0, "criterion_pass_rate_proxy": 0.4}
    lines = [{"example_id": 0, "reward": 0.55, "metrics": metrics,
              "info": {"task_id": "t1", "pocket": "p", "freeze_root": ROOT_A, "reportable": True}},
             {"example_id": 0, "reward": 0.55, **metrics,  # metrics flattened at the top level, as verifiers also writes
              "info": {"task_id": "t1", "pocket": "p", "freeze_root": ROOT_A, "reportable": True}},
             {"example_id": 1, "metrics": {"lab_deliverables_saved": 1.0}, "info": {"task_id": "lab/t"}}]
    (folder / "results.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    loaded = load_runs([tmp_path / "outputs"])
    summary = aggregate(loaded)
    row = summary.pockets[0].models[0]
    assert (row.model, row.rollouts, row.setup, row.reward.mean) == ("vf-model", 2, "1 task × 2 rollouts", 0.55)
    assert summary.pockets[0].reportable and summary.lab[0].model == "vf-model"
    assert {e.source for e in summary.rollouts} == {f"{(tmp_path / 'outputs').as_posix()}/evals/env--model/abc/results.jsonl:{n}"
                                                    for n in (1, 2, 3)}


def test_verifiers_records_without_our_metrics_are_invalid_input(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"example_id": 0, "reward": 1.0, "metrics": {"accuracy": 1.0}}) + "\n")
    with pytest.raises(InvalidInputError, match="records without our metrics") as info:
        load_runs([path])
    assert f"{path.as_posix()}:1: metrics: record carries none of our metrics" in info.value.report()


def test_verifiers_records_without_a_freeze_root_are_not_reportable(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"model": "m", "info": {"task_id": "t", "pocket": "p"}, "metrics": {
        "reward": 1.0, "finding_recall": 1.0, "deliverable_complete": 1.0, "false_flag_rate": 0.0,
        "must_not_say": 0.0, "criterion_pass_rate_proxy": 1.0}}) + "\n")
    summary = aggregate(load_runs([path]))
    assert not summary.reportable
    assert summary.pockets[0].unreportable_reasons == ["the record carries no verified freeze root"]


def test_a_result_file_in_the_agents_workspace_is_never_read(graded, tmp_path):
    run = write_rollout(tmp_path / "runs" / "r1", variant(graded, freeze_root=ROOT_A), model="m")
    write_rollout(run / "workspace", variant(graded, freeze_root=ROOT_B, reward=1.0), model="evil")
    summary = aggregate(load_runs([tmp_path / "runs"]))
    assert [e.model for e in summary.rollouts] == ["m"]


def test_score_runs_folders_without_model_or_rollout_number_are_numbered(graded, tmp_path):
    for name in ("b", "a"):
        write_rollout(tmp_path / "runs" / name, variant(graded, freeze_root=ROOT_A), model=None)
    loaded = load_runs([tmp_path / "runs"])
    assert [(r.model, r.rollout, r.source.rsplit("/", 2)[1]) for r in loaded.records] == [
        ("unknown-model", 1, "a"), ("unknown-model", 2, "b")]
    assert any("name no model" in w for w in loaded.warnings)


def test_a_folder_without_results_is_invalid_input(tmp_path):
    with pytest.raises(InvalidInputError, match="no results found"):
        load_runs([tmp_path])


@pytest.mark.parametrize("pairs, kappa", [
    ([(True, True), (False, False), (True, True), (False, False)], 1.0),
    ([(True, False), (False, True)], -1.0),
    # po = 0.75, pa = pb = 0.5 -> pe = 0.5 -> kappa = 0.5
    ([(True, True), (True, False), (False, False), (False, False), (True, True), (False, False),
      (True, True), (False, True)], 0.5),
], ids=["agree", "disagree", "half"])
def test_cohen_kappa(pairs, kappa):
    assert cohen_kappa(pairs)[0] == pytest.approx(kappa)


def test_cohen_kappa_is_undefined_when_both_raters_are_constant():
    value, note = cohen_kappa([(True, True)] * 4)
    assert value is None and "undefined" in note
    assert cohen_kappa([]) == (None, "no criterion has both a judge verdict and a proxy result")


def test_verifiers_v1_traces_with_the_adapters_full_result_get_audit_pages(graded, tmp_path):
    folder = tmp_path / "outputs" / "run-1"
    folder.mkdir(parents=True)
    result = variant(graded, freeze_root=ROOT_A).model_dump(mode="json")
    metrics = {k: v for k, v in result["metrics"].items() if v is not None}
    trace = {"task": {"type": "lae", "data": {"task_id": "harbor-lease-001", "pocket": "fixture", "source": "factory"}},
             "agent": {"config": {"model": "v1-model"}}, "metrics": {**metrics, "reportable": 1.0, "scoring_error": 0.0},
             "rewards": {"reward": {"score": metrics["reward"], "weight": 1.0}}, "info": {"lae": {"result": result}}}
    failed = {**trace, "metrics": {"scoring_error": 1.0}, "rewards": {"reward": {"score": 0.0}},
              "info": {"lae": {"error": "DeliverableError: boom"}}}
    (folder / "traces.jsonl").write_text(json.dumps(trace) + "\n" + json.dumps(failed) + "\n")
    loaded = load_runs([tmp_path / "outputs"])
    summary = aggregate(loaded, with_pages=True)
    [entry] = summary.rollouts
    assert (entry.model, entry.task_id, entry.reportable, entry.freeze_root) == ("v1-model", "harbor-lease-001", True, ROOT_A)
    assert entry.page is not None and loaded.records[0].result is not None
    assert any("grader failed" in w and "DeliverableError: boom" in w for w in summary.warnings)
