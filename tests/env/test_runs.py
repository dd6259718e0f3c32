"""`lae run` a person can trust (issue 15): pre-flight, errored rollouts, run folders, resume, batches."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.chat_server import ChatServer
from tests.conftest import REPO, run_lae
from tests.security.conftest import KEY, lae_run, only_run, rollout_meta


@pytest.fixture
def compiled(tree: Path) -> Path:
    from lae.compiler.compile import compile_pocket
    from lae.project import Project

    compile_pocket(Project.at(tree), "fixture")
    return tree


# ---------------------------------------------------------------- pre-flight
def test_endpoint_down_fails_the_preflight_with_exit_1(compiled, tmp_path):
    proc = run_lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--model", "m", "--base-url",
                   "http://127.0.0.1:9/v1", "--allow-unfrozen", "--retries", "0", "--out", str(tmp_path / "out"))
    assert proc.returncode == 1
    assert "the endpoint check failed; nothing was run" in proc.stderr and "ConnectionRefusedError" in proc.stderr
    assert not (tmp_path / "out").exists(), "no run folder for a run that never started"


@pytest.mark.parametrize("model, message", [
    ("unauthorized", "HTTP 401: Incorrect API key provided"),
    ("missing-model", "HTTP 404: The model `missing-model` does not exist"),
], ids=["401", "404-model"])
def test_preflight_shows_the_servers_message(compiled, tmp_path, model, message):
    with ChatServer() as server:
        proc = lae_run(compiled, tmp_path / "out", server, model)
        assert len(server.requests) == 1 and server.requests[0]["body"]["max_tokens"] == 1, "one cheap request"
    assert proc.returncode == 1 and message in proc.stderr, proc.stderr


def test_500_then_success_is_retried_and_graded(compiled, tmp_path):
    with ChatServer() as server:
        proc = run_lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--model", "flaky-500", "--base-url",
                       server.base_url, "--rollouts", "1", "--allow-unfrozen", "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    meta = rollout_meta(tmp_path / "out")
    assert meta["status"] == "ok" and meta["stop_reason"] == "finished"


# ---------------------------------------------------------------- errors are not scores
def test_errored_rollouts_are_excluded_from_the_report_means_and_counted(compiled, tmp_path):
    with ChatServer() as server:
        ok = lae_run(compiled, tmp_path / "out", server, "saver", rollouts=2)
        bad = lae_run(compiled, tmp_path / "bad", server, "tool-calls-string", rollouts=2)
    assert ok.returncode == 0 and bad.returncode == 1
    assert "0 of 2 rollout(s) graded, 2 errored" in bad.stdout
    # the errored run is a run of another model: report both, side by side
    proc = run_lae("report", str(tmp_path / "out"), str(tmp_path / "bad"), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    (row,) = report["pockets"][0]["models"]
    assert row["model"] == "saver" and row["rollouts"] == 2 and row["reward"]["n"] == 2, "only scored rollouts in means"
    assert len(report["errored"]) == 2 and {e["model"] for e in report["errored"]} == {"tool-calls-string"}
    assert all("tool_calls is a string" in e["error"] for e in report["errored"])
    md = run_lae("report", str(tmp_path / "out"), str(tmp_path / "bad")).stdout
    assert "## Errored rollouts (2, excluded from every mean)" in md


def test_two_runs_into_the_same_out_stay_apart_and_are_not_combined_silently(compiled, tmp_path):
    with ChatServer() as server:
        assert lae_run(compiled, tmp_path / "out", server, "saver").returncode == 0
        assert lae_run(compiled, tmp_path / "out", server, "saver").returncode == 0
    runs = sorted((tmp_path / "out").iterdir())
    assert len(runs) == 2 and all((r / "run.json").is_file() for r in runs)
    proc = run_lae("report", str(tmp_path / "out"))
    assert proc.returncode == 3 and "different runs of the same model and task" in proc.stderr
    assert runs[0].name in proc.stderr and runs[1].name in proc.stderr
    proc = run_lae("report", str(tmp_path / "out"), "--combine-runs")
    assert proc.returncode == 0 and "combined runs" in proc.stdout


# ---------------------------------------------------------------- interrupt and resume
# rollouts of about a second each: the interrupt, sent once two have finished, must land before the
# rest do, even on a loaded machine
ROLLOUTS = 8


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_sigint_during_a_batch_then_resume_keeps_finished_rollouts_byte_for_byte(compiled, tmp_path):
    out = tmp_path / "out"
    with ChatServer() as server:
        cmd = [sys.executable, "-m", "lae", "run", "--root", str(compiled), "--task", "harbor-lease-001", "--model",
               "slow-saver", "--base-url", server.base_url, "--rollouts", str(ROLLOUTS), "-j", "1", "--allow-unfrozen",
               "--out", str(out)]
        # SIGINT as a user's terminal delivers it: a suite started in the background by a shell without job
        # control inherits SIGINT ignored (POSIX), and so would the run, which would then never see it
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ, OPENAI_API_KEY=KEY), preexec_fn=_default_sigint)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list(out.glob("*/*/r*/rollout.json"))) < 2:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
        assert proc.returncode == 130 and "Continue with: lae run --resume" in stderr, stderr
        run_dir = only_run(out)
        manifest = json.loads((run_dir / "run.json").read_text())
        assert manifest["interrupted"] is True and manifest["totals"]["missing"] >= 1
        finished = {p.parent.name: {f.relative_to(p.parent).as_posix(): f.read_bytes()
                                    for f in p.parent.rglob("*") if f.is_file()}
                    for p in run_dir.glob("*/r*/rollout.json")}
        assert 2 <= len(finished) < ROLLOUTS
        before = len(server.requests)
        resumed = run_lae("run", "--resume", str(run_dir), "--root", str(compiled), env={"OPENAI_API_KEY": KEY})
        assert resumed.returncode == 0, resumed.stderr
        rerun = len(server.requests) - before
    assert f"{ROLLOUTS - len(finished)} rollout(s) to run" in resumed.stderr
    assert rerun == 1 + 3 * (ROLLOUTS - len(finished)), "one pre-flight, then three replies per remaining rollout only"
    for name, files in finished.items():
        folder = run_dir / "harbor-lease-001" / name
        assert {f.relative_to(folder).as_posix(): f.read_bytes() for f in folder.rglob("*") if f.is_file()} == files
    manifest = json.loads((run_dir / "run.json").read_text())
    assert manifest["totals"]["ok"] == ROLLOUTS and manifest["interrupted"] is False and manifest["finished"]


def test_resume_reruns_errored_rollouts_only(compiled, tmp_path):
    with ChatServer() as server:
        assert lae_run(compiled, tmp_path / "out", server, "echo-key", rollouts=2).returncode == 1
        run_dir = only_run(tmp_path / "out")
        # the endpoint is fixed: point the run's model at a working script and resume
        manifest = json.loads((run_dir / "run.json").read_text())
        manifest["model"] = "saver"
        (run_dir / "run.json").write_text(json.dumps(manifest))
        proc = run_lae("run", "--resume", str(run_dir), "--root", str(compiled), env={"OPENAI_API_KEY": KEY})
    assert proc.returncode == 0, proc.stderr
    assert "2 rollout(s) to run" in proc.stderr
    assert all(rollout_meta(tmp_path / "out", i)["status"] == "ok" for i in (1, 2))


# ---------------------------------------------------------------- batches
def test_a_pocket_in_one_command_with_progress_and_usage(tmp_path):
    out = tmp_path / "out"
    with ChatServer() as server:
        proc = run_lae("run", "--pocket", "employment-law", "--rollouts", "2", "-j", "4", "--model", "saver",
                       "--base-url", server.base_url, "--out", str(out), env={"OPENAI_API_KEY": KEY}, timeout=600)
    assert proc.returncode == 0, proc.stderr
    progress = [line for line in proc.stdout.splitlines() if line.startswith("[")]
    assert len(progress) == 10 and progress[-1].startswith("[10/10 done, 0 errored]")
    run_dir = only_run(out)
    manifest = json.loads((run_dir / "run.json").read_text())
    assert manifest["totals"]["rollouts"] == 10 and manifest["totals"]["ok"] == 10
    assert manifest["totals"]["usage"]["total_tokens"] == 10 * 3 * 120, "three replies per rollout, 120 tokens each"
    assert set(manifest["freeze_roots"]) == {"employment-law"} and manifest["freeze_roots"]["employment-law"]
    meta = json.loads(next(run_dir.glob("*/r1/rollout.json")).read_text())
    assert meta["usage"]["total_tokens"] == 360 and meta["turns"] == 3 and meta["tool_calls"] == {
        "list_documents": 1, "save_deliverable": 1} and meta["wall_seconds"] > 0
    report = json.loads(run_lae("report", str(run_dir), "--json").stdout)
    assert report["usage"]["total_tokens"] == 3600 and report["pockets"][0]["models"][0]["usage"]["rollouts"] == 10
    assert report["pockets"][0]["models"][0]["setup"] == "5 tasks × 2 rollouts"


def test_task_repeated_and_all(compiled, tmp_path):
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([{"say": "done"}]))
    proc = run_lae("run", "--root", str(compiled), "--task", "all", "--replay", str(replay), "--rollouts", "1",
                   "--allow-unfrozen", "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    proc = run_lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--task", "harbor-lease-001",
                   "--replay", str(replay), "--rollouts", "1", "--allow-unfrozen", "--out", str(tmp_path / "out2"))
    assert proc.returncode == 0 and "1 rollout(s) to run" in proc.stderr
    proc = run_lae("run", "--root", str(compiled), "--replay", str(replay), "--out", str(tmp_path / "o3"))
    assert proc.returncode == 1 and "give --pocket P, --task T" in proc.stderr


def test_score_runs_regrades_a_run_folder_and_skips_errored_rollouts(compiled, tmp_path):
    with ChatServer() as server:
        assert lae_run(compiled, tmp_path / "out", server, "saver").returncode == 0
        assert lae_run(compiled, tmp_path / "bad", server, "tool-calls-string").returncode == 1
    run_dir = only_run(tmp_path / "out")
    before = json.loads((run_dir / "harbor-lease-001" / "r1" / "result.json").read_text())["metrics"]
    proc = run_lae("score", "--root", str(compiled), "--runs", str(run_dir), "--allow-unfrozen", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"]["harbor-lease-001/r1"]["metrics"] == before
    bad = only_run(tmp_path / "bad")
    proc = run_lae("score", "--root", str(compiled), "--runs", str(bad / "harbor-lease-001"), "--allow-unfrozen")
    assert "skipped r1: errored rollout, not scored" in proc.stderr
    assert not (bad / "harbor-lease-001" / "r1" / "result.json").exists()


def test_progress_bar_on_a_terminal(compiled, tmp_path):
    import pty

    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([{"say": "done"}]))
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "lae", "run", "--root", str(compiled), "--task", "harbor-lease-001",
                             "--replay", str(replay), "--rollouts", "2", "--allow-unfrozen", "--out", str(tmp_path / "o")],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    terminal = b"".join(chunks).decode()
    assert proc.returncode == 0
    assert "[..............................] 0/2, 0 errored" in terminal
    assert "[##############################] 2/2, 0 errored" in terminal


def test_run_json_and_rollout_json_validate_against_their_schemas(compiled, tmp_path):
    import jsonschema

    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([{"tool": "list_documents", "arguments": {}}, {"say": "done"}]))
    proc = run_lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--replay", str(replay), "--rollouts", "1",
                   "--allow-unfrozen", "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    run_dir = only_run(tmp_path / "out")
    schemas = REPO / "schemas"
    jsonschema.validate(json.loads((run_dir / "run.json").read_text()),
                        json.loads((schemas / "run.schema.json").read_text()))
    jsonschema.validate(json.loads((run_dir / "harbor-lease-001" / "r1" / "rollout.json").read_text()),
                        json.loads((schemas / "rollout.schema.json").read_text()))
