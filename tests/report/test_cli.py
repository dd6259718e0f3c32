"""``lae report`` and ``lae judge`` as a user runs them (the real CLI in a subprocess)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import yaml

from tests.conftest import REPO
from tests.report.conftest import FIXTURE_TREE, ROOT_A, ROOT_B, variant, write_run
from tests.report.judge_server import JudgeServer

SCHEMA = json.loads((REPO / "schemas" / "report.schema.json").read_text())


def runs(graded, tmp_path: Path, roots=(ROOT_A, ROOT_A)) -> Path:
    for model, root in zip(("model-a", "model-b"), roots):
        write_run(tmp_path / "runs", model, {"harbor-lease-001": [variant(graded, freeze_root=root)] * 3})
    return tmp_path / "runs"


def test_report_prints_the_table_and_writes_the_report_folder(frozen_graded, tmp_path, lae):
    tree, graded = frozen_graded
    out = tmp_path / "report"
    proc = lae("report", "--root", str(tree), str(runs(graded, tmp_path, roots=(graded.freeze_root,) * 2)), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "| Model | Setup | Reward | Finding recall | Deliverables saved | False flags |" in proc.stdout
    assert "| model-a | 1 task × 3 rollouts | 0.550 (0.550–0.550) | 0.500 (0.500–0.500) | 3/3 | 0.500 (0.500–0.500) |" in proc.stdout
    assert "within the noise" in proc.stdout
    assert f"**Freeze root** `{graded.freeze_root}`" in proc.stdout
    assert (out / "index.html").is_file() and len(list((out / "rollouts").glob("*.html"))) == 6
    assert (out / "report.md").read_text() in proc.stdout
    jsonschema.validate(json.loads((out / "report.json").read_text()), SCHEMA)


def test_report_json_summary_validates_against_the_schema(frozen_graded, tmp_path, lae):
    tree, graded = frozen_graded
    proc = lae("report", "--root", str(tree), "--json", str(runs(graded, tmp_path, roots=(graded.freeze_root,) * 2)))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["report_schema_version"] == 1 and data["reportable"] is True
    assert [m["model"] for m in data["pockets"][0]["models"]] == ["model-a", "model-b"]


def test_report_refuses_mixed_freeze_roots_with_exit_3(graded, tmp_path, lae):
    folder = runs(graded, tmp_path, roots=(ROOT_A, ROOT_B))
    proc = lae("report", str(folder), "-o", str(tmp_path / "report"))
    assert proc.returncode == 3
    assert "refusing to mix results from different releases" in proc.stderr and ROOT_B in proc.stderr
    assert not (tmp_path / "report").exists()  # nothing written on refusal
    proc = lae("report", "--allow-mixed", str(folder))
    assert proc.returncode == 0 and "Mixed releases (--allow-mixed): not reportable" in proc.stdout
    assert "not reportable" in proc.stderr


def test_report_without_results_is_invalid_input(tmp_path, lae):
    proc = lae("report", str(tmp_path))
    assert proc.returncode == 1 and "no results found" in proc.stderr


def test_judge_command_writes_judge_json_and_report_shows_it(graded, tmp_path, lae):
    tree = tmp_path / "tree"
    shutil.copytree(FIXTURE_TREE, tree)
    key = yaml.safe_load((tree / "keys_private/fixture/harbor-lease-001.yaml").read_text())
    task_json = tree / "tasks/fixture/harbor-lease-001/task.json"
    task = json.loads(task_json.read_text())
    task["criteria"] = [{k: c[k] for k in ("id", "title", "match_criteria")} for c in key["rubric"]]
    task_json.write_text(json.dumps(task))
    folder = runs(graded, tmp_path)
    with JudgeServer() as server:
        proc = lae("judge", "--root", str(tree), "--judge-model", "good", "--base-url", server.base_url,
                   str(folder / "model-a"), env={"JUDGE_API_KEY": "sk-local"})
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.count("6 PASS, 4 FAIL, 0 error(s)") == 3
        assert len(server.requests) == 30
        # `lae report --judge-model` judges only what is not judged yet by that model
        proc = lae("report", "--root", str(tree), "--judge-model", "good", "--base-url", server.base_url, str(folder),
                   env={"JUDGE_API_KEY": "sk-local"})
        assert proc.returncode == 0, proc.stderr
        assert len(server.requests) == 60
    assert len(list(folder.rglob("judge.json"))) == 6
    assert "| model-a | 1.000 (1.000–1.000) | n/a | 0.400 (0.400–0.400) | 0.600 |" in proc.stdout


def test_judge_without_its_key_is_refused(graded, tmp_path, lae):
    proc = lae("judge", "--judge-model", "good", "--base-url", "http://127.0.0.1:9/v1", str(runs(graded, tmp_path)),
               env={"JUDGE_API_KEY": ""})
    assert proc.returncode == 1 and "JUDGE_API_KEY" in proc.stderr
