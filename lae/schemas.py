"""JSON Schemas generated from the models; ``schemas/`` holds their committed copies.

A test regenerates every schema and compares it with the committed file, so a model
change without a schema refresh fails CI. Refresh with ``lae schemas``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

__all__ = ["SCHEMA_BUILDERS", "render_schema", "write_schemas"]


def _key() -> dict:
    from lae.compiler.keys import key_json_schema

    return key_json_schema()


def _anchors() -> dict:
    from lae.grader.anchors import anchors_json_schema

    return anchors_json_schema()


def _result() -> dict:
    from lae.grader.results import result_json_schema

    return result_json_schema()


def _verify() -> dict:
    from lae.freeze import verify_json_schema

    return verify_json_schema()


def _report() -> dict:
    from lae.report.models import report_json_schema

    return report_json_schema()


def _labels() -> dict:
    from lae.compiler.labels import labels_json_schema

    return labels_json_schema()


def _fidelity() -> dict:
    from lae.fidelity.models import fidelity_json_schema

    return fidelity_json_schema()


def _run() -> dict:
    from lae.runs import run_json_schema

    return run_json_schema()


def _rollout() -> dict:
    from lae.runs import rollout_json_schema

    return rollout_json_schema()


SCHEMA_BUILDERS: dict[str, Callable[[], dict]] = {
    "key.schema.json": _key,
    "anchors.schema.json": _anchors,
    "result.schema.json": _result,
    "verify.schema.json": _verify,
    "report.schema.json": _report,
    "labels.schema.json": _labels,
    "fidelity.schema.json": _fidelity,
    "run.schema.json": _run,
    "rollout.schema.json": _rollout,
}


def render_schema(name: str) -> bytes:
    """The committed form of one schema: sorted keys, two-space indent, trailing newline."""
    return (json.dumps(SCHEMA_BUILDERS[name](), indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def write_schemas(folder: Path, *, check: bool = False) -> list[str]:
    """Write (or with ``check``, compare) every schema; return the names that differ."""
    from lae.fsio import atomic_write

    stale = []
    for name in sorted(SCHEMA_BUILDERS):
        data = render_schema(name)
        path = folder / name
        if not path.is_file() or path.read_bytes() != data:
            stale.append(name)
            if not check:
                atomic_write(path, data)
    return stale
