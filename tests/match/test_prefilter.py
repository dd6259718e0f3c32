"""The token prefilter finds exactly what a whole-text scan finds: over real memos and every
compiled pattern of the bundled matters, and over generated texts built around key terms."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lae.grader.anchors import load_anchors
from lae.match import engine
from lae.match.normalize import TOKEN_RE, normalize
from lae.match.phrases import split_phrase
from lae.match.prefilter import TaskLiterals, LineIndex
from lae.match.segment import segment
from lae.match.spec import MatchSpec
from lae.match.terms import compiled_pattern, required_literals, term_regex
from tests.match.test_phrases_terms import VARIANTS, _key_terms

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "fidelity"


def _pairs(spec: MatchSpec) -> list[tuple[str, str]]:
    """Every (pattern, term) the engine scans for, as it pairs them."""
    phrases = [p for f in spec.findings for p in (*f.subject, *f.problem, *f.citations, *f.dismissals)]
    phrases += [p for d in spec.distractors for p in (*d.subject, *d.problem)]
    phrases += [p for c in spec.claims for p in c.phrasings]
    out = [pair for p in phrases for pair in zip(p.parts, split_phrase(p.phrase))]
    out += [(t.pattern, t.term) for f in spec.findings for t in (*f.severity_terms, *f.remediation, *f.record)]
    return sorted(set(out))


def _whole(pattern: str, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in compiled_pattern(pattern).finditer(text)]


def _fast(index: LineIndex, pattern: str, term: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    index.spans(pattern, term, 5.0, out)
    return out


def _memos() -> dict[tuple[str, str], list[Path]]:
    """Markdown memos by (pocket, task): the fixture memos and the shared development set."""
    out: dict[tuple[str, str], list[Path]] = {}
    for base in (ROOT / "tests" / "fixtures" / "memos", SHARED):
        for path in sorted(base.glob("*/*/*.md")):
            out.setdefault((path.parent.parent.name, path.parent.name), []).append(path)
    return out


def test_prefilter_finds_what_a_whole_text_scan_finds_in_real_memos():
    """Each memo against its own matter's patterns and a neighbour's: the same spans, and the
    prefilter really skipped lines for most patterns (so the comparison tests the fast path)."""
    memos = _memos()
    tasks = sorted(memos)
    assert len(tasks) >= 10
    compared = narrowed = matched = 0
    for i, (pocket, task) in enumerate(tasks):
        neighbour = tasks[(i + 1) % len(tasks)]
        pairs = _pairs(load_anchors(ROOT / "anchors" / pocket / f"{task}.anchors.json").match_spec())
        pairs += _pairs(load_anchors(ROOT / "anchors" / neighbour[0] / f"{neighbour[1]}.anchors.json").match_spec())
        for path in memos[(pocket, task)]:
            text = normalize(path.read_text(encoding="utf-8")).text
            index = LineIndex(text)
            for pattern, term in pairs:
                want = _whole(pattern, text)
                assert _fast(index, pattern, term) == want, (path.name, term)
                compared += 1
                matched += len(want)
                narrowed += index.candidate_lines(pattern, term) is not None
    assert compared > 10_000 and matched > 1_000
    assert narrowed > 0.8 * compared


def test_task_literals_find_the_lines_the_token_index_finds_in_real_memos():
    """One Aho-Corasick pass for a task's prefilter literals (TaskLiterals) against the token index:
    the same lines for every literal, present or absent, and the same spans as a whole-text scan,
    for the memo's own matter and a neighbour's (whose literals mostly do not occur)."""
    memos = _memos()
    tasks = sorted(memos)
    compared = present = absent = 0
    for i, (pocket, task) in enumerate(tasks):
        neighbour = tasks[(i + 1) % len(tasks)]
        pairs = _pairs(load_anchors(ROOT / "anchors" / pocket / f"{task}.anchors.json").match_spec())
        pairs += _pairs(load_anchors(ROOT / "anchors" / neighbour[0] / f"{neighbour[1]}.anchors.json").match_spec())
        lead = TaskLiterals(pairs)
        assert len(lead.literals) > 50
        for path in memos[(pocket, task)][:3]:
            text = normalize(path.read_text(encoding="utf-8")).text
            fast, plain = LineIndex(text, lead), LineIndex(text)
            for literal in sorted(lead.literals):
                lines = fast.lines_with(literal)
                assert lines == plain.lines_with(literal), (path.name, literal)
                present += bool(lines)
                absent += not lines
            for pattern, term in pairs:
                assert _fast(fast, pattern, term) == _whole(pattern, text), (path.name, term)
                compared += 1
    assert compared > 5_000 and present > 1_000 and absent > 1_000


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_task_literals_on_generated_texts(data):
    """Texts of key-term words, their pieces, odd characters and line breaks: the task literals'
    lines are the token index's, and the spans a whole-text scan's."""
    pairs = _GENERATED_PAIRS
    words = sorted({w for _p, t in pairs for w in TOKEN_RE.findall(normalize(t).text)})
    piece = (st.sampled_from(words) | st.sampled_from(words).map(lambda w: w[1:]) | st.sampled_from(words).map(str.upper)
             | st.sampled_from(["-", ",", ".", "'s", "\u00e9", "\u00df", "\n", "\n\n", "$", "%", "§", "1", "2025"]))
    text = normalize(" ".join(data.draw(st.lists(piece, max_size=40), label="pieces"))).text
    fast, plain = LineIndex(text, _GENERATED_LEAD), LineIndex(text)
    for literal in _GENERATED_LEAD.literals:
        assert fast.lines_with(literal) == plain.lines_with(literal), literal
    for pattern, term in pairs[::7]:
        assert _fast(fast, pattern, term) == _whole(pattern, text), term


_GENERATED_PAIRS = _pairs(load_anchors(ROOT / "anchors/employment-law/atlas-noncompete-001.anchors.json").match_spec())
_GENERATED_LEAD = TaskLiterals(_GENERATED_PAIRS)


def test_a_pattern_not_generated_from_its_term_scans_the_whole_text():
    text = normalize("The non-compete clause.\nNothing here.\nNor here.\nOr here.\nOr there.").text
    index = LineIndex(text)
    stale = term_regex("non-compete clause")
    assert index.candidate_lines(stale, "covenant") is None
    assert _fast(index, stale, "covenant") == _whole(stale, text) != []
    assert index.candidate_lines(term_regex("noncompete"), "noncompete") == {0}  # the first line only


def _check(term: str, text: str) -> int:
    """Every match of ``term``'s pattern holds each literal in a token; the prefilter's spans are the
    whole-text scan's. Returns the number of matches."""
    pattern = term_regex(term)
    literals = required_literals(term)
    spans = _whole(pattern, text)
    for s, e in spans:
        tokens = TOKEN_RE.findall(text[s:e])
        assert all(any(lit in tok for tok in tokens) for lit in literals), (term, literals, text[s:e])
    assert _fast(LineIndex(text), pattern, term) == spans, term
    return len(spans)


