"""Attack: an endpoint that echoes the key, or redirects elsewhere. Before: the key was stored verbatim in
rollout.json and judge.json and printed; a 302 to another host received ``Bearer <key>``. After: redacted
everywhere; a redirect to another origin is refused and never carries credentials."""

from __future__ import annotations

import json

from tests.chat_server import ChatServer
from tests.env.scripted_server import MEMO
from tests.report.judge_server import JudgeServer
from tests.security.conftest import KEY, all_text, lae_run, rollout_meta


def test_error_body_echoing_the_key_is_redacted(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "echo-key")
    assert proc.returncode == 1
    assert server.requests[-1]["headers"]["Authorization"] == f"Bearer {KEY}", "the key was sent to its own endpoint"
    meta = rollout_meta(tmp_path / "out")
    assert "HTTP 400" in meta["error"] and "[REDACTED]" in meta["error"]
    for text in (all_text(tmp_path / "out"), proc.stdout, proc.stderr):
        assert KEY not in text and KEY[:12] not in text


def test_preflight_failure_message_is_redacted(compiled, tmp_path):
    with ChatServer() as server:
        proc = lae_run(compiled, tmp_path / "out", server, "unauthorized")
    assert proc.returncode == 1 and "Incorrect API key provided" in proc.stderr
    assert KEY not in proc.stderr + proc.stdout


def test_judge_error_body_echoing_the_key_is_redacted(compiled, tmp_path, lae):
    from lae.env.client import ReplayClient
    from lae.env.environment import load_environment

    env = load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    saver = [{"tool": "save_deliverable", "arguments": {"filename": "lease-risk-memo.docx", "content": MEMO}}, {"say": "ok"}]
    env.run(ReplayClient(saver), env.tasks[0], tmp_path / "r1", model="m")
    with ChatServer() as server:  # every judge call gets a 400 echoing the Authorization header
        proc = lae("judge", "--root", str(compiled), str(tmp_path / "r1"), "--judge-model", "echo-key",
                   "--base-url", server.base_url, env={"JUDGE_API_KEY": KEY})
    assert proc.returncode == 0, proc.stderr
    record = (tmp_path / "r1" / "judge.json").read_text()
    assert json.loads(record)["errors"] > 0 and "HTTP 400" in record
    assert KEY not in record and KEY not in proc.stdout + proc.stderr


def test_redirect_to_another_origin_never_carries_the_key(compiled, tmp_path):
    with ChatServer() as target, ChatServer() as server:
        server.httpd.redirect_to = target.base_url + "/chat/completions"
        proc = lae_run(compiled, tmp_path / "out", server, "redirect")
    assert proc.returncode == 1
    assert target.requests == [], "the other origin received nothing, so no credentials"
    meta = rollout_meta(tmp_path / "out")
    assert "redirect to another origin" in meta["error"] and "refused" in meta["error"]
    assert KEY not in all_text(tmp_path / "out")


def test_judge_redirect_to_another_origin_is_refused(tmp_path):
    from lae.report.judge import JudgeClient

    with JudgeServer() as target, ChatServer() as server:
        server.httpd.redirect_to = target.base_url + "/chat/completions"
        reply = JudgeClient("redirect", base_url=server.base_url, api_key=KEY, retries=0).chat(
            [{"role": "user", "content": "Criterion C-001: x"}])
    assert reply.content is None and "redirect to another origin" in reply.error
    assert target.requests == []


def test_run_json_records_the_base_url_without_secrets(compiled, tmp_path, server):
    url = server.base_url.replace("http://", f"http://user:{KEY}@") + "?api-key=" + KEY
    from tests.conftest import run_lae

    proc = run_lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--model", "saver", "--base-url", url,
                   "--rollouts", "1", "--allow-unfrozen", "--out", str(tmp_path / "out"), env={"OPENAI_API_KEY": "x"})
    assert proc.returncode == 0, proc.stderr
    (run_dir,) = (tmp_path / "out").iterdir()
    manifest = json.loads((run_dir / "run.json").read_text())
    assert manifest["base_url"] == server.base_url
    assert KEY not in all_text(tmp_path / "out")
