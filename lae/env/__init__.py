"""The agent environment (``lae.env``): tools, episodes, a model harness, LAB mode.

Framework-free: plain typed functions over one task's read-only documents and one
rollout's workspace. The optional ``verifiers`` adapter lives in
``lae.env.verifiers_adapter`` and is the only module that imports verifiers.
"""

from lae.env.config import EnvArgs
from lae.env.tools import DocumentStore, TaskTools, Workspace, TOOL_SCHEMAS

__all__ = ["EnvArgs", "DocumentStore", "TaskTools", "Workspace", "TOOL_SCHEMAS"]
