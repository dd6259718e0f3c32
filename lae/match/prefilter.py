"""Token prefilter: run a term's pattern only on the lines that can hold a match.

A memo's text is indexed once: its distinct tokens (runs of letters and digits) and the lines
each occurs on. :func:`lae.match.terms.required_literals` names runs of letters or digits that
every match of a term's pattern holds inside one token, and no generated pattern matches a line
break, so a match can only lie on a line whose tokens contain every literal. The pattern runs
on those lines alone, each line its own search bounded by the line (a lookaround at the bound
sees the text's end instead of a line break; no generated lookaround tells them apart).

The spans found are exactly those of ``finditer`` over the whole text (tests/match/test_prefilter.py).
A pattern that is not what :func:`lae.match.terms.term_regex` generates for its term, a term
with no literal, or one whose literals leave most lines, runs over the whole text.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import time

import regex

from lae.match.terms import compiled_pattern, required_literals, term_regex

__all__ = ["LineIndex", "WHOLE_TEXT_SHARE", "LONG_LINE", "MAX_LITERALS"]

WHOLE_TEXT_SHARE = 0.5  # when this share of the lines can match, one search of the whole text is cheaper
LONG_LINE = 4096  # a line this long is searched under the timeout (a shorter one cannot take long; the deadline is
# still checked between lines)
MAX_LITERALS = 3  # the longest literals of a term select its lines; more add little and cost lookups

_TOKENS_AND_BREAKS = regex.compile(r"[\p{L}\p{N}]+|\n")


@functools.lru_cache(maxsize=16384)
def _literals(pattern: str, term: str) -> tuple[str, ...]:
    """The literals that select ``pattern``'s lines (empty: search the whole text)."""
    try:
        if term_regex(term) != pattern:
            return ()
    except ValueError:
        return ()
    return required_literals(term)[:MAX_LITERALS]


class LineIndex:
    """The lines of a text and, for each distinct token, the lines it occurs on (a bit set)."""

    def __init__(self, text: str) -> None:
        self.text = text
        on_lines: dict[str, int] = {}
        bit = 1
        for token in _TOKENS_AND_BREAKS.findall(text):
            if token == "\n":
                bit <<= 1
            else:
                on_lines[token] = on_lines.get(token, 0) | bit
        self.line_count = bit.bit_length()
        self.lines: list[tuple[int, int]] = []
        start = 0
        for line in text.split("\n"):
            self.lines.append((start, start + len(line)))
            start += len(line) + 1
        self._tokens = list(on_lines)
        self._on_lines = list(on_lines.values())
        self._vocabulary = "\n".join(self._tokens)  # a literal holds no line break: it never spans two tokens
        self._token_starts = list(itertools.accumulate((len(t) + 1 for t in self._tokens[:-1]), initial=0))
        self._literal_lines: dict[str, int] = {}

    def lines_with(self, literal: str) -> int:
        """The lines (bit set) holding a token that contains ``literal``."""
        got = self._literal_lines.get(literal)
        if got is None:
            got = 0
            vocabulary, starts = self._vocabulary, self._token_starts
            i = vocabulary.find(literal)
            while i >= 0:
                k = bisect.bisect_right(starts, i) - 1
                got |= self._on_lines[k]
                i = vocabulary.find(literal, starts[k + 1]) if k + 1 < len(starts) else -1
            self._literal_lines[literal] = got
        return got

    def candidate_lines(self, pattern: str, term: str | None) -> int | None:
        """The lines (bit set) ``pattern`` can match on, or None when it is to search the whole text."""
        literals = _literals(pattern, term) if term is not None else ()
        if not literals:
            return None
        lines = -1
        for literal in literals:
            lines &= self.lines_with(literal)
            if not lines:
                return 0
        if lines.bit_count() > WHOLE_TEXT_SHARE * self.line_count:
            return None
        return lines

    def spans(self, pattern: str, term: str | None, timeout: float, out: list[tuple[int, int]]) -> None:
        """Append to ``out`` the spans of ``pattern``'s matches, as ``finditer`` over the whole text
        finds them (``term``: its source, for the prefilter). Raises ``TimeoutError`` after
        ``timeout`` seconds in all, ``out`` holding what was found until then."""
        compiled = compiled_pattern(pattern)
        lines = self.candidate_lines(pattern, term)
        if lines is None:
            out.extend(m.span() for m in compiled.finditer(self.text, timeout=timeout))
            return
        deadline = time.monotonic() + timeout
        while lines:
            low = lines & -lines
            start, end = self.lines[low.bit_length() - 1]
            lines ^= low
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"pattern timed out after {timeout} s")
            found = compiled.finditer(self.text, start, end, timeout=left if end - start >= LONG_LINE else None)
            out.extend(m.span() for m in found)
