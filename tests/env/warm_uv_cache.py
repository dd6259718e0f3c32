"""Fill uv's cache with the verifiers chat program's dependencies (an install step, with network).

verifiers' null harness runs its chat program as a PEP 723 script through ``uv sync --script``.
``.ci/run`` calls this once after installing the project, so the end-to-end test can then run
with ``UV_OFFLINE=1``: no network at test time. Run it by hand once on a new machine:

    python tests/env/warm_uv_cache.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def uv() -> str:
    found = shutil.which("uv", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if found is None:
        sys.exit("uv is not installed: pip install -e '.[test]' installs it")
    return found


def sync_chat_program(*, offline: bool) -> subprocess.CompletedProcess:
    """``uv sync --script`` on a copy of the chat program; ``offline`` forbids any download."""
    from verifiers.v1.harnesses.utils.launch import CHAT_PROGRAM_SOURCE

    with tempfile.TemporaryDirectory(prefix="lae-uv-") as tmp:
        script = Path(tmp) / "chat_program.py"
        script.write_text(CHAT_PROGRAM_SOURCE, encoding="utf-8")
        env = dict(os.environ, UV_OFFLINE="1" if offline else "0")
        return subprocess.run([uv(), "sync", "--script", str(script), "-q", "--no-config"], capture_output=True,
                              text=True, env=env, timeout=600)


if __name__ == "__main__":
    proc = sync_chat_program(offline=False)
    sys.stderr.write(proc.stderr)
    sys.exit(proc.returncode)
