"""CLI edges (issue 15): help text for every option, --root on either side, lae score's ignored files."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from lae.cli import cli
from tests.conftest import REPO


def _commands(group: click.Group, prefix: str = ""):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        assert cmd is not None, f"lae {prefix}{name} is listed but does not load"
        yield f"{prefix}{name}", cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, f"{prefix}{name} ")


@pytest.mark.parametrize("name, cmd", list(_commands(cli)), ids=lambda x: x if isinstance(x, str) else "")
def test_every_option_has_help_text(name, cmd):
    missing = [p.name for p in cmd.params if isinstance(p, click.Option) and not (p.help or "").strip()]
    assert not missing, f"lae {name}: options without help: {missing}"


def test_importing_the_shell_loads_no_command_until_one_is_used():
    code = ("import sys\nfrom lae.cli import cli\nimport click\n"
            "loaded = sorted(m for m in sys.modules if m.startswith('lae.cli.') and m.endswith('_cmd'))\n"
            "assert not loaded, loaded\n"
            "cli.get_command(click.Context(cli), 'tasks')\n"
            "assert 'lae.cli.tasks_cmd' in sys.modules and 'lae.cli.render_cmd' not in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr


def test_root_before_or_after_the_command_name(tree, lae):
    after = lae("tasks", "--root", str(tree), "--json")
    before = lae("--root", str(tree), "tasks", "--json")
    assert after.returncode == before.returncode == 0, before.stderr
    assert json.loads(after.stdout) == json.loads(before.stdout)
    assert json.loads(before.stdout)[0]["task_id"] == "harbor-lease-001"


def test_score_names_the_file_it_ignored(tree, lae, tmp_path):
    assert lae("compile", "--root", str(tree)).returncode == 0
    memo = tmp_path / "memo.docx"
    memo.write_bytes((REPO / "tests" / "fixtures" / "tree" / "tasks" / "fixture" / "harbor-lease-001" / "task.json").read_bytes())
    proc = lae("score", "--root", str(tree), "--task", "harbor-lease-001", "--allow-unfrozen", str(memo))
    assert proc.returncode == 0, proc.stderr
    assert "note: memo.docx: not a declared deliverable; ignored" in proc.stdout
    assert "no file named 'lease-risk-memo.docx'" in proc.stdout


def test_score_without_a_file_is_a_usage_error(tree, lae):
    proc = lae("score", "--root", str(tree), "--task", "harbor-lease-001", "--allow-unfrozen")
    assert proc.returncode == 2 and "give the deliverable FILE(s)" in proc.stderr


def test_runs_folder_is_ignored_by_git():
    assert "runs/" in (REPO / ".gitignore").read_text().splitlines()


def test_default_output_folder_is_printed(tree, lae, tmp_path):
    assert lae("compile", "--root", str(tree)).returncode == 0
    replay = tmp_path / "replay.json"
    replay.write_text(json.dumps([{"say": "done"}]))
    proc = lae("run", "--root", str(tree), "--task", "harbor-lease-001", "--replay", str(replay), "--rollouts", "1",
               "--allow-unfrozen", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"output folder: {(tmp_path / 'runs').resolve()}" in proc.stderr
    assert len(list((tmp_path / "runs").iterdir())) == 1
