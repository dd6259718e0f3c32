"""Attack: markup in a model name or task id. Before: report.md escaped only ``|``, so ``<script>`` and
``[x](javascript:...)`` passed through. After: shown literally, never interpreted."""

from __future__ import annotations

import json
import re

from lae.env.client import ReplayClient
from lae.env.environment import load_environment

HOSTILE = "<script>alert(1)</script>[x](javascript:alert(1))"


def test_report_md_escapes_script_and_javascript_links(compiled, tmp_path, lae):
    env = load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    env.run(ReplayClient([{"say": "nothing"}]), env.tasks[0], tmp_path / "runs" / "r1", model=HOSTILE)
    # an errored rollout of a hostile task id too
    (tmp_path / "runs" / "r2").mkdir()
    (tmp_path / "runs" / "r2" / "rollout.json").write_text(json.dumps({
        "task_id": HOSTILE, "pocket": "fixture", "model": HOSTILE, "rollout": 2, "status": "error", "error": HOSTILE}))
    proc = lae("report", str(tmp_path / "runs"), "-o", str(tmp_path / "report"))
    assert proc.returncode == 0, proc.stderr
    md = (tmp_path / "report" / "report.md").read_text()
    assert HOSTILE[:8] not in md and "<script" not in md
    assert not re.search(r"(?<!\\)\[x(?<!\\)\]\(", md), "no live Markdown link"
    assert "&lt;script&gt;" in md and "\\[x\\](javascript:alert(1))" in md
    html = (tmp_path / "report" / "index.html").read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html
    assert "Errored rollouts (1, excluded from every mean)" in html
