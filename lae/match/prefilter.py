"""Token prefilter: run a term's pattern only on the lines that can hold a match.

A memo's text is indexed once: its distinct tokens (runs of letters and digits) and the lines
each occurs on. :func:`lae.match.terms.required_literals` names runs of letters or digits that
every match of a term's pattern holds inside one token, and no generated pattern matches a line
break, so a match can only lie on a line whose tokens contain every literal. The pattern runs
on those lines alone: each run of them (nearby ones joined, with the few lines between) is its
own search, bounded by whole lines (a lookaround at the bound sees the text's end instead of a
line break; no generated lookaround tells them apart).

The spans found are exactly those of ``finditer`` over the whole text (tests/match/test_prefilter.py).
A pattern that is not what :func:`lae.match.terms.term_regex` generates for its term, a term
with no literal, or one whose literals leave most lines, runs over the whole text.

Where a literal occurs is found for all of a task's patterns at once: :class:`TaskLiterals`
holds one Aho-Corasick automaton (pyahocorasick) over the literals that select the task's
patterns' lines, built once per task, and one pass over a memo finds where each occurs (a literal
is a run of letters or digits, so it occurs in the text exactly where it occurs inside a token);
a pattern whose literal is absent costs a look-up. Without a task's automaton, literals are
looked up in the index of the text's distinct tokens, built on first use.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import time
from typing import Iterable

import ahocorasick
import regex

from lae.match.terms import compiled_pattern, required_literals, term_regex

__all__ = ["LineIndex", "TaskLiterals", "prepare_pattern", "WHOLE_TEXT_SHARE", "JOIN_GAP", "LONG_RANGE", "MAX_LITERALS", "MIN_LITERAL", "FEW_LINES"]

WHOLE_TEXT_SHARE = 0.5  # when this share of the lines can match, one search of the whole text is cheaper
JOIN_GAP = 1000  # candidate lines this close (characters) are searched as one range: a search call costs more
LONG_RANGE = 4096  # a range this long is searched under the timeout (a shorter one cannot take long; the
# deadline is still checked before each range)
MAX_LITERALS = 3  # the longest literals of a term select its lines; more add little and cost lookups
MIN_LITERAL = 2  # a one-character literal is in most lines: looking it up costs more than it saves
FEW_LINES = 8  # this few candidate lines are narrowed by searching each for the next literal

_TOKENS_AND_BREAKS = regex.compile(r"[\p{L}\p{N}]+|\n")


@functools.lru_cache(maxsize=16384)
def _literals(pattern: str, term: str) -> tuple[str, ...]:
    """The literals that select ``pattern``'s lines (empty: search the whole text)."""
    try:
        if term_regex(term) != pattern:
            return ()
    except ValueError:
        return ()
    return tuple(x for x in required_literals(term) if len(x) >= MIN_LITERAL)[:MAX_LITERALS]


def prepare_pattern(pattern: str, term: str | None) -> None:
    """Work out now what :meth:`LineIndex.spans` works out on first use for ``pattern`` (a batch
    does it before forking its workers, so each does not do it again)."""
    if term is not None:
        _literals(pattern, term)


class TaskLiterals:
    """The literals that select the lines of a task's patterns (``(pattern, term)`` pairs), in one
    automaton: :meth:`occurrences` finds where each occurs in a text, in one pass."""

    def __init__(self, sources: Iterable[tuple[str, str | None]]) -> None:
        self.literals = frozenset(x for pattern, term in sources if term is not None for x in _literals(pattern, term))
        self._automaton = ahocorasick.Automaton()
        for literal in self.literals:
            self._automaton.add_word(literal, literal)
        if self.literals:
            self._automaton.make_automaton()

    def occurrences(self, text: str) -> dict[str, list[int]]:
        """Literal -> where its occurrences in ``text`` end (the offset of their last character)."""
        out: dict[str, list[int]] = {}
        if not self.literals:
            return out
        get = out.get
        for last, literal in self._automaton.iter(text):
            got = get(literal)
            if got is None:
                out[literal] = [last]
            else:
                got.append(last)
        return out


