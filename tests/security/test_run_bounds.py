"""Attack: unbounded runs. Before: a 300 MiB reply was read whole, 200 saves of 2 MiB in one turn wrote
801 MiB, a dripped reply ran past its timeout. After: each bound stops it, and the error names the option."""

from __future__ import annotations

import json
import time

from tests.security.conftest import lae_run, only_run, rollout_meta


def test_oversized_reply_is_refused_at_the_reply_limit(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "huge-12", "--max-reply-bytes", str(1024 * 1024))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    meta = rollout_meta(tmp_path / "out")
    assert meta["status"] == "error"
    assert "exceeds the limit of 1,048,576 bytes (--max-reply-bytes)" in meta["error"]
    transcript = only_run(tmp_path / "out") / "harbor-lease-001" / "r1" / "transcript.jsonl"
    assert transcript.stat().st_size < 100_000, "nothing of the oversized reply is kept"


def test_dripped_reply_stops_at_the_request_deadline(compiled, tmp_path, server):
    start = time.monotonic()
    proc = lae_run(compiled, tmp_path / "out", server, "drip", "--request-deadline", "2")
    elapsed = time.monotonic() - start
    assert proc.returncode == 1, proc.stderr
    assert "deadline of 2s (--request-deadline)" in rollout_meta(tmp_path / "out")["error"]
    # The reply takes ~40 s to drip; a per-read timeout would wait for all of it.
    assert elapsed < 20, elapsed


def test_save_deliverable_flood_is_capped_by_files_and_calls_per_turn(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "calls-40x64", "--max-tool-calls-per-turn", "20",
                   "--max-saved-files", "5")
    assert proc.returncode == 0, proc.stderr
    folder = only_run(tmp_path / "out") / "harbor-lease-001" / "r1"
    saved = sorted(p.name for p in (folder / "workspace").iterdir())
    assert len(saved) == 5, saved
    tools = [json.loads(line) for line in (folder / "transcript.jsonl").read_text().splitlines()
             if json.loads(line)["role"] == "tool"]
    assert len(tools) == 40, "every call gets a reply"
    assert sum("(--max-saved-files)" in t["content"] for t in tools) == 15
    assert sum("(--max-tool-calls-per-turn)" in t["content"] for t in tools) == 20


def test_save_deliverable_total_bytes_are_capped(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "calls-6x1024", "--max-saved-bytes", str(3 * 1024 * 1024))
    assert proc.returncode == 0, proc.stderr
    workspace = only_run(tmp_path / "out") / "harbor-lease-001" / "r1" / "workspace"
    assert sum(p.stat().st_size for p in workspace.iterdir()) <= 3 * 1024 * 1024
    transcript = (workspace.parent / "transcript.jsonl").read_text()
    assert "over the limit of 3,145,728 bytes per rollout (--max-saved-bytes)" in transcript


def test_tool_result_is_cut_at_the_character_limit(compiled, tmp_path, server):
    proc = lae_run(compiled, tmp_path / "out", server, "big-result", "--page-chars", "20000",
                   "--max-tool-result-chars", "200")
    assert proc.returncode == 0, proc.stderr
    folder = only_run(tmp_path / "out") / "harbor-lease-001" / "r1"
    (tool,) = [json.loads(line) for line in (folder / "transcript.jsonl").read_text().splitlines()
               if json.loads(line)["role"] == "tool"]
    assert "(--max-tool-result-chars)" in tool["content"] and len(tool["content"]) < 400


def test_limits_are_options_with_defaults_in_help(lae):
    out = lae("run", "--help").stdout
    for option in ("--max-reply-bytes", "--request-deadline", "--max-json-depth", "--max-tool-calls-per-turn",
                   "--max-saved-files", "--max-saved-bytes", "--max-tool-result-chars"):
        assert option in out
    assert "[default: 8388608" in out and "[default: 300.0" in out


def test_conversation_growth_is_capped(compiled, tmp_path, server):
    # 2 MiB saves, 3 per reply: each reply fits the reply limit, but the conversation is re-sent every turn.
    proc = lae_run(compiled, tmp_path / "out", server, "calls-200x256x3", "--max-conversation-bytes", str(1024 * 1024))
    assert proc.returncode == 1, proc.stderr
    meta = rollout_meta(tmp_path / "out")
    assert meta["status"] == "error" and "(--max-conversation-bytes)" in meta["error"]
    transcript = only_run(tmp_path / "out") / "harbor-lease-001" / "r1" / "transcript.jsonl"
    assert transcript.stat().st_size < 2 * 1024 * 1024
