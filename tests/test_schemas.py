"""Committed schemas are exactly what the models generate (a stale schema fails)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lae.schemas import SCHEMA_BUILDERS, render_schema

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


@pytest.mark.parametrize("name", sorted(SCHEMA_BUILDERS))
def test_schema_in_sync(name):
    path = SCHEMAS / name
    assert path.is_file(), f"{path} missing: run `lae schemas`"
    assert path.read_bytes() == render_schema(name), f"{name} is stale: run `lae schemas`"


def test_key_schema_has_editor_ids():
    schema = json.loads((SCHEMAS / "key.schema.json").read_text())
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert schema["$id"].endswith("key.schema.json")
    assert schema["additionalProperties"] is False
