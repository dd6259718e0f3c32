"""The weight-0 rubric judge against a scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from lae.errors import InvalidInputError
from lae.project import Project
from lae.report.aggregate import aggregate, load_runs, render_markdown
from lae.report.judge import JudgeClient, client_from_env, judge_rollout, parse_verdict
from lae.report.models import JudgeRecord
from tests.report.conftest import FIXTURE_TREE, ROOT_A, variant, write_rollout
from tests.report.judge_server import PASSING, JudgeServer


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """The fixture tree with its task.json criteria filled from the key's public rubric
    (what `lae render` writes), so the judge has criteria to judge."""
    tree = tmp_path_factory.mktemp("judge") / "tree"
    shutil.copytree(FIXTURE_TREE, tree)
    key = yaml.safe_load((tree / "keys_private/fixture/harbor-lease-001.yaml").read_text())
    task_json = tree / "tasks/fixture/harbor-lease-001/task.json"
    task = json.loads(task_json.read_text())
    task["criteria"] = [{"id": c["id"], "title": c["title"], "match_criteria": c["match_criteria"],
                         "deliverables": [key["deliverable"]]} for c in key["rubric"]]
    task_json.write_text(json.dumps(task, indent=2))
    return tree


@pytest.fixture
def project(tree) -> Project:
    return Project.at(tree)


@pytest.fixture
def server():
    with JudgeServer() as s:
        yield s


@pytest.fixture
def rollout(graded, tmp_path) -> Path:
    return write_rollout(tmp_path / "runs" / "m" / "harbor-lease-001" / "r1", variant(graded, freeze_root=ROOT_A), model="m")


def client(server, model: str, **kw) -> tuple[JudgeClient, list[float]]:
    sleeps: list[float] = []
    return JudgeClient(model=model, base_url=server.base_url, api_key="sk-test", sleep=sleeps.append, **kw), sleeps


def test_one_call_per_criterion_at_temperature_0_with_verdicts_and_proxy(server, rollout, graded, project):
    judge, _ = client(server, "good")
    record = judge_rollout(rollout, judge, project)
    criteria = json.loads((project.root / "tasks/fixture/harbor-lease-001/task.json").read_text())["criteria"]
    assert len(server.requests) == len(criteria) == len(record.criteria) == 10
    assert all(r["body"]["temperature"] == 0 and r["body"]["model"] == "good" for r in server.requests)
    assert all(r["headers"]["Authorization"] == "Bearer sk-test" and r["path"] == "/v1/chat/completions"
               for r in server.requests)
    assert {c.id: c.verdict for c in record.criteria} == {c["id"]: "PASS" if c["id"] in PASSING else "FAIL" for c in criteria}
    assert {c.id: c.proxy_passed for c in record.criteria} == {c.id: c.passed for c in graded.criteria}
    assert record.weight == 0 and record.errors == 0 and record.pass_rate == 0.6
    on_disk = JudgeRecord.model_validate_json((rollout / "judge.json").read_bytes())
    assert on_disk == record and "sk-test" not in (rollout / "judge.json").read_text()
    # the memo travels to the judge; the criterion's public conditions too
    assert graded.graded_text[:40] in server.requests[0]["body"]["messages"][1]["content"]


def test_429_is_retried_with_bounded_backoff(server, rollout, project):
    judge, sleeps = client(server, "flaky", backoff=0.5, max_backoff=2.0)
    record = judge_rollout(rollout, judge, project, jobs=1)
    assert record.errors == 0 and all(c.attempts == 2 for c in record.criteria)
    assert len(server.requests) == 20 and sleeps == [0.5] * 10


def test_5xx_gives_up_after_the_retries_and_records_the_error(server, rollout, project):
    judge, sleeps = client(server, "server-error", retries=2, backoff=1.0, max_backoff=1.5)
    record = judge_rollout(rollout, judge, project, jobs=1)
    assert record.errors == 10 and record.pass_rate is None
    assert all(c.verdict is None and "gave up after 3 attempts (HTTP 503)" in c.error for c in record.criteria)
    assert sleeps == [1.0, 1.5] * 10  # 1, 2 -> capped at 1.5


def test_a_client_error_is_not_retried(server, rollout, project):
    judge, sleeps = client(server, "bad-request")
    record = judge_rollout(rollout, judge, project, jobs=1)
    assert len(server.requests) == 10 and sleeps == []
    assert all(": HTTP 400" in c.error and c.attempts == 1 for c in record.criteria)


def test_a_timeout_is_retried_and_never_raised(server, rollout, project):
    # The server holds each criterion's first request for 2.5 s, past the 1 s timeout.
    judge, _ = client(server, "slow", timeout=1.0, retries=2)
    start = time.monotonic()
    record = judge_rollout(rollout, judge, project, jobs=10)
    assert time.monotonic() - start < 10
    assert record.errors == 0 and all(c.attempts >= 2 for c in record.criteria)
    judge, _ = client(server, "slow", timeout=1.0, retries=0)
    server.httpd.seen.clear()
    record = judge_rollout(rollout, judge, project, jobs=10)
    assert record.errors == 10 and all("gave up after 1 attempt" in c.error and "deadline of 1s" in c.error
                                       for c in record.criteria)


def test_malformed_verdicts_are_recorded_as_errors(server, rollout, project):
    judge, _ = client(server, "malformed")
    record = judge_rollout(rollout, judge, project)
    by_id = {c.id: c for c in record.criteria}
    assert by_id["C-001"].verdict == "PASS" and by_id["C-001"].error is None  # fenced JSON is fine
    assert "not JSON" in by_id["C-002"].error and by_id["C-002"].raw == "I think it passes."
    assert "must be PASS or FAIL, got 'MAYBE'" in by_id["C-003"].error
    assert "not a JSON object" in by_id["C-004"].error
    assert "'reasoning' must be a string" in by_id["C-005"].error
    assert "malformed reply" in by_id["C-006"].error
    assert record.errors == 5 and all(by_id[c].verdict is None for c in ("C-002", "C-003", "C-004", "C-005", "C-006"))


@pytest.mark.parametrize("content, expected", [
    ('{"verdict": "PASS", "reasoning": "ok"}', ("PASS", "ok", None)),
    ('  {"verdict": " fail "}  ', ("FAIL", None, None)),
    ('```\n{"verdict": "PASS", "reasoning": "r"}\n```', ("PASS", "r", None)),
    ('', (None, None, "malformed verdict: not JSON")),
    ('{"verdict": true}', (None, None, "malformed verdict: 'verdict' must be PASS or FAIL, got True")),
], ids=["plain", "spaced-lowercase", "fenced", "empty", "boolean"])
def test_parse_verdict(content, expected):
    verdict, reasoning, error = parse_verdict(content)
    assert (verdict, reasoning) == expected[:2]
    assert (error is None) if expected[2] is None else error.startswith(expected[2])


def test_no_deliverable_text_is_not_sent(server, graded, tmp_path, project):
    empty = variant(graded, freeze_root=ROOT_A).model_copy(update={"graded_text": ""})
    folder = write_rollout(tmp_path / "r1", empty, model="m")
    judge, _ = client(server, "good")
    record = judge_rollout(folder, judge, project)
    assert server.requests == [] and record.errors == 10


def test_the_judge_needs_its_key_variable(monkeypatch):
    monkeypatch.delenv("LAE_TEST_JUDGE_KEY", raising=False)
    with pytest.raises(InvalidInputError, match="needs an API key") as info:
        client_from_env("m", base_url="http://127.0.0.1:9/v1", api_key_var="LAE_TEST_JUDGE_KEY")
    assert "export LAE_TEST_JUDGE_KEY=" in info.value.report()


def test_report_shows_judge_pass_rate_agreement_and_kappa(server, rollout, project):
    judge, _ = client(server, "good")
    judge_rollout(rollout, judge, project)
    summary = aggregate(load_runs([rollout.parents[2]]))
    [row] = summary.pockets[0].models
    proxy = [c for c in judge_rollout(rollout, judge, project).criteria]
    pairs = [(c.verdict == "PASS", c.proxy_passed) for c in proxy]
    agree = sum(a == b for a, b in pairs) / len(pairs)
    assert row.judge.judge_pass_rate == 0.6 and row.judge.agreement == pytest.approx(agree)
    assert row.judge.proxy_pass_rate == pytest.approx(sum(b for _, b in pairs) / len(pairs))
    assert row.judge.kappa is not None
    per = {a.criterion_id: a for a in summary.pockets[0].criteria_agreement}
    assert set(per) == {c.id for c in proxy} and all(a.pairs == 1 for a in per.values())
    md = render_markdown(summary)
    assert f"| 0.600 | {agree:.3f} | {row.judge.kappa:.3f} |" in md


def test_nothing_touches_the_network_without_a_judge_model(graded, tmp_path, monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("network call without a judge model")
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    from lae.report.html import write_html_report

    write_rollout(tmp_path / "runs" / "r1", variant(graded, freeze_root=ROOT_A), model="m")
    loaded = load_runs([tmp_path / "runs"])
    write_html_report(aggregate(loaded, with_pages=True), loaded, tmp_path / "out")


def test_maybe_judge_does_nothing_without_a_judge_model(rollout, project, monkeypatch):
    from lae.report.judge import maybe_judge

    monkeypatch.setattr(urllib.request, "urlopen", lambda *a, **k: (_ for _ in ()).throw(AssertionError("network")))
    assert maybe_judge(rollout, judge_model=None, project=project) is None
    assert not (rollout / "judge.json").exists()


def test_maybe_judge_uses_the_key_variable_and_base_url_from_the_environment(server, rollout, project, monkeypatch):
    from lae.report.judge import maybe_judge

    monkeypatch.setenv("MY_JUDGE_KEY", "sk-env")
    monkeypatch.setenv("JUDGE_BASE_URL", server.base_url)
    record = maybe_judge(rollout, judge_model="good", project=project, api_key_var="MY_JUDGE_KEY")
    assert record is not None and record.base_url == server.base_url and (rollout / "judge.json").is_file()
    assert server.requests[0]["headers"]["Authorization"] == "Bearer sk-env"
