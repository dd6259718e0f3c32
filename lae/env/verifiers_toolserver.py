"""The per-rollout tool server of the verifiers adapter (``python -m lae.env.verifiers_toolserver``).

verifiers 0.4 (``verifiers.v1``) launches every task-scoped ``Toolset`` as its own
process, ``python -m <the Toolset class's module>``, and hands it the rollout's task
over its state channel; ``setup_task`` then creates the rollout's private workspace.
The four ``@vf.tool`` methods delegate to :class:`lae.env.tools.TaskTools`, so the
agent sees exactly the replies of ``lae run`` and nothing here raises on agent input.

The server is shut down *before* the task is scored, and its workspace with it. So every
file ``save_deliverable`` writes is also carried back in the rollout's shared state
(:class:`LaeState`, base64 of the exact bytes on disk); scoring rebuilds the workspace
from that state in a temporary folder and calls the core grader.

Only the verifiers adapter imports this module; ``import lae`` never does.
"""

# No ``from __future__ import annotations``: the MCP server reads the tool methods'
# signatures (parameter types and defaults) to advertise their JSON schemas.

import base64
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pydantic import Field

try:
    import verifiers.v1 as vf
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the verifiers tool server needs the optional extra: "
                      "pip install 'legal-agent-eval[verifiers]' (verifiers>=0.4,<0.5)") from exc

from lae.env.tools import TOOL_SCHEMAS, DocumentStore, TaskTools, Workspace

__all__ = ["LaeTaskData", "LaeState", "LaeToolset", "MAX_CARRIED_FILES"]

MAX_CARRIED_FILES = 32
"""At most this many distinct files per rollout travel in the state (each is at most
``MAX_DELIVERABLE_BYTES``); a further new filename is refused with an error reply."""

_DESCRIPTIONS = {s["function"]["name"]: s["function"]["description"] for s in TOOL_SCHEMAS}


class LaeTaskData(vf.TaskData):
    """One task's wire data: what the tool server and the scorer need to rebuild it.

    ``id``/``name`` carry the task id (``--select.include.names``), ``prompt`` the user
    prompt and ``system_prompt`` the junior-associate system prompt of ``lae run``."""

    pocket: str | None = None
    """The factory pocket (None in LAB mode)."""
    source: str = "factory"
    """``factory`` (anchored, graded) or ``lab`` (workflow-discipline metrics only)."""
    task_id: str = ""
    """The task id (factory) or the LAB slug ``category/task[/scenario]``."""
    documents: str = ""
    """Absolute path of the task's read-only ``documents/`` folder on the host."""
    deliverables: tuple[str, ...] = ()
    """The declared deliverable filenames."""
    page_chars: int = 6000
    """Page size of ``read_document``."""
    env_args: dict[str, Any] = Field(default_factory=dict)
    """The validated environment arguments (``lae.env.config.EnvArgs``, JSON form), so a
    scorer in another process rebuilds the same core environment."""


class LaeState(vf.State):
    """The rollout's shared state: the saved files travel here, back to the scorer."""

    deliverables: dict[str, str] = Field(default_factory=dict)
    """Saved filename -> base64 of the bytes written to the workspace (a declared
    ``.docx`` is the rendered Word file, exactly as ``lae run`` saves it)."""
    tool_calls: dict[str, int] = Field(default_factory=dict)
    """Calls per tool name."""
    tool_errors: int = 0
    """Tool replies that started with ``Error:``."""


class LaeToolset(vf.Toolset[vf.ToolsetConfig, LaeState]):
    """list_documents, read_document, grep_documents, save_deliverable over one task."""

    TOOL_PREFIX = None  # advertise the bare names the system prompt uses

    def __init__(self, config: vf.ToolsetConfig) -> None:
        super().__init__(config)
        self.tools: TaskTools | None = None
        self.workspace: Path | None = None

    async def setup_task(self, task) -> None:
        """Create this rollout's workspace and bind the tools to the task's documents."""
        self.workspace = Path(tempfile.mkdtemp(prefix="lae-workspace-"))
        self._exit_stack.callback(shutil.rmtree, self.workspace, True)
        self.tools = TaskTools(DocumentStore(Path(task.documents), int(task.page_chars)),
                               Workspace(self.workspace, tuple(task.deliverables)))

    def _run(self, name: str, arguments: dict) -> str:
        if self.tools is None:
            reply = "Error: no task is set up for this tool server."
        else:
            reply = self.tools.call(name, arguments)
        state = self.state
        state.tool_calls[name] = state.tool_calls.get(name, 0) + 1
        if reply.startswith("Error:"):
            state.tool_errors += 1
        return reply

    @vf.tool
    async def list_documents(self) -> str:
        return self._run("list_documents", {})

    @vf.tool
    async def read_document(self, name: str, page: int = 1) -> str:
        return self._run("read_document", {"name": name, "page": page})

    @vf.tool
    async def grep_documents(self, pattern: str, case_sensitive: bool = False, max_results: int = 50,
                             document: str | None = None) -> str:
        arguments: dict[str, Any] = {"pattern": pattern, "case_sensitive": case_sensitive, "max_results": max_results}
        if document is not None:
            arguments["document"] = document
        return self._run("grep_documents", arguments)

    @vf.tool
    async def save_deliverable(self, filename: str, content: str) -> str:
        state = self.state
        if (self.tools is not None and isinstance(filename, str) and filename not in state.deliverables
                and len(state.deliverables) >= MAX_CARRIED_FILES):
            state.tool_calls["save_deliverable"] = state.tool_calls.get("save_deliverable", 0) + 1
            state.tool_errors += 1
            return (f"Error: {MAX_CARRIED_FILES} files are already saved; nothing was saved. "
                    f"Overwrite a declared deliverable instead.")
        reply = self._run("save_deliverable", {"filename": filename, "content": content})
        if self.tools is not None and isinstance(filename, str) and filename in self.tools.workspace.saved:
            path = self.tools.workspace.folder / filename
            try:
                state.deliverables[filename] = base64.b64encode(path.read_bytes()).decode("ascii")
            except OSError:  # pragma: no cover - the file was written a moment ago
                pass
        return reply

    # The MCP description of each tool is its docstring: use the core tool schemas' text.
    list_documents.__doc__ = _DESCRIPTIONS["list_documents"]
    read_document.__doc__ = _DESCRIPTIONS["read_document"] + " name: a document name from list_documents."
    grep_documents.__doc__ = _DESCRIPTIONS["grep_documents"] + " document: limit to one document (optional)."
    save_deliverable.__doc__ = _DESCRIPTIONS["save_deliverable"] + " filename: exactly the declared deliverable filename."


if __name__ == "__main__":
    LaeToolset.run()