def test_every_inflection_of_every_key_term():
    """One line per form: the term with one word inflected every way the compiler tolerates
    (last letters dropped, kept or doubled before each suffix; joined by a space or a hyphen),
    the term's own variants, and filler lines the prefilter must skip."""
    matched = 0
    for term in _KEY_TERMS + ATOMS:
        words = TOKEN_RE.findall(normalize(term).text)
        lines = [v.format(t=term, T=term.upper()) for v in VARIANTS] + ["nothing to see"] * 8
        for i, word in enumerate(words):
            for form in _inflections([word]):
                for sep in (" ", "-"):
                    lines.append(sep.join(words[:i] + [form] + words[i + 1:]))
        lines.append(ATOM_FORMS)
        matched += _check(term, normalize("\n".join(lines)).text)
    assert matched > 20_000


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_texts_around_key_terms(data):
    """Lines mixing inflected, hyphenated, cased and split forms of a term with its own words,
    digits and punctuation."""
    term = data.draw(st.sampled_from(_KEY_TERMS) | st.sampled_from(ATOMS), label="term")
    split = TOKEN_RE.findall(normalize(term).text)
    words = _inflections(split) + ["the", "not", "a", "s", "ed", "non", "re"]
    inflected = st.tuples(*[st.sampled_from(_inflections([w])) for w in split],
                          st.sampled_from([" ", "-", ""])).map(lambda ws: ws[-1].join(ws[:-1]))
    piece = (inflected | inflected
             | st.sampled_from(VARIANTS).map(lambda v: v.format(t=term, T=term.upper()))
             | st.sampled_from(words)
             | st.sampled_from([",", ".", "-", " - ", "(", ")", "'", "$", "%", "§", "/", ":", "  ", "\u2019s"])
             | st.integers(0, 99_999).map(str))
    line = st.lists(piece, max_size=12).map(" ".join)
    _check(term, normalize("\n".join(data.draw(st.lists(line, min_size=1, max_size=6), label="lines"))).text)


