"""Assertion: does a unit (sentence or table row) assert what it says, in the memo's own voice?

A ConText-style classifier with legal cues, applied per unit and combined at discussion level
by the engine. A unit is *not* an assertion when it is a question or hedge, hypothetical,
another person's or document's view not adopted, a definition, a bare list of terms, about
another matter, or in a recital/declined section; a phrase inside an assertion is *negated*
when a negator precedes it within its clause (a few words), unless the phrase itself carries
the negation (``no recourse``, ``without + license``: the absence is the problem). Dismissal
cues are found separately: the engine applies them to the whole discussion.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import regex

from lae.match.cues import (ADOPTION, CORRECTION_CUES, CORRECTION_CUES_AFTER, DEFINITION, DISMISSAL_CUES,
                            DISMISSAL_PATTERNS, DISMISSAL_V2, ESCALATION_V2, FUNCTION_WORDS, GOVERNING_NEGATION,
                            HEDGES, HYPOTHETICAL, NEGATORS, OTHER_MATTER, PSEUDO_NEGATIONS, REPORTED)
from lae.match.normalize import TOKEN_RE

__all__ = ["Stance", "stance", "negated_before", "governed_by_negation", "dismissal_cue", "escalation_cue",
           "correction_around", "is_keyword_list", "NEGATION_SCOPE_WORDS"]

NEGATION_SCOPE_WORDS = 5  # a negator denies what follows within this many words (and the same clause)
_B, _E = r"(?<![\p{L}\p{N}])", r"(?![\p{L}\p{N}])"


def _alt(cues: tuple[str, ...]) -> regex.Pattern:
    return regex.compile(_B + "(?:" + "|".join(cues) + ")" + _E)


@functools.lru_cache(maxsize=1)
def _patterns() -> dict[str, regex.Pattern]:
    plain = tuple(regex.escape(c) for c in DISMISSAL_CUES)
    return {
        "dismissal": regex.compile(_B + "(?:" + "|".join(DISMISSAL_V2 + plain) + ")" + _E + "|" +
                                   "|".join(DISMISSAL_PATTERNS)),
        "negator": _alt(NEGATORS),
        "pseudo": _alt(PSEUDO_NEGATIONS),
        "governing": _alt(GOVERNING_NEGATION),
        "hedge": _alt(HEDGES),
        "hypothetical": _alt(HYPOTHETICAL),
        "reported": _alt(REPORTED),
        "adoption": _alt(ADOPTION),
        "other_matter": _alt(OTHER_MATTER),
        "definition": _alt(DEFINITION),
        "escalation": _alt(ESCALATION_V2),
        "correction": _alt(tuple(regex.escape(c) for c in CORRECTION_CUES)),
        "correction_after": _alt(tuple(regex.escape(c) for c in CORRECTION_CUES_AFTER)),
        "we": _alt((r"we", r"our", r"us", r"i", r"this memo", r"in our")),
        "clause_break": regex.compile(r"[;:]| - |\u2014|" + _B + r"(?:but|however|although|though|whereas|except|yet)" + _E),
    }


@dataclass(frozen=True)
class Stance:
    """Why a unit does not assert (None when it does), with the cue that decided it."""

    kind: str | None  # question | hedge | hypothetical | reported | definition | keyword-list | other-matter
    cue: str = ""

    @property
    def asserts(self) -> bool:
        return self.kind is None


def is_keyword_list(text: str) -> bool:
    """A bare list of terms: many short comma/semicolon segments and almost no function words."""
    tokens = TOKEN_RE.findall(text)
    segments = [s for s in regex.split(r"[,;/]|\s(?:and|or)\s", text) if s.strip()]
    if len(segments) < 4 or len(tokens) < 6:
        return False
    short = sum(1 for s in segments if len(TOKEN_RE.findall(s)) <= 4)
    function = sum(1 for t in tokens if t in FUNCTION_WORDS and t not in ("and", "or"))
    return short >= 0.75 * len(segments) and function <= 0.12 * len(tokens)


def _reported(text: str, start: int, end: int) -> str | None:
    pats = _patterns()
    if pats["adoption"].search(text, start, end):
        return None
    for m in pats["reported"].finditer(text, start, end):
        clause_start = start
        for b in pats["clause_break"].finditer(text, start, m.start()):
            clause_start = b.end()
        before = text[clause_start:m.start()]
        if pats["we"].search(before) or regex.search(r"(?:^|\W)as\s+\S+(?:\s+\S+){0,4}\s*$", before):
            continue
        return m.group(0)
    return None


def stance(text: str, start: int, end: int, *, row: bool = False) -> Stance:
    """Classify the unit ``text[start:end]`` (normalized text)."""
    pats = _patterns()
    unit = text[start:end]
    if unit.rstrip(" *\"')").endswith("?"):
        return Stance("question", "?")
    for kind in ("hedge", "hypothetical", "other_matter"):
        m = pats[kind].search(text, start, end)
        if m:
            return Stance(kind.replace("_", "-"), m.group(0))
    m = pats["definition"].search(text, start, min(end, start + 70))
    if m and not regex.search(r"(?:this|that|which|it|what)\s*$", text[start:m.start()]):
        return Stance("definition", m.group(0))
    cue = _reported(text, start, end)
    if cue:
        return Stance("reported", cue)
    cells = unit.split("|") if row else [unit]
    if any(is_keyword_list(c) for c in cells):
        return Stance("keyword-list", "a bare list of terms")
    return Stance(None)


def negated_before(text: str, unit_start: int, pos: int) -> str | None:
    """The negator that denies what starts at ``pos`` (within its clause, a few words before), or None."""
    pats = _patterns()
    lo = unit_start
    for b in pats["clause_break"].finditer(text, unit_start, pos):
        lo = b.end()
    words = list(TOKEN_RE.finditer(text, lo, pos))[-NEGATION_SCOPE_WORDS:]
    if not words:
        return None
    scope_start = words[0].start()
    pseudo = [m.span() for m in pats["pseudo"].finditer(text, max(lo, scope_start - 12), pos)]
    for m in pats["negator"].finditer(text, scope_start, pos):
        if not any(s <= m.start() < e for s, e in pseudo):
            return m.group(0)
    return None


def governed_by_negation(text: str, unit_start: int, pos: int) -> str | None:
    """A main-clause negation governing what follows ("nothing suggests that", "we do not say that")."""
    m = _patterns()["governing"].search(text, unit_start, pos)
    return m.group(0) if m else None


def dismissal_cue(text: str, start: int, end: int) -> str | None:
    m = _patterns()["dismissal"].search(text, start, end)
    if m and not regex.search(r"(?:not|never)\s+$", text[max(start, m.start() - 8):m.start()]):
        return m.group(0)
    return None


def escalation_cue(text: str, start: int, end: int) -> str | None:
    m = _patterns()["escalation"].search(text, start, end)
    return m.group(0) if m else None


def correction_around(text: str, start: int, pos: int, pos_end: int, end: int) -> str | None:
    """A correction before the claim in its sentence, or a trailing one after it."""
    pats = _patterns()
    m = pats["correction"].search(text, start, pos) or pats["correction_after"].search(text, pos_end, end)
    return m.group(0) if m else None
