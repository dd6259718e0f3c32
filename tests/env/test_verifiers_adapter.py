"""The optional verifiers (>=0.4,<0.5) adapter: taskset, tools, state-carried deliverables, scoring.

Skipped when verifiers is not installed (``pip install -e '.[verifiers]'``), except the
check that the core package never imports verifiers.
"""

from __future__ import annotations

import asyncio
import base64
import http.server
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from lae.compiler.compile import compile_pocket
from lae.env.environment import load_environment as load_core
from lae.project import Project
from tests.env.scripted_server import MEMO

REPO = Path(__file__).resolve().parents[2]
DELIVERABLE = "lease-risk-memo.docx"


@pytest.fixture(scope="module")
def vf():
    return pytest.importorskip("verifiers.v1", reason="verifiers>=0.4 is not installed (pip install -e '.[verifiers]')")


@pytest.fixture
def adapter(vf):
    from lae.env import verifiers_adapter

    return verifiers_adapter


@pytest.fixture
def compiled(tree: Path) -> Path:
    compile_pocket(Project.at(tree), "fixture")
    return tree


def run(coro):
    return asyncio.run(coro)


def make_trace(vf, task, state, messages):
    """A hand-built trace: the task, the state the tool server left, a linear conversation."""
    nodes = [vf.MessageNode(parent=i - 1 if i else None, message=m, sampled=m.role == "assistant")
             for i, m in enumerate(messages)]
    return vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
                    agent=vf.AgentInfo(config=vf.AgentConfig()), state=state, nodes=nodes)


def conversation(vf, task, tool_replies):
    """system, user, then one assistant tool call + tool reply per call, then a closing message."""
    messages = [vf.SystemMessage(content=task.data.system_prompt), vf.UserMessage(content=task.data.prompt)]
    for i, (name, args, reply) in enumerate(tool_replies):
        messages.append(vf.AssistantMessage(content=None, tool_calls=[
            vf.ToolCall(id=f"call_{i}", name=name, arguments=json.dumps(args))]))
        messages.append(vf.ToolMessage(tool_call_id=f"call_{i}", name=name, content=reply))
    messages.append(vf.AssistantMessage(content="Saved the memo."))
    return messages


def core_result(tree: Path, tmp: Path, messages, files: dict[str, str]):
    """The core grader's result for the same saved files and the same transcript."""
    env = load_core("fixture", tasks_root=tree, allow_unfrozen=True)
    task = env.tasks[0]
    tools = env.tools(task, tmp / "core-ws")
    for name, content in files.items():
        tools.save_deliverable(name, content)
    transcript = tmp / "core-transcript.jsonl"
    transcript.write_text("".join(json.dumps(m, sort_keys=True) + "\n" for m in messages), encoding="utf-8")
    return env.score(task, tmp / "core-ws", transcript)