SUFFIXES = ("", "s", "es", "ed", "ing", "er", "ers", "ies", "ied", "ying", "'s", "s'")


def _inflections(words: list[str]) -> list[str]:
    """Each word, and each word with its last letters dropped, kept or doubled, before every suffix."""
    stems = {x for w in words for x in (w, w[:-1], w[:-2], w[:-3], w + w[-1:])}
    return sorted(stem + suffix for stem in stems if stem for suffix in SUFFIXES)


ATOMS = ["$58,000", "$58K", "$1.2 million", "USD 7,500", "62,600 dollars", "$123,394.17", "$0.5", "20%",
         "12.5 percent", "Section 4.2(b)", "§ 16600.5", "Sec. 24L", "March 3, 2025", "3 March 2025",
         "2025-03-03", "9/15/2024", "September 2025", "16,600", "2802 fees", "non-compete covenant",
         "stay-or-pay", "employee's consent", "over-the-counter", "denied", "placed", "parties", "days"]
_KEY_TERMS = _key_terms()
ATOM_FORMS = ("$58,000 $58k $58 k 58,000 dollars 58000 usd $58 thousand $1,200,000 $1.2m $1.2 mm 1.2 million dollars "
              "usd 7,500 $7.5k $62,600.00 $123,394.17 $.5 $0.50 20 percent 20% 20 per cent 12.50% "
              "section 4.2(b) sec. 4.2 (b) §4.2(b) §§ 16600.5 s. 16600.5 s.4.2(b) ss.16600.5 section 24l 24l(b) "
              "march 3, 2025 3rd of march 2025 mar. 03, 2025 2025-03-03 3/3/25 03/03/2025 "
              "sept. 15th, 2024 9/15/2024 september, 2025 sep 2025 16,600 16600 2,802 fees")


def test_a_phrase_skipped_before_scanning_has_no_hits(monkeypatch):
    """_Scan.phrase skips a phrase whose parts' candidate lines touch no common unit: over real
    memos and every phrase of their matter and a neighbour's, the hits are those found with every
    part scanned, and the skip really happens."""
    memos = _memos()
    tasks = sorted(memos)
    skipped = compared = 0
    for i, (pocket, task) in enumerate(tasks):
        neighbour = tasks[(i + 1) % len(tasks)]
        specs = [load_anchors(ROOT / "anchors" / pk / f"{tk}.anchors.json").match_spec() for pk, tk in ((pocket, task), neighbour)]
        phrases = [p for spec in specs for p in engine._spec_phrases(spec)]
        lead = TaskLiterals(pair for spec in specs for pair in engine._spec_sources(spec))
        for path in memos[(pocket, task)][:2]:
            raw = path.read_text(encoding="utf-8")
            seg = segment(raw, (), normalize(raw))
            fast = engine._Scan(seg, 5.0, lead)
            with monkeypatch.context() as m:
                m.setattr(engine._Scan, "_could_meet", lambda self, parts, terms: True)
                plain = engine._Scan(seg, 5.0, lead)
                want = [plain.phrase(p) for p in phrases]
            for p, w in zip(phrases, want):
                skipped += len(p.parts) > 1 and not fast._could_meet(p.parts, _phrase_terms(p))
                assert fast.phrase(p) == w, (path.name, p.phrase)
                compared += 1
    assert compared > 5_000 and skipped > 500


def _phrase_terms(p):
    return engine._phrase_terms(p.phrase, len(p.parts))[0]
