"""``schemas/verify.schema.json`` is generated from the report model and kept in sync."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

from lae.freeze.verify import VERIFY_SCHEMA_ID, verify_json_schema, verify_schema_text

REPO = Path(__file__).resolve().parents[1]
COMMITTED = REPO / "schemas" / "verify.schema.json"
REGENERATE = "python -m lae.freeze schema schemas/verify.schema.json"


def test_committed_schema_matches_the_model() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == verify_schema_text(), f"stale: run `{REGENERATE}`"


def test_generator_command_prints_the_committed_schema() -> None:
    done = subprocess.run([sys.executable, "-m", "lae.freeze", "schema"], capture_output=True, text=True, check=True)
    assert done.stdout == COMMITTED.read_text(encoding="utf-8")


def test_schema_is_valid_draft_2020_12_with_an_id() -> None:
    schema = verify_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == VERIFY_SCHEMA_ID
    assert json.loads(COMMITTED.read_text())["$id"] == VERIFY_SCHEMA_ID


def test_schema_refuses_an_unknown_problem_kind() -> None:
    report = {"schema_version": 1, "ok": False, "pockets": [{
        "pocket": "demo", "ok": False, "root": None, "stamped_root": None, "observed_root": None,
        "file_count": 0, "environment_module": None, "module_path": None,
        "problems": [{"kind": "looks_fine", "path": "x", "expected": None, "observed": None,
                      "message": "m", "line": None}]}]}
    errors = list(jsonschema.Draft202012Validator(verify_json_schema()).iter_errors(report))
    assert errors and "looks_fine" in str(errors[0].message)
