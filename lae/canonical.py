"""Canonical bytes: the one place JSON becomes bytes that are hashed or compared.

RFC 8785 (JSON Canonicalization Scheme) via the ``rfc8785`` package: sorted keys,
minimal escapes, ES6 number forms, UTF-8, no insignificant whitespace. Hash the
bytes on disk, never a re-serialization of parsed data.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import rfc8785

__all__ = ["canonical_bytes", "canonical_sha256", "sha256_hex", "parse_json_strict"]


def canonical_bytes(value: Any) -> bytes:
    """Return the RFC 8785 canonical UTF-8 bytes of a JSON-compatible value.

    Raises ``ValueError`` for values JSON cannot hold exactly (NaN, infinities,
    integers beyond IEEE-754 double precision, non-string keys).
    """
    try:
        return rfc8785.dumps(value)
    except rfc8785.CanonicalizationError as exc:  # pragma: no cover - message passthrough
        raise ValueError(f"value has no canonical JSON form: {exc}") from exc


def sha256_hex(data: bytes) -> str:
    """Lower-case hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def canonical_sha256(value: Any) -> str:
    """SHA-256 of the canonical bytes of ``value``."""
    return sha256_hex(canonical_bytes(value))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name!r}")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, val in pairs:
        if key in out:
            raise ValueError(f"duplicate object key {key!r}")
        out[key] = val
    return out


def parse_json_strict(data: bytes | str) -> Any:
    """Parse JSON refusing duplicate keys and NaN/Infinity (so canonical form is unique)."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    try:
        return json.loads(data, object_pairs_hook=_refuse_duplicates, parse_constant=_refuse_constant)
    except RecursionError:  # a ValueError like every other parse failure, so readers report it as one line
        raise ValueError("JSON nested too deep to parse") from None
