"""Attack: a reply of the wrong shape or depth. Before: an AttributeError/RecursionError traceback
and every rollout of the run lost. After: that rollout is an error with the cause, never a traceback."""

from __future__ import annotations

import pytest

from tests.security.conftest import lae_run, only_run, rollout_meta


def _assert_errored_rollout(proc, out, cause: str) -> None:
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    meta = rollout_meta(out)
    assert meta["status"] == "error" and cause in meta["error"], meta["error"]
    assert not (only_run(out) / "harbor-lease-001" / "r1" / "result.json").exists(), "a failure is never scored"
    assert "1 rollout(s) not graded" in proc.stderr


def test_tool_calls_a_string(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "tool-calls-string")
    _assert_errored_rollout(proc, tmp_path / "out", "tool_calls is a string, expected a list")


def test_tool_calls_a_list_of_integers(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "tool-calls-ints")
    _assert_errored_rollout(proc, tmp_path / "out", "tool_calls[0] is a number, expected an object")


def test_function_a_string(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "function-string")
    _assert_errored_rollout(proc, tmp_path / "out", "tool_calls[0].function is a string, expected an object")


@pytest.mark.parametrize("depth", [100_000, 200], ids=["100000-deep", "200-deep"])
def test_reply_nested_deep(compiled, tmp_path, server, depth):
    proc = lae_run(compiled, tmp_path / "out", server, f"deep-{depth}")
    _assert_errored_rollout(proc, tmp_path / "out", "--max-json-depth")
