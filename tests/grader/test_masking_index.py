"""The source index masks exactly the runs a plain look-up of every window finds: the vocabulary
check that skips windows never skips one that repeats a document."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lae.match.masking import SourceIndex
from lae.match.normalize import TOKEN_RE, normalize

WORDS = ["the", "lease", "renewal", "notice", "june", "30", "2025", "tenant", "landlord", "we", "advise", "risk"]


def every_window(index: SourceIndex, text: str) -> list[tuple[int, int]]:
    """The masking rule with no skipping: every window of ``min_tokens`` tokens looked up."""
    n = index.min_tokens
    matches = list(TOKEN_RE.finditer(text))
    tokens = [m.group(0) for m in matches]
    covered_until, spans = -1, []
    for i in range(len(tokens) - n + 1):
        if tuple(tokens[i:i + n]) in index._grams:
            start, end = matches[i].start(), matches[i + n - 1].end()
            if spans and start <= spans[-1][1] + 1 and i <= covered_until:
                spans[-1] = (spans[-1][0], max(spans[-1][1], end))
            else:
                spans.append((start, end))
            covered_until = i + n - 1
    return spans


words = st.lists(st.sampled_from(WORDS), min_size=0, max_size=40).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(words, min_size=1, max_size=3), words, words, st.integers(3, 6))
def test_masking_skips_only_windows_no_document_holds(documents, own, more_own, n):
    """A memo of its own words around a copy of part of a document (words a document never uses
    mixed in): the masked spans are the plain look-up's, and the copied run is masked."""
    index = SourceIndex(documents, n)
    copied = documents[0]
    text = normalize(f"{own} memo-only words {copied} {more_own}. Our view.").text
    spans = index.mask(normalize(text))
    assert spans == every_window(index, text)
    if len(TOKEN_RE.findall(copied)) >= n:
        start = text.index(copied)
        assert any(s <= start and start + len(copied) <= e for s, e in spans)
