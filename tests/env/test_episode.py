"""Episodes against a local scripted OpenAI-compatible server, and replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lae.compiler.compile import compile_pocket
from lae.env.client import OpenAICompatibleClient
from lae.env.environment import load_environment
from lae.project import Project
from tests.env.scripted_server import MEMO, ScriptedServer


@pytest.fixture
def env(tree: Path):
    compile_pocket(Project.at(tree), "fixture")
    return load_environment("fixture", tasks_root=tree, allow_unfrozen=True, max_turns=6)


def run(env, model, run_dir, **client_kw):
    with ScriptedServer() as server:
        client = OpenAICompatibleClient(model, base_url=server.base_url, backoff=0.01, **client_kw)
        outcome, result = env.run(client, env.tasks[0], run_dir, model=model)
        return outcome, result, server.requests


def test_a_model_that_reads_and_saves_is_graded(env, tmp_path):
    outcome, result, requests = run(env, "saver", tmp_path / "r1")
    assert outcome.stop_reason == "finished" and outcome.turns == 4
    assert result.metrics.finding_recall == 1.0 and result.metrics.deliverable_complete == 1.0
    assert result.reportable is False  # fixture pocket is not frozen
    assert requests[0]["tools"][0]["function"]["name"] == "list_documents"
    assert "lease-risk-memo.docx" in requests[0]["messages"][1]["content"]
    run_dir = tmp_path / "r1"
    lines = [json.loads(l) for l in (run_dir / "transcript.jsonl").read_text().splitlines()]
    assert [m["role"] for m in lines[:3]] == ["system", "user", "assistant"]
    assert any(m["role"] == "tool" and "HARBOR STREET LEASE" in (m["content"] or "") for m in lines)
    stats = json.loads((run_dir / "tools.json").read_text())
    assert stats["tool_calls"] == {"list_documents": 1, "read_document": 1, "save_deliverable": 1}
    assert json.loads((run_dir / "rollout.json").read_text())["stop_reason"] == "finished"
    assert json.loads((run_dir / "result.json").read_text())["metrics"]["finding_recall"] == 1.0


def test_content_only_in_chat_does_not_count(env, tmp_path):
    outcome, result, _ = run(env, "never-saves", tmp_path / "r")
    assert outcome.stop_reason == "finished"
    assert result.metrics.deliverable_complete == 0.0 and result.metrics.finding_recall == 0.0
    assert result.metrics.transcript_recall == 1.0, "the analysis was in chat only"


def test_markdown_for_a_declared_docx_is_not_a_deliverable(env, tmp_path):
    _, result, _ = run(env, "md-saver", tmp_path / "r")
    assert result.metrics.deliverable_complete == 0.0
    assert "never satisfies" in result.deliverables[0].reason
    transcript = (tmp_path / "r" / "transcript.jsonl").read_text()
    assert "does NOT satisfy the declared deliverable" in transcript


def test_max_turns_ends_the_episode(env, tmp_path):
    outcome, result, requests = run(env, "looper", tmp_path / "r")
    assert outcome.stop_reason == "max_turns" and outcome.turns == 6 and len(requests) == 6
    assert result.metrics.deliverable_complete == 0.0


def test_429_is_retried(env, tmp_path):
    outcome, result, requests = run(env, "flaky-429", tmp_path / "r")
    assert outcome.stop_reason == "finished" and result.metrics.finding_recall == 1.0
    assert len(requests) == 5


def test_unknown_model_is_an_errored_rollout_never_a_score(env, tmp_path):
    outcome, result, _ = run(env, "no-such-model", tmp_path / "r", retries=0)
    assert outcome.stop_reason == "model_error" and "HTTP 404" in outcome.error
    assert outcome.status == "error" and result is None
    assert not (tmp_path / "r" / "result.json").exists(), "a failure is never scored"
    assert json.loads((tmp_path / "r" / "rollout.json").read_text())["status"] == "error"


def test_lae_run_replay_end_to_end(tree, tmp_path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([
        {"tool": "list_documents", "arguments": {}},
        {"tool": "grep_documents", "arguments": {"pattern": "renewal"}},
        {"tool": "save_deliverable", "arguments": {"filename": "lease-risk-memo.docx", "content": MEMO}},
        {"say": "done"},
    ]))
    out = tmp_path / "runs"
    proc = lae("run", "--root", str(tree), "--task", "harbor-lease-001", "--replay", str(replay), "--rollouts", "2",
               "-j", "2", "--allow-unfrozen", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    (run_dir,) = out.iterdir()
    manifest = json.loads((run_dir / "run.json").read_text())
    assert [(r["status"], r["reward"]) for r in manifest["rollouts"]] == [("ok", 1.0), ("ok", 1.0)]
    # the run folders re-score identically with `lae score --runs`
    proc = lae("score", "--root", str(tree), "--runs", str(run_dir / "harbor-lease-001"), "--allow-unfrozen", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"]["r1"]["metrics"]["finding_recall"] == 1.0


def test_lae_run_refuses_unfrozen_without_opt_in(tree, tmp_path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([{"say": "nothing"}]))
    proc = lae("run", "--root", str(tree), "--task", "harbor-lease-001", "--replay", str(replay), "--out", str(tmp_path / "o"))
    assert proc.returncode == 3 and "not frozen" in proc.stderr


def test_judge_model_records_weight_zero_telemetry(tree, tmp_path, monkeypatch):
    from tests.report.judge_server import JudgeServer

    compile_pocket(Project.at(tree), "fixture")
    with JudgeServer() as judge, ScriptedServer() as server:
        monkeypatch.setenv("JUDGE_API_KEY", "test-key")
        monkeypatch.setenv("JUDGE_BASE_URL", judge.base_url)
        env = load_environment("fixture", tasks_root=tree, allow_unfrozen=True, judge_model="good")
        client = OpenAICompatibleClient("saver", base_url=server.base_url, backoff=0.01)
        _, result = env.run(client, env.tasks[0], tmp_path / "r1", model="saver")
        assert judge.requests, "the judge was called"
    record = json.loads((tmp_path / "r1" / "judge.json").read_text())
    assert record and result.metrics.reward == 1.0, "the judge never changes the reward"
    assert "test-key" not in (tmp_path / "r1" / "judge.json").read_text()


def test_no_judge_model_means_no_judge_file(env, tmp_path):
    run(env, "saver", tmp_path / "r")
    assert not (tmp_path / "r" / "judge.json").exists()