class LineIndex:
    """The lines of a text and where literals occur on them: those of ``lead`` (a task's
    :class:`TaskLiterals`) from one pass over the text, any other from the index of the text's
    distinct tokens (each token and the lines it occurs on), built on first use."""

    def __init__(self, text: str, lead: TaskLiterals | None = None) -> None:
        self.text = text
        self.lines: list[tuple[int, int]] = []
        start = 0
        for length in map(len, text.split("\n")):
            self.lines.append((start, start + length))
            start += length + 1
        self._lead = lead
        self._lead_lines: dict[str, list[int]] | None = None
        self._line_starts: list[int] = []
        self._tokens: list[str] | None = None
        self._literal_lines: dict[str, set[int]] = {}
        self._candidates: dict[tuple[str, str | None], set[int] | None] = {}

    def _index_tokens(self) -> None:
        on_lines: dict[str, list[int]] = {}
        line = 0
        for token in _TOKENS_AND_BREAKS.findall(self.text):
            if token == "\n":
                line += 1
                continue
            got = on_lines.get(token)
            if got is None:
                on_lines[token] = [line]
            elif got[-1] != line:
                got.append(line)
        self._tokens = list(on_lines)
        self._on_lines = list(on_lines.values())
        self._vocabulary = "\n".join(self._tokens)  # a literal holds no line break: it never spans two tokens
        self._token_starts = list(itertools.accumulate((len(t) + 1 for t in self._tokens[:-1]), initial=0))

    def lines_with(self, literal: str) -> set[int]:
        """The lines holding a token that contains ``literal`` (a set the caller must not change)."""
        got = self._literal_lines.get(literal)
        if got is None and self._lead is not None and literal in self._lead.literals:
            if self._lead_lines is None:
                self._lead_lines = self._lead.occurrences(self.text)
                self._line_starts = [s for s, _e in self.lines]
            starts, line_of = self._line_starts, bisect.bisect_right
            got = {line_of(starts, last) - 1 for last in self._lead_lines.get(literal, ())}
            self._literal_lines[literal] = got
        elif got is None:
            if self._tokens is None:
                self._index_tokens()
            got = set()
            vocabulary, starts = self._vocabulary, self._token_starts
            i = vocabulary.find(literal)
            while i >= 0:
                k = bisect.bisect_right(starts, i) - 1
                got.update(self._on_lines[k])
                i = vocabulary.find(literal, starts[k + 1]) if k + 1 < len(starts) else -1
            self._literal_lines[literal] = got
        return got

    def candidate_lines(self, pattern: str, term: str | None) -> set[int] | None:
        """The lines ``pattern`` can match on (every line a match lies on among them; a set the
        caller must not change), or None when it is to search the whole text."""
        key = (pattern, term)
        if key not in self._candidates:
            self._candidates[key] = self._candidate_lines(pattern, term)
        return self._candidates[key]

    def _candidate_lines(self, pattern: str, term: str | None) -> set[int] | None:
        literals = _literals(pattern, term) if term is not None else ()
        if not literals:
            return None
        lines = self.lines_with(literals[0])
        for literal in literals[1:]:
            if not lines:
                break
            if len(lines) <= FEW_LINES:
                find, bounds = self.text.find, self.lines
                lines = {x for x in lines if find(literal, *bounds[x]) >= 0}  # a literal is only ever inside a token
            else:
                lines = lines & self.lines_with(literal)
        if len(lines) > WHOLE_TEXT_SHARE * len(self.lines):
            return None
        return lines

    def _ranges(self, lines: set[int]) -> list[list[int]]:
        """[start, end] of runs of whole lines covering ``lines``, nearby ones joined."""
        out: list[list[int]] = []
        for line in sorted(lines):
            start, end = self.lines[line]
            if out and start - out[-1][1] <= JOIN_GAP:
                out[-1][1] = end
            else:
                out.append([start, end])
        return out

    def spans(self, pattern: str, term: str | None, timeout: float, out: list[tuple[int, int]]) -> None:
        """Append to ``out`` the spans of ``pattern``'s matches, as ``finditer`` over the whole text
        finds them (``term``: its source, for the prefilter). Raises ``TimeoutError`` after
        ``timeout`` seconds in all, ``out`` holding what was found until then."""
        lines = self.candidate_lines(pattern, term)
        if lines is None:
            out.extend(m.span() for m in compiled_pattern(pattern).finditer(self.text, timeout=timeout))
            return
        if not lines:
            return  # never compiled when no line can match (a single memo's scoring needs about half)
        compiled = compiled_pattern(pattern)
        deadline = time.monotonic() + timeout
        for start, end in self._ranges(lines):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"pattern timed out after {timeout} s")
            found = compiled.finditer(self.text, start, end, timeout=left if end - start >= LONG_RANGE else None)
            out.extend(m.span() for m in found)
