"""A gated cue pattern finds exactly what the pattern itself finds: over the sentences, lines and
whole text of real memos, over generated texts built from the cues' own words, and for the
literal reader on the constructs it must refuse or read with care."""

from __future__ import annotations

from pathlib import Path

import regex
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lae.match import literals
from lae.match.literals import Gated, never_spans_line, required_any, required_prefix
from lae.match.normalize import normalize
from lae.match.polarity import _cues, _patterns
from lae.match.segment import segment

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "fidelity"


def _texts() -> list[str]:
    """Segmented (normalized, masked) text of every markdown fixture memo and shared development memo."""
    paths = sorted((ROOT / "tests" / "fixtures" / "memos").glob("*/*/*.md")) + sorted(SHARED.glob("*/*/*.md"))
    out = []
    for path in paths:
        raw = path.read_text(encoding="utf-8")
        out.append(segment(raw, (), normalize(raw)).text)
    return out


def _ranges(text: str) -> list[tuple[int, int]]:
    """The whole text, each line, and each sentence-like stretch (split at ". ")."""
    out = [(0, len(text))]
    start = 0
    for line in text.split("\n"):
        out.append((start, start + len(line)))
        pos = start
        for piece in line.split(". "):
            out.append((pos, pos + len(piece) + 1))
            pos += len(piece) + 2
        start += len(line) + 1
    return out


def _same(gated: Gated, text: str, start: int, end: int) -> int:
    want = [m.span() for m in gated.pattern.finditer(text, start, end)]
    assert [m.span() for m in gated.finditer(text, start, end)] == want, (gated.pattern.pattern[:60], start, end)
    first = gated.pattern.search(text, start, end)
    got = gated.search(text, start, end)
    assert (got and got.span()) == (first and first.span())
    return len(want)


def test_every_cue_is_gated_and_finds_what_its_pattern_finds_in_real_memos():
    cues = _cues()
    assert set(cues) == set(_patterns()) - {"strong_break", "after_break", "clause_break"}
    gated = [k for k, g in cues.items() if g.literals]
    assert len(gated) >= 0.9 * len(cues)  # the gate really runs (a reader that gives up is caught here)
    assert sum(g.by_line for g in cues.values()) >= len(cues) // 2
    texts = _texts()
    assert len(texts) >= 40
    matched = skipped = 0
    for text in texts:
        for start, end in _ranges(text):
            for g in cues.values():
                matched += _same(g, text, start, end)
                skipped += not g.possible(text, start, end)
    assert matched > 5_000 and skipped > 50_000


def test_each_match_holds_a_required_literal():
    for text in _texts()[:20]:
        for k, g in _cues().items():
            for m in g.pattern.finditer(text):
                assert g.literals is None or any(x in m.group(0) for x in g.literals), (k, m.group(0))


