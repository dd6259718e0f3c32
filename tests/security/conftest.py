"""Fixtures for the attack tests: a compiled fixture tree and `lae run` against the hostile chat server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lae.compiler.compile import compile_pocket
from lae.project import Project
from tests.chat_server import ChatServer
from tests.conftest import run_lae

KEY = "sk-test-SECRET-0123456789abcdef"


@pytest.fixture
def compiled(tree: Path) -> Path:
    compile_pocket(Project.at(tree), "fixture")
    return tree


@pytest.fixture
def server():
    with ChatServer() as s:
        yield s


def lae_run(tree: Path, out: Path, server: ChatServer, model: str, *extra: str, rollouts: int = 1):
    """`lae run` on the fixture task against the loopback server, with the test key set."""
    return run_lae("run", "--root", str(tree), "--task", "harbor-lease-001", "--model", model, "--base-url", server.base_url,
                   "--rollouts", str(rollouts), "--allow-unfrozen", "--retries", "0", "--out", str(out), *extra,
                   env={"OPENAI_API_KEY": KEY})


def only_run(out: Path) -> Path:
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return run_dir


def rollout_meta(out: Path, index: int = 1) -> dict:
    return json.loads((only_run(out) / "harbor-lease-001" / f"r{index}" / "rollout.json").read_text())


def all_text(folder: Path) -> str:
    """Every byte written under ``folder``, decoded (to look for secrets)."""
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(folder.rglob("*")) if p.is_file())
