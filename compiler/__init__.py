"""The compiler: private answer keys in, public anchor specs out (``lae.compiler``).

Public names load lazily (PEP 562) so that ``lae.grader`` can import the key models
and the term compiler without pulling in the whole compile stage (which itself
imports the grader's matching core for calibration).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "AnswerKey",
    "PocketConfig",
    "CompileOptions",
    "CompileReport",
    "check_pocket",
    "compile_key",
    "compile_pocket",
    "key_json_schema",
    "load_key",
    "load_pocket_config",
]

_HOME = {
    "AnswerKey": "lae.compiler.keys",
    "PocketConfig": "lae.compiler.keys",
    "key_json_schema": "lae.compiler.keys",
    "CompileOptions": "lae.compiler.compile",
    "CompileReport": "lae.compiler.compile",
    "check_pocket": "lae.compiler.compile",
    "compile_key": "lae.compiler.compile",
    "compile_pocket": "lae.compiler.compile",
    "load_key": "lae.compiler.load",
    "load_pocket_config": "lae.compiler.load",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'lae.compiler' has no attribute {name!r}")
