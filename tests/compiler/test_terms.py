"""The term compiler: tolerated variants (tables and properties)."""

from __future__ import annotations

import pytest
import regex
from hypothesis import assume, given, settings, strategies as st

from lae.match.terms import term_regex
from lae.match.normalize import normalize


def matches(term: str, text: str) -> bool:
    return bool(regex.search(term_regex(term), normalize(text).text))


@pytest.mark.parametrize("term,text", [
    ("non-compete", "The Noncompete clause"),
    ("noncompete", "its non-compete covenant"),
    ("noncompete", "a non compete covenant"),
    ("stay-or-pay", "stay or pay provisions"),
    ("$58,000", "employees earning $58K"),
    ("$58,000", "58,000 dollars a year"),
    ("$58,000", "about $58 thousand"),
    ("$1.2 million", "a $1,200,000 payment"),
    ("$1.2 million", "$1.2M escrow"),
    ("20%", "a 20 percent cap"),
    ("Section 4.2", "under § 4.2 of the plan"),
    ("Section 4.2", "see Sec. 4.2"),
    ("Section 4.2", "§4.2"),
    ("Section 4.2", "Doc 5 s.4.2: docking"),  # a note's and English drafting's "s." and "ss."
    ("Section 144", "ss. 144 and 220"),
    ("March 3, 2025", "on 3 March 2025"),
    ("March 3, 2025", "dated 2025-03-03"),
    ("March 3, 2025", "signed 3/3/2025"),
    ("March 3, 2025", "Mar. 3, 2025"),
    ("waive", "waiving the fee"),
    ("policy", "both policies"),
    ("ship", "it shipped"),
    ("employer's consent", "the employer’s consent"),
    ("Item 5.02(a)", "Item 5.02 (a)"),
    ("1,200 employees", "1200 employees"),
    ("financial", "ﬁnancial"),  # ligature
    ("non-disclosure", "non\u00addisclosure"),  # soft hyphen
    ("duties test", "DUTIES\u00a0TEST"),  # NBSP and case
    ("90 days", "ninety days"),  # a number spelled out, or written in digits
    ("requires ninety", "requires 90"),
    ("45-day notice", "forty-five day notice"),
    ("one designee", "1 designee"),
])
def test_variants_match(term, text):
    assert matches(term, text)


@pytest.mark.parametrize("term,text", [
    ("$58,000", "$58,000,000"),
    ("$58,000", "$580,000"),
    ("Section 4.2", "Section 4.25"),
    ("Section 144", "575 U.S. 144"),  # the "S." of "U.S." is no section
    ("Section 4.2", "paras.4.2"),
    ("$1.2 million", "$1.25 million"),
    ("notice", "noticeboard"),
    ("March 3, 2025", "March 30, 2025"),
    ("duties test", "duties\ntest"),
    ("ninety", "ninety-five"),
    ("90 days", "nine days"),
])
def test_non_variants_do_not_match(term, text):
    assert not matches(term, text)


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=10)
terms = st.lists(words, min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(terms, st.data())
def test_a_term_always_matches_its_own_variants(parts, data):
    term = " ".join(parts)
    seps = [data.draw(st.sampled_from([" ", "-", "\u00a0", " \u2009", "\u2011"])) for _ in parts[1:]]
    variant_words = []
    for w in parts:
        w = data.draw(st.sampled_from([w, w.upper(), w.capitalize()]))
        if data.draw(st.booleans()) and len(w) > 3:
            cut = data.draw(st.integers(1, len(w) - 1))
            w = w[:cut] + "\u00ad" + w[cut:]  # soft hyphen inside a word
        variant_words.append(w)
    variant = variant_words[0] + "".join(s + w for s, w in zip(seps, variant_words[1:]))
    prefix = data.draw(st.sampled_from(["", "The ", "(", "“"]))
    suffix = data.draw(st.sampled_from(["", ".", " applies", "”", ","]))
    assert matches(term, prefix + variant + suffix), (term, prefix + variant + suffix)


LINE_BREAKS = ["\n", "\n\n", "\r\n", "\r\n\r\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c"]
no_letters = st.text(alphabet=" .,;:()0123456789", max_size=60)


@settings(max_examples=300, deadline=None)
@given(st.lists(words, min_size=2, max_size=4), st.sampled_from(LINE_BREAKS), no_letters, no_letters)
def test_a_term_broken_by_any_line_break_never_matches(parts, brk, before, after):
    """A term split by any line or paragraph break (LF, CRLF, CR, U+2028/9, NEL, VT, FF) never matches."""
    term = " ".join(parts)
    split_at = max(1, len(parts) // 2)
    broken = " ".join(parts[:split_at]) + brk + " ".join(parts[split_at:])
    text = normalize(f"{before} {broken} {after}").text
    assert not regex.search(term_regex(term), text), (term, brk, text)
    assert regex.search(term_regex(term), normalize(f"{before} {term} {after}").text)  # the unbroken term does


@settings(max_examples=200, deadline=None)
@given(st.text(min_size=2, max_size=40), st.text(max_size=200))
def test_no_pattern_ever_spans_a_line_break(term, text):
    assume(regex.search(r"[\p{L}\p{N}]", normalize(term).text))
    try:
        pattern = term_regex(term)
    except ValueError:
        return
    for m in regex.finditer(pattern, normalize(text).text, timeout=2):
        assert "\n" not in m.group(0)
