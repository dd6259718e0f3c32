"""Attack: a re-run credited with an earlier run's work. Before: a second `lae run` into the same --out
whose agent saved nothing scored 1.000, reportable. After: every run has its own folder and every rollout
starts with an empty workspace, so a stale file is never graded."""

from __future__ import annotations

import json

from lae.env.client import ReplayClient
from lae.env.environment import load_environment
from tests.env.scripted_server import MEMO
from tests.security.conftest import lae_run


def test_stale_file_in_the_rollout_folder_is_never_graded(compiled, tmp_path):
    env = load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    saver = [{"tool": "save_deliverable", "arguments": {"filename": "lease-risk-memo.docx", "content": MEMO}}, {"say": "ok"}]
    meta, result = env.run(ReplayClient(saver), env.tasks[0], tmp_path / "r1", model="m")
    assert result.metrics.finding_recall == 1.0
    stale = tmp_path / "r1" / "workspace" / "lease-risk-memo.docx"
    assert stale.is_file()
    # the same folder again, with an agent that saves nothing: the old memo must not be graded
    meta, result = env.run(ReplayClient([{"say": "nothing to save"}]), env.tasks[0], tmp_path / "r1", model="m")
    assert result.metrics.deliverable_complete == 0.0 and result.metrics.finding_recall == 0.0
    assert not stale.exists()


def test_a_second_run_into_the_same_out_is_not_credited_with_the_first(compiled, tmp_path, server, lae):
    assert lae_run(compiled, tmp_path / "out", server, "saver").returncode == 0
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([{"say": "I saved nothing."}]))
    proc = lae("run", "--root", str(compiled), "--task", "harbor-lease-001", "--replay", str(replay), "--rollouts", "1",
               "--allow-unfrozen", "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    runs = sorted(p for p in (tmp_path / "out").iterdir())
    assert len(runs) == 2, "two runs into one --out stay apart"
    rewards = {json.loads((r / "run.json").read_text())["model"]: json.loads((r / "run.json").read_text())["rollouts"][0]
               for r in runs}
    assert rewards["replay-replay"]["reward"] == 0.0
    assert len(list((tmp_path / "out").glob("*/harbor-lease-001/r1/workspace/*"))) == 1, "only the saver's memo"
    replay_run = [r for r in runs if json.loads((r / "run.json").read_text())["model"] == "replay-replay"][0]
    assert list((replay_run / "harbor-lease-001" / "r1" / "workspace").iterdir()) == []
