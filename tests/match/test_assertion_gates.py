"""The assertion layer counts each cue family through its gate (lae.match.literals.Gated): the
counts must be exactly those of the family's own ``findall``, over real memos (whole, each block,
each discussion-like join of blocks, each line) and over generated texts built from the families'
own start strings; and the prefix reader that makes the big families gateable reads them right."""

from __future__ import annotations

from pathlib import Path

import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lae.match import assertion, literals
from lae.match.literals import Gated, required_any, required_prefix
from lae.match.normalize import normalize
from lae.match.segment import segment

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "fidelity"


def _segmented() -> list:
    paths = sorted((ROOT / "tests" / "fixtures" / "memos").glob("*/*/*.md")) + sorted(SHARED.glob("*/*/*.md"))
    out = []
    for path in paths:
        raw = path.read_text(encoding="utf-8")
        out.append(segment(raw, (), normalize(raw)))
    return out


def _pieces(seg) -> list[str]:
    """The whole text, each block, each pair of neighbouring blocks joined as a discussion is, each line."""
    text = seg.text
    blocks = [text[b.start:b.end] for b in seg.blocks]
    return [text, *blocks, *("\n".join(pair) for pair in zip(blocks, blocks[1:])), *text.split("\n")]


def _same_count(kind: str, text: str) -> int:
    want = len(assertion._patterns()[kind].findall(text))
    assert assertion._found(kind, text) == want, (kind, text[:80])
    return want


def test_the_big_families_are_gated_by_their_start_strings():
    """The families that cost most over a whole memo (long phrase lists) get start strings; a
    reader that gives up on them again (and so searches every memo in full) is caught here."""
    gates = assertion._gates()
    for kind in ("hedge", "evaluative", "stance", "disclaim", "general", "report", "recital", "teaching", "routine"):
        assert gates[kind]._start_slot is not None, kind
    assert sum(g._prefixes is not None for g in gates.values()) >= 0.75 * len(gates)


def test_every_family_counts_what_its_findall_counts_in_real_memos():
    segs = _segmented()
    assert len(segs) >= 40
    found = 0
    for seg in segs:
        for text in _pieces(seg):
            for kind in assertion._patterns():
                found += _same_count(kind, text)
    assert found > 5_000


def test_memo_features_through_gates_equal_findall_counts():
    for seg in _segmented()[:25]:
        got = dict(assertion._memo_features.__wrapped__(seg.text))
        sentences = assertion.sentence_count(seg.text)
        evaluative = len(assertion._patterns()["evaluative"].findall(seg.text))
        assert got["m_evaluative"] == min(1.0, evaluative / sentences / 2.0)
        hedge = len(assertion._patterns()["hedge"].findall(seg.text))
        assert got["m_hedge"] == min(1.0, hedge / sentences)


_STARTS = sorted({x for g in assertion._gates().values() for x in (g._prefixes or ())})
_WORDS = ["the", "a", "we", "it", "is", "not", "no", "risk", "x", "should", "must", "company", "board", "1", "§"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_texts_count_the_same(data):
    start = st.sampled_from(_STARTS)
    piece = (start | start | st.sampled_from(_WORDS) | start.map(lambda w: w[: max(1, len(w) // 2)])
             | st.sampled_from([",", ".", ";", ":", "?", "\n", "- ", "* ", "'s", "\u2014", "(", ")"]))
    text = data.draw(st.lists(piece, max_size=30).map(" ".join), label="text")
    for kind in assertion._patterns():
        _same_count(kind, text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_texts_tried_at_every_start(monkeypatch, data):
    monkeypatch.setattr(literals, "MATCH_CALL_CHARS", 0)  # every candidate start tried one by one
    start = st.sampled_from(_STARTS)
    piece = start | start | st.sampled_from(_WORDS) | st.sampled_from([",", ".", ";", "\n", "'s"])
    text = data.draw(st.lists(piece, max_size=25).map(" ".join), label="text")
    for kind in assertion._patterns():
        _same_count(kind, text)


def test_an_overfull_prefix_set_is_cut_short_not_dropped():
    """More than MAX_PREFIXES start strings: each is cut to the longest length that leaves that
    few, so the pattern is still tried only where a match can start."""
    words = [f"{a}{b}{c}word" for a in "abcdefghij" for b in "abcdefghij" for c in "abcdefghijk"]  # 1,100
    source = "(?:" + "|".join(words) + ")s?"
    got = required_prefix(source)
    assert got is not None and len(got) <= literals.MAX_PREFIXES
    assert all(any(w.startswith(p) for p in got) for w in words)
    assert {len(x) for x in got} == {2}  # 1,100 distinct three-letter heads, 100 two-letter ones: cut no shorter
    gate = Gated(regex.compile(source))
    text = " ".join(words[::7]) + " zzzword " + words[-1] + "s"
    assert [m.span() for m in gate.finditer(text)] == [m.span() for m in gate.pattern.finditer(text)]


def test_line_break_and_tab_escapes_are_read_as_their_characters():
    assert required_prefix(r"(?:^|(?<=\n)|(?<=\n[-*] ))(?:check|review)") == {"check", "review"}
    assert required_any(r"a\nb") == {"a\nb"}
    assert required_any(r"x\ty") == {"x\ty"}
    assert not literals.never_spans_line(r"a\nb")


_SHORT = st.text(alphabet="abc ", min_size=0, max_size=4)


@settings(max_examples=300, deadline=None)
@given(strings=st.frozensets(_SHORT, max_size=30))
def test_prefix_free_drops_exactly_the_strings_that_start_with_another(strings):
    want = frozenset(x for x in strings if not any(y != x and x.startswith(y) for y in strings))
    assert literals._prefix_free(strings) == want


def _chain_need_by_definition(chain):
    best = None
    for a in range(len(chain)):
        for b in range(a + 1, len(chain) + 1):
            got = literals._product(chain[a:b])
            if got is None:
                break
            if "" not in got:
                best = literals._better(best, literals._minimal(got))
    return best


@settings(max_examples=300, deadline=None)
@given(chain=st.lists(st.frozensets(_SHORT, min_size=1, max_size=5), max_size=8))
def test_chain_need_built_step_by_step_is_the_best_stretch(chain):
    """The most selective stretch of a run of spelt-out pieces, each stretch's strings built from
    the one before, is the one found by spelling out every stretch afresh."""
    assert literals._chain_need(chain) == _chain_need_by_definition(chain)
