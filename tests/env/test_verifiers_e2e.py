"""The verifiers path end to end: a real `python -m lae.env.verifiers_adapter eval` against the loopback server.

verifiers' null harness runs its chat program with ``uv`` (``uv sync --script`` of the
program's inline dependencies: openai, mcp, httpx, ...), so this test needs ``uv`` on PATH
(the ``test`` extra installs it) and those dependencies in uv's cache: ``.ci/run`` fills it
at install time (``tests/env/warm_uv_cache.py``), and the test runs with ``UV_OFFLINE=1``,
so nothing is downloaded at test time. The model is the loopback server's ``saver`` script
(streamed replies, as verifiers' proxy asks for them).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.chat_server import ChatServer
from tests.conftest import REPO, run_lae
from tests.env.warm_uv_cache import sync_chat_program

pytest.importorskip("verifiers.v1")
UV = shutil.which("uv", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))


@pytest.mark.skipif(UV is None, reason="uv is not installed (pip install uv; the verifiers null harness needs it)")
def test_vf_eval_against_the_loopback_server_rescores_equal_and_reports(tmp_path):
    warm = sync_chat_program(offline=True)
    if warm.returncode != 0:
        pytest.skip("uv's cache lacks the verifiers chat program's dependencies; fill it once with "
                    f"`python tests/env/warm_uv_cache.py` (needs the package index): {warm.stderr.strip()[-300:]}")
    out = tmp_path / "outputs"
    env = dict(os.environ, OPENAI_API_KEY="sk-test", UV_OFFLINE="1",
               PATH=os.path.dirname(UV) + os.pathsep + os.environ["PATH"])
    with ChatServer() as server:
        proc = subprocess.run([sys.executable, "-m", "lae.env.verifiers_adapter", "eval", "employment-law-legal-agent-eval",
                               "-m", "saver", "-r", "1", "--no-push", "-o", str(out),
                               "--env.taskset.task-id", "atlas-noncompete-001", "--client.base-url", server.base_url,
                               "--client.api-key-var", "OPENAI_API_KEY"],
                              capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        assert len(server.requests) == 3 and all(r["body"]["model"] == "saver" for r in server.requests)
    (traces,) = out.glob("*/traces.jsonl")
    (episode,) = [json.loads(line) for line in traces.read_text().splitlines() if line.strip()]
    (trace,) = episode["traces"]
    assert not trace["errors"], trace["errors"]
    metrics = trace["metrics"]
    assert metrics["deliverable_complete"] == 1.0 and metrics["scoring_error"] == 0.0
    # re-score the trace's deliverable with the core grader: the same numbers
    saved = trace["info"]["lae"]["deliverables"]
    assert list(saved) == ["noncompete-risk-memo.docx"]
    memo = tmp_path / "noncompete-risk-memo.docx"
    memo.write_bytes(base64.b64decode(saved["noncompete-risk-memo.docx"]))
    core = run_lae("score", "--task", "atlas-noncompete-001", "--json", str(memo), cwd=REPO)
    assert core.returncode == 0, core.stderr
    core_metrics = json.loads(core.stdout)["metrics"]
    for name in ("reward", "finding_recall", "deliverable_complete", "false_flag_rate", "must_not_say",
                 "criterion_pass_rate_proxy"):
        assert core_metrics[name] == pytest.approx(metrics.get(name, trace["rewards"]["reward"]["score"])), name
    assert trace["rewards"]["reward"]["score"] == pytest.approx(core_metrics["reward"])
    # and `lae report` reads the traces
    report = run_lae("report", str(traces), "--json", cwd=REPO)
    assert report.returncode == 0, report.stderr
    (row,) = json.loads(report.stdout)["pockets"][0]["models"]
    assert row["model"] == "saver" and row["reward"]["mean"] == pytest.approx(core_metrics["reward"])
