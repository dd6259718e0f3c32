"""The one canonical-bytes function against RFC 8785 vectors written by others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from lae.canonical import canonical_bytes, canonical_sha256, parse_json_strict
from tests.conftest import corpora_dir


def _cyberphone_pairs() -> list[tuple[Path, Path]]:
    base = corpora_dir() / "cyberphone-json-canonicalization" / "testdata"
    pairs = []
    for inp in sorted((base / "input").glob("*.json")):
        out = base / "output" / inp.name
        if out.is_file():
            pairs.append((inp, out))
    return pairs


def test_cyberphone_vectors_canonicalize_byte_exactly():
    pairs = _cyberphone_pairs()
    assert len(pairs) >= 5, "expected the cyberphone input/output vectors"
    for inp, out in pairs:
        value = json.loads(inp.read_bytes())
        assert canonical_bytes(value) == out.read_bytes(), inp.name


def test_cyberphone_outputs_are_fixed_points():
    for _, out in _cyberphone_pairs():
        data = out.read_bytes()
        assert canonical_bytes(parse_json_strict(data)) == data, out.name


def test_json_test_suite_round_trip_cases():
    base = corpora_dir() / "nst-JSONTestSuite"
    files = sorted((base / "test_transform").glob("*.json")) + sorted((base / "test_parsing").glob("y_*.json"))
    assert files
    checked = 0
    for f in files:
        try:
            value = parse_json_strict(f.read_bytes())
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        try:
            once = canonical_bytes(value)
        except ValueError:
            continue  # numbers beyond IEEE doubles have no canonical form: refused, not mangled
        assert canonical_bytes(json.loads(once)) == once, f.name
        checked += 1
    assert checked >= 50


def test_duplicate_keys_and_nan_are_refused():
    with pytest.raises(ValueError, match="duplicate"):
        parse_json_strict('{"a": 1, "a": 2}')
    with pytest.raises(ValueError):
        parse_json_strict('{"a": NaN}')


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    # rfc8785 refuses integral floats outside the safe-integer range, as it does ints
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: abs(x) < 2**52)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=25,
)


@given(json_values)
def test_canonical_round_trip_is_stable(value):
    data = canonical_bytes(value)
    assert canonical_bytes(json.loads(data)) == data
    assert canonical_sha256(value) == canonical_sha256(json.loads(data))


def _hex_vectors(path: Path) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        hex_bits, _, rest = line.partition(",")
        expected = rest.split(",")[0]
        if not all(c in "0123456789abcdefABCDEF" for c in hex_bits) or not expected:
            continue  # header row
        rows.append((hex_bits, expected))
    return rows


def _double(hex_bits: str) -> float:
    import struct

    return struct.unpack(">d", bytes.fromhex(hex_bits.zfill(16)))[0]


@pytest.mark.parametrize("relpath", [
    "lattice-substrate-json-canon/conformance/official/rfc8785/appendix_b.csv",
    "lattice-substrate-json-canon/jcsfloat/testdata/golden_vectors.csv",
])
def test_es6_number_vectors(relpath):
    path = corpora_dir() / relpath
    rows = _hex_vectors(path)
    assert len(rows) >= 20
    failures = []
    for hex_bits, expected in rows:
        value = _double(hex_bits)
        if value != value or value in (float("inf"), float("-inf")):
            continue
        got = canonical_bytes(value).decode()
        if got != expected:
            failures.append((hex_bits, expected, got))
    assert not failures[:5], failures[:5]