_WORDS = sorted({w for g in _cues().values() for x in (g.literals or ()) for w in x.split()} | {
    "the", "a", "risk", "issue", "we", "it", "is", "not", "no", "court", "board", "x"})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_texts_from_the_cue_words(data):
    """Lines of cue literals, their words and pieces of words, joined with spaces, punctuation and
    line breaks: every cue, over the whole text and over random stretches of it."""
    literal = st.sampled_from(sorted({x for g in _cues().values() for x in (g.literals or ())}))
    piece = (literal | literal | st.sampled_from(_WORDS) | st.sampled_from(_WORDS).map(lambda w: w[: len(w) // 2])
             | st.sampled_from([",", ".", ";", ":", " - ", "\u2014", "'", '"', "?", "|", "(", ")", "1", "s", "->", "\u2192",
                               "fine", "of"]))
    line = st.lists(piece, max_size=14).map(lambda ps: " ".join(ps))
    text = "\n".join(data.draw(st.lists(line, min_size=1, max_size=5), label="lines"))
    start = data.draw(st.integers(0, len(text)), label="start")
    end = data.draw(st.integers(start, len(text)), label="end")
    for g in _cues().values():
        _same(g, text, 0, len(text))
        _same(g, text, start, end)


def test_the_reader_refuses_what_it_does_not_know():
    for source in (r"(?i)risk", r"ris(?i:k)", r"\d+", r"a*", r"(?:ab){0,2}", r"(?:ab)+", r"\x{41}bc", r"\101bc",
                   r"(a)\1", r"\L<words>", r"(?(1)a|b)", r"a|", r"[[:alpha:]]x", r"ab{e<=1}", "r\\"):
        assert required_any(source) is None, source
    assert Gated(regex.compile("risk", regex.IGNORECASE)).literals is None


def test_the_reader_spells_out_optional_pieces_and_skips_assertions():
    assert required_any(r"risks?") == {"risk"}
    assert required_any(r"(?<![\p{L}])(?:no|little) (?:real )?risk(?![\p{L}])") == {"no risk", "no real risk",
                                                                                     "little risk", "little real risk"}
    assert required_any(r"take(?:s|n)? the (?:view|position)") == {" the view", " the position"}
    assert required_any(r"a(?!b)c|d\.e") == {"ac", "d.e"}
    assert required_any(r"not (?:\S+ ){0,2}(?:issue|risk)s?") in ({"not "}, {"issue", "risk"})
    assert required_any(r"\bwe\b|us") == {"we", "us"}
    assert required_any(r"(?:ab|abc)d") == {"abd", "abcd"}


def test_hexadecimal_escapes_are_the_characters_they_name():
    """``\\u2192`` (an arrow cue) is read as the arrow, so the dismissal cues, which hold one, are gated."""
    assert required_any(r"\x41bc") == {"Abc"}
    assert required_any(r"(?:->|\u2192) ?fine") == {"->fine", "-> fine", "\u2192fine", "\u2192 fine"}
    assert required_prefix(r"\U0001F600x") == {"\U0001F600x"}
    assert never_spans_line(r"a\u2192b") and not never_spans_line(r"a\u2028b") and not never_spans_line(r"a\x0ab")
    dismissal = _cues()["dismissal"]
    assert dismissal.literals and dismissal._start_slot is not None
    text = "Late notice -> fine.\nThe \u2192 fine print. \u2192fine up to 10.\n=> fine"
    assert [m.group(0) for m in dismissal.finditer(text)] == [m.group(0) for m in dismissal.pattern.finditer(text)]
    assert dismissal.count(text) == len(dismissal.pattern.findall(text)) >= 2


def test_line_safety():
    for unsafe in (r"a\sb", r"a.b", r"a[^b]c", r"ab$", r"^ab", r"a\Wb", r"a\nb", "a\nb", r"a[\x00-z]b", r"(?s)a.b",
                   r"a\Zb", r"[^.;:]{0,80}x"):
        assert not never_spans_line(unsafe), unsafe
    for safe in (r"(?<![\p{L}\p{N}])not (?:\S+ ){0,2}risk(?![\p{L}\p{N}])", r"a\.b", r"we\b", r"[\p{L}-]+ x"):
        assert never_spans_line(safe), safe


_ODD = ["\U0001F600", "é", "ß", "\u00a0", "\t", "  ", "\n\n", "İ"]  # characters outside ASCII shift no offset


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_gates_sharing_one_scan_stay_right_when_texts_interleave(data):
    """The cue gates find their literals in one pass per text and keep the last few texts: searches
    that hop between more texts than are kept (equal texts that are different objects among them),
    with bounds past either end or reversed, find what the pattern itself finds."""
    literal = st.sampled_from(sorted({x for g in _cues().values() for x in (g.literals or ())}))
    piece = literal | st.sampled_from(_WORDS) | st.sampled_from(_ODD) | st.sampled_from([",", ".", ";", "\n"])
    text = st.lists(piece, max_size=30).map(" ".join)
    texts = data.draw(st.lists(text, min_size=1, max_size=8), label="texts")
    texts += ["".join(list(t)) for t in texts[:2]]  # equal content, other objects
    gates = list(_cues().values())
    for _ in range(data.draw(st.integers(1, 25), label="searches")):
        t = data.draw(st.sampled_from(texts))
        start = data.draw(st.integers(0, len(t) + 3))
        end = data.draw(st.integers(0, len(t) + 3))
        g = data.draw(st.sampled_from(gates))
        want = [m.span() for m in g.pattern.finditer(t, start, end)]
        assert [m.span() for m in g.finditer(t, start, end)] == want
        first = g.pattern.search(t, start, end)
        got = g.search(t, start, end)
        assert (got and got.span()) == (first and first.span())
        if want:
            assert g.possible(t, start, min(end, len(t)))


def test_a_gate_made_alone_finds_what_the_shared_ones_find():
    texts = _texts()[:10]
    for name, shared in _cues().items():
        alone = Gated(shared.pattern)
        for text in texts:
            for start, end in _ranges(text)[:200]:
                assert alone.possible(text, start, end) == shared.possible(text, start, end), name
                assert [m.span() for m in alone.finditer(text, start, end)] == \
                    [m.span() for m in shared.finditer(text, start, end)], name


def test_each_match_starts_with_a_required_prefix():
    cues = _cues()
    assert sum(g._prefixes is not None for g in cues.values()) >= 0.75 * len(cues)  # the reader really reads them
    for text in _texts()[:20]:
        for k, g in cues.items():
            for m in g.pattern.finditer(text):
                assert g._prefixes is None or m.group(0).startswith(tuple(g._prefixes)), (k, m.group(0))


def test_the_prefix_reader():
    assert required_prefix(r"risks?") == {"risk"}
    assert required_prefix(r"(?<![\p{L}])(?:no|little) (?:real )?risk(?![\p{L}])") == {
        "no risk", "no real risk", "little risk", "little real risk"}
    assert required_prefix(r"(?:ab)+c") == {"ab"}
    assert required_prefix(r"x{2,3}y") == {"x"}
    assert required_prefix(r"ab|a") == {"a"}  # none starts with another: finding "a" finds both
    assert required_prefix(r"(?:a|b)?c") == {"ac", "bc", "c"}
    assert required_prefix(r"(?:does|do|did) not (?:\S+ )?x") == {"does not ", "do not ", "did not "}
    assert required_prefix(r"\bwe\b|us") == {"we", "us"}
    for source in (r"a*b", r"[ab]c", r"(?i)ab", r"a|", r"\S+ has", r"(?:ab){0,2}c", r"(?=x)", r"\d+", r".a"):
        assert required_prefix(source) is None, source


@pytest.mark.parametrize("call_chars", [0, 10**9])
def test_tried_at_its_starts_or_scanned_a_gate_finds_what_its_pattern_finds(monkeypatch, call_chars):
    """With every place a match can start tried one by one (0), or never (a huge cost per try),
    each gate finds what its pattern finds over real memos, their lines and sentences."""
    monkeypatch.setattr(literals, "MATCH_CALL_CHARS", call_chars)
    for text in _texts()[:12]:
        for start, end in _ranges(text)[:300]:
            for g in _cues().values():
                _same(g, text, start, end)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_texts_tried_at_every_start(monkeypatch, data):
    monkeypatch.setattr(literals, "MATCH_CALL_CHARS", 0)
    prefix = st.sampled_from(sorted({x for g in _cues().values() for x in (g._prefixes or ())}))
    piece = prefix | prefix | st.sampled_from(_WORDS) | st.sampled_from([",", ".", ";", "\n", "'s", "\u2014"])
    text = data.draw(st.lists(piece, max_size=25).map(" ".join), label="text")
    start = data.draw(st.integers(0, len(text)), label="start")
    end = data.draw(st.integers(start, len(text)), label="end")
    for g in _cues().values():
        _same(g, text, 0, len(text))
        _same(g, text, start, end)


@pytest.mark.parametrize("call_chars", [0, 32, 10**9])
def test_count_is_the_number_of_matches(monkeypatch, call_chars):
    """Gated.count (each place a match can start tried in a loop, or the gate's finditer when they
    are too many) against the pattern's own findall, over real memos, their lines and sentences."""
    monkeypatch.setattr(literals, "MATCH_CALL_CHARS", call_chars)
    counted = 0
    for text in _texts()[:12]:
        for start, end in _ranges(text)[:300]:
            piece = text[start:end]
            for g in _cues().values():
                assert g.count(piece) == len(g.pattern.findall(piece))
                counted += g.count(piece)
    assert counted > 1_000
