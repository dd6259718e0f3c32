"""Attack: 100,000-deep JSON in the files commands read. Before: RecursionError tracebacks in `lab check`,
`report`, `score --transcript`, `run --replay`, `tasks`. After: one line naming the file, exit 1 (a
transcript is agent content: its line is skipped with a note). An unexpected exception is one line
saying it is a bug, the traceback only behind --debug."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

from lae.env.client import ReplayClient
from lae.env.environment import load_environment

DEEP = "[" * 100_000 + "]" * 100_000


def _one_clean_line(proc, name: str) -> None:
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "RecursionError" not in proc.stderr
    assert name in proc.stderr and "nested" in proc.stderr, proc.stderr


def test_deep_task_json_in_lae_tasks(compiled, lae):
    (compiled / "tasks" / "fixture" / "harbor-lease-001" / "task.json").write_text(DEEP)
    _one_clean_line(lae("tasks", "--root", str(compiled)), "task.json")


def test_deep_task_json_in_lab_check(compiled, lae, tmp_path):
    lab = tmp_path / "lab"
    shutil.copytree(compiled / "tasks" / "fixture", lab / "leases")
    (lab / "leases" / "harbor-lease-001" / "task.json").write_text(DEEP)
    _one_clean_line(lae("lab", "check", "--tasks-root", str(lab)), "task.json")


def test_deep_result_json_in_lae_report(compiled, lae, tmp_path):
    env = load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    env.run(ReplayClient([{"say": "x"}]), env.tasks[0], tmp_path / "runs" / "r1", model="m")
    (tmp_path / "runs" / "r1" / "result.json").write_text(DEEP)
    _one_clean_line(lae("report", str(tmp_path / "runs")), "result.json")


def test_deep_rollout_json_in_lae_report(compiled, lae, tmp_path):
    env = load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    env.run(ReplayClient([{"say": "x"}]), env.tasks[0], tmp_path / "runs" / "r1", model="m")
    (tmp_path / "runs" / "r1" / "rollout.json").write_text(DEEP)
    _one_clean_line(lae("report", str(tmp_path / "runs")), "rollout.json")


def test_deep_replay_file_in_lae_run(compiled, lae, tmp_path):
    replay = tmp_path / "replay.json"
    replay.write_text(DEEP)
    proc = lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--replay", str(replay), "--allow-unfrozen",
               "--out", str(tmp_path / "out"))
    _one_clean_line(proc, "replay.json")


def test_deep_transcript_line_in_lae_score(compiled, lae, tmp_path):
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text(json.dumps({"role": "assistant", "content": "hello"}) + "\n" + DEEP + "\n")
    memo = tmp_path / "lease-risk-memo.txt"
    memo.write_text("x")
    proc = lae("score", "--root", str(compiled), "--task", "harbor-lease-001", "--allow-unfrozen", "--transcript",
               str(transcript), str(memo))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "transcript line 2: not JSON; skipped" in proc.stdout


def test_unexpected_exception_is_one_line_saying_it_is_a_bug(tmp_path):
    # The real entry point with one extra command whose body fails the way a bug would.
    code = ("import sys, click\nfrom lae.cli import cli, main\n"
            "cli.add_command(click.Command('boom', callback=lambda: {}['missing']))\nmain(sys.argv[1:])\n")
    proc = subprocess.run([sys.executable, "-c", code, "boom"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert len(lines) == 1 and "bug in lae" in lines[0] and "KeyError" in lines[0] and "--debug" in lines[0], proc.stderr
    debug = subprocess.run([sys.executable, "-c", code, "--debug", "boom"], capture_output=True, text=True, cwd=tmp_path,
                           timeout=60)
    assert "Traceback" in debug.stderr and "bug in lae" in debug.stderr


def test_deep_anchors_file_in_lae_score(compiled, lae, tmp_path):
    (compiled / "anchors" / "fixture" / "harbor-lease-001.anchors.json").write_text(DEEP)
    memo = tmp_path / "lease-risk-memo.txt"
    memo.write_text("x")
    proc = lae("score", "--root", str(compiled), "--task", "harbor-lease-001", "--allow-unfrozen", str(memo))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "bug in lae" not in proc.stderr
    assert "harbor-lease-001.anchors.json: JSON nested too deep to parse" in proc.stderr


def test_replay_step_with_a_numeric_tool_name_is_one_line(compiled, lae, tmp_path):
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([{"tool": 5, "arguments": [1]}, {"say": "done"}]))
    proc = lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--replay", str(replay), "--allow-unfrozen",
               "--out", str(tmp_path / "out"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and "bug in lae" not in proc.stderr
    assert "replay.json: [0]: 'tool' must be a tool name" in proc.stderr