def as_jsonl(messages) -> list[dict]:
    out = []
    for m in messages:
        d = {"role": m.role, "content": m.content}
        if getattr(m, "tool_calls", None):
            d["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                               for c in m.tool_calls]
        if m.role == "tool":
            d["tool_call_id"], d["name"] = m.tool_call_id, m.name
        out.append(d)
    return out


# ----------------------------------------------------------------------------------
def test_core_package_never_imports_verifiers():
    code = ("import sys, lae, lae.env, lae.env.environment, lae.env.episode, lae.cli, lae.environments.employment_law\n"
            "bad = sorted(m for m in sys.modules if m == 'verifiers' or m.startswith('verifiers.'))\n"
            "assert not bad, bad\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_taskset_loads_the_pocket_as_verifiers_tasks(vf, adapter, compiled):
    env = adapter.load_environment("fixture", tasks_root=compiled, allow_unfrozen=True, max_turns=7)
    assert isinstance(env, adapter.LaeEnv) and isinstance(env, vf.SingleAgentEnv)
    assert type(env.config) is adapter.LaeEnvConfig
    agent = env.config.agent
    assert (agent.harness.id, agent.runtime.type, agent.max_turns) == ("null", "subprocess", 7)
    tasks = list(env.taskset)
    assert [t.data.task_id for t in tasks] == ["harbor-lease-001"]
    data = tasks[0].data
    assert data.name == "harbor-lease-001" and data.deliverables == (DELIVERABLE,)
    assert DELIVERABLE in data.prompt and "save_deliverable" in data.system_prompt
    assert tasks[0].key == "fixture:harbor-lease-001"
    assert [type(t).__name__ for t in type(tasks[0]).toolsets(tasks[0].config)] == ["LaeToolset"]
    # the same taskset through verifiers' own loader, by taskset id (module alias)
    config = adapter.LaeTasksetConfig(id="legal-agent-eval", pocket="fixture", tasks_root=compiled, allow_unfrozen=True)
    assert [t.data.task_id for t in vf.load_taskset(config)] == ["harbor-lease-001"]
    assert "employment-law-legal-agent-eval" in adapter.plugin_ids()
    assert adapter._pocket_from_id("owner/employment-law-legal-agent-eval@0.1.0") == "employment-law"


def test_seed_arguments_are_validated(adapter, compiled):
    from lae.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="invalid environment arguments"):
        adapter.load_environment("fixture", tasks_root=compiled, bogus=1)
    with pytest.raises(InvalidInputError):
        adapter.load_environment("fixture", tasks_root=compiled, allow_unfrozen=True, page_chars=10)
    with pytest.raises(ValueError, match="pocket"):
        adapter.load_environment(None, tasks_root=compiled)


def test_tools_scoring_equals_the_core_grader(vf, adapter, compiled, tmp_path):
    env = adapter.load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    task = list(env.taskset)[0]
    tools = adapter.LaeToolset(vf.ToolsetConfig())
    run(tools.setup_task(task.data))
    listing = run(tools.list_documents())
    assert "01-lease-extract.txt" in listing
    page = run(tools.read_document("01-lease-extract.txt"))
    assert "HARBOR STREET LEASE" in page
    assert run(tools.read_document("../keys_private")).startswith("Error:")
    grep = run(tools.grep_documents("renewal"))
    saved = run(tools.save_deliverable(DELIVERABLE, MEMO))
    assert "declared deliverable" in saved
    state = tools.state
    assert state.tool_calls == {"list_documents": 1, "read_document": 2, "grep_documents": 1, "save_deliverable": 1}
    assert state.tool_errors == 1
    carried = base64.b64decode(state.deliverables[DELIVERABLE])
    assert carried[:2] == b"PK"  # the rendered Word file travels, byte for byte
    # the tool server shuts down before scoring: its workspace is gone, the state is not
    workspace = tools.workspace
    run(tools._exit_stack.aclose())
    assert not workspace.exists()

    calls = [("list_documents", {}, listing), ("read_document", {"name": "01-lease-extract.txt"}, page),
             ("grep_documents", {"pattern": "renewal"}, grep),
             ("save_deliverable", {"filename": DELIVERABLE, "content": MEMO}, saved)]
    messages = conversation(vf, task, calls)
    trace = make_trace(vf, task, adapter.LaeState.model_validate(state.model_dump()), messages)
    run(task.score(trace))

    expected = core_result(compiled, tmp_path, as_jsonl(messages), {DELIVERABLE: MEMO})
    assert expected.metrics.finding_recall == 1.0 and expected.metrics.deliverable_complete == 1.0
    assert trace.rewards["reward"].score == expected.metrics.reward and trace.rewards["reward"].weight == 1.0
    assert trace.reward == expected.metrics.reward
    m = expected.metrics
    assert trace.metrics == {"finding_recall": m.finding_recall, "deliverable_complete": m.deliverable_complete,
                             "false_flag_rate": m.false_flag_rate, "must_not_say": m.must_not_say,
                             "transcript_recall": m.transcript_recall,
                             "criterion_pass_rate_proxy": m.criterion_pass_rate_proxy,
                             "reportable": 0.0, "scoring_error": 0.0}
    assert trace.info["lae"]["result"] == expected.model_dump(mode="json")  # evidence and all
    assert trace.info["lae"]["deliverables"] == state.deliverables

    # the state is not serialized with the trace; a re-score from disk (vf-replay) uses the copy in info
    saved = vf.Trace[adapter.LaeTaskData, adapter.LaeState, vf.AgentConfig].model_validate_json(trace.model_dump_json())
    assert not getattr(saved.state, "deliverables", None)
    saved.rewards, saved.metrics = {}, {}
    run(task.score(saved))
    assert saved.reward == expected.metrics.reward and saved.metrics == trace.metrics


def test_content_only_in_chat_scores_like_the_core(vf, adapter, compiled, tmp_path):
    env = adapter.load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    task = list(env.taskset)[0]
    messages = [vf.SystemMessage(content=task.data.system_prompt), vf.UserMessage(content=task.data.prompt),
                vf.AssistantMessage(content=MEMO)]
    trace = make_trace(vf, task, adapter.LaeState(), messages)
    run(task.score(trace))
    expected = core_result(compiled, tmp_path, as_jsonl(messages), {})
    assert trace.reward == expected.metrics.reward
    assert trace.metrics["deliverable_complete"] == 0.0 and trace.metrics["transcript_recall"] == 1.0


def test_scoring_never_raises(vf, adapter, compiled):
    env = adapter.load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    task = list(env.taskset)[0]
    for state in (adapter.LaeState(deliverables={DELIVERABLE: "not base64 !!"}),
                  adapter.LaeState(deliverables={"../escape.docx": ""})):
        trace = make_trace(vf, task, state, [vf.UserMessage(content="x")])
        run(task.score(trace))
        assert trace.reward == 0.0 and trace.metrics == {"scoring_error": 1.0}
        assert trace.info["lae"]["error"]
    broken = task.with_data(task_id="no-such-task")
    trace = make_trace(vf, broken, adapter.LaeState(), [])
    run(broken.score(trace))
    assert trace.metrics == {"scoring_error": 1.0} and "no-such-task" in trace.info["lae"]["error"]


def test_lab_mode_metrics_are_prefixed(vf, adapter, tmp_path):
    from tests.env.test_lab import make_task

    root = tmp_path / "lab"
    make_task(root / "contracts" / "nda-review")
    env = adapter.load_environment(source="lab", tasks_root=root)
    task = list(env.taskset)[0]
    assert task.data.source == "lab" and task.data.task_id == "contracts/nda-review" and task.key == "lab:contracts/nda-review"
    tools = adapter.LaeToolset(vf.ToolsetConfig())
    run(tools.setup_task(task.data))
    run(tools.save_deliverable("memo.docx", "A substantive memo paragraph. " * 20))
    trace = make_trace(vf, task, tools.state, [])
    run(task.score(trace))
    assert all(k.startswith("lab_") for k in trace.metrics) and all(k.startswith("lab_") for k in trace.rewards)
    assert trace.metrics["lab_deliverable_complete"] == 1.0 and trace.metrics["lab_scoring_error"] == 0.0
    assert trace.reward == 1.0


class _Channel(http.server.BaseHTTPRequestHandler):
    """The rollout's state channel as the verifiers interception server serves it."""

    def log_message(self, *args):
        pass

    def _authorized(self) -> bool:
        if self.headers.get("Authorization") != f"Bearer {self.server.secret}":
            self.send_response(401)
            self.end_headers()
            return False
        return True

    def _reply(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if not self._authorized():
            return
        if self.path == "/task":
            data = self.server.task_data
            cls = f"{type(data).__module__}:{type(data).__qualname__}"
            self._reply(json.dumps({"cls": cls, "task": data.model_dump_json()}).encode())
        else:
            self._reply(self.server.state)

    def do_PUT(self):
        if not self._authorized():
            return
        self.server.state = self.rfile.read(int(self.headers["Content-Length"]))
        self._reply(b'{"ok": true}')


def test_tool_server_runs_as_a_module_and_carries_deliverables_in_state(vf, adapter, compiled, tmp_path):
    """`python -m lae.env.verifiers_toolserver` over MCP, with a loopback state channel."""
    from verifiers.v1.harnesses.utils.mcp import mcp_client

    env = adapter.load_environment("fixture", tasks_root=compiled, allow_unfrozen=True)
    task = list(env.taskset)[0]
    channel = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Channel)
    channel.secret, channel.task_data, channel.state = "s3cret", task.data, adapter.LaeState().model_dump_json().encode()
    threading.Thread(target=channel.serve_forever, daemon=True).start()
    port_file = tmp_path / "port"
    server_env = {**os.environ, "VF_CONFIG": vf.ToolsetConfig().model_dump_json(),
                  "VF_STATE_URL": f"http://127.0.0.1:{channel.server_address[1]}/state",
                  "VF_STATE_SECRET": "s3cret", "MCP_PORT_FILE": str(port_file), "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "lae.env.verifiers_toolserver"], cwd=REPO, env=server_env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while not (port_file.exists() and port_file.read_text().strip().isdigit()):
            assert proc.poll() is None, proc.stdout.read().decode(errors="replace")
            assert time.monotonic() < deadline, "tool server did not report its port"
            time.sleep(0.2)
        url = f"http://127.0.0.1:{port_file.read_text().strip()}/mcp"

        async def session():
            async with mcp_client({"url": url, "timeout": 60, "connect_timeout": 60}) as client:
                tools = (await client.list_tools()).tools
                listing = await client.call_tool("list_documents", {})
                saved = await client.call_tool("save_deliverable", {"filename": DELIVERABLE, "content": MEMO})
                return tools, listing.content[0].text, saved.content[0].text

        for _ in range(60):  # the port is reported before setup finishes
            try:
                tools, listing, saved = run(session())
                break
            except Exception:  # noqa: BLE001
                assert proc.poll() is None, proc.stdout.read().decode(errors="replace")
                time.sleep(1)
        else:
            pytest.fail("could not reach the tool server")
        assert sorted(t.name for t in tools) == ["grep_documents", "list_documents", "read_document", "save_deliverable"]
        schema = next(t for t in tools if t.name == "read_document").input_schema
        assert schema["required"] == ["name"] and "page" in schema["properties"]
        assert "01-lease-extract.txt" in listing and "declared deliverable" in saved
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        channel.shutdown()
        channel.server_close()
    state = adapter.LaeState.model_validate_json(channel.state)
    assert state.tool_calls == {"list_documents": 1, "save_deliverable": 1}
    assert set(state.deliverables) == {DELIVERABLE}
    # the server (and its workspace) is gone; scoring works from the pushed state alone
    trace = make_trace(vf, task, state, [vf.UserMessage(content=task.data.prompt)])
    run(task.score(trace))
    assert trace.metrics["finding_recall"] == 1.0 and trace.metrics["deliverable_complete"] == 1.0
    assert trace.metrics["scoring_error"] == 0.0
