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

import bisect
import functools
from dataclasses import dataclass
from typing import Sequence

import regex

from lae.match.cues import (ADOPTION, ANSWER, ARROW, CHECKING_OPENER, CORRECTION_CUES, COURTS_IN_GENERAL, CORRECTION_CUES_AFTER, DEFINITION, DENIAL_VERDICTS, DISMISSAL_CUES,
                            DISMISSAL_PATTERNS, DISMISSAL_V2, ESCALATION_V2, FORBIDDEN_SPEECH, FUNCTION_WORDS, GOVERNING_NEGATION,
                            HEDGES, HYPOTHETICAL, IN_ORDER, LAW_IN_ABSTRACT, NEGATORS, OTHER_MATTER, PSEUDO_NEGATIONS,
                            ANSWER_CELL, QUESTION_IN_ORDER, QUESTION_MODAL, QUESTION_WRONG, REPORTED, REVIEW_FOUND, REVIEW_RECITAL,
                            VERDICT)
from lae.match.literals import Gated, gate_patterns
from lae.match.normalize import TOKEN_RE

__all__ = ["Stance", "stance", "compile_cues", "negated_before", "count_negators", "governed_by_negation", "speech_forbidden", "dismissal_cue", "dismissal_holds", "clause_start",
           "dismissal_cues_by_unit", "escalation_cue", "verdict_cue", "has_verdict_words", "answer_verdict", "answer_clears", "minimized_before",
           "correction_around", "is_keyword_list", "NEGATION_SCOPE_WORDS"]

NEGATION_SCOPE_WORDS = 6  # a negator denies what follows within this many words (and the same clause);
# single letters ("c.f.r.", "s.") do not count as words
_B, _E = r"(?<![\p{L}\p{N}])", r"(?![\p{L}\p{N}])"


_COMMA = r"(?<!\d),|,(?!\d)"  # not the comma of "$7,500"
_LIST_SPLIT = regex.compile(_COMMA + r"|\s(?:and|or)\s")
_LIST_COMMA = regex.compile(_COMMA)
_SENTENCE_END = regex.compile(r"[.!?](?:\s|$)")
_AS_LEAD = regex.compile(r"(?:^|\W)as\s+\S+(?:\s+\S+){0,4}\s*$")
_ANAPHOR_END = regex.compile(r"(?<![\p{L}])(?:this|that|which|it|what)\s*$")
_DEFINIENS = regex.compile(r"\s*(?:a|an|the|any|each|all|every|one|those|such|either)(?![\p{L}])")
_DEFINING = regex.compile(r"(?<![\p{L}])(?:as used (?:in|here)|as defined|for (?:the )?purposes of this|in this memo)(?![\p{L}])")
# a leading phrase before a sentence's subject: "Under entire fairness, the defendants must show ..."
_LEADING_PHRASE = regex.compile(r"\W*(?:under|in|for|where|when|historically|traditionally|typically|generally)\b[^,;]{0,80}, ")
_CHECKING_OPENER = regex.compile(CHECKING_OPENER)
_REVIEW_RECITAL = regex.compile(REVIEW_RECITAL)
_REVIEW_FOUND = regex.compile(REVIEW_FOUND)
# a sentence opening with a general condition: its subordinate clause states no fact of this matter
_GENERAL_CONDITION = regex.compile(r"\W*(where|whenever|in the event that|in the event|should)\b[^,;]{0,200}[,;]")
_NOT_END = regex.compile(r"(?<![\p{L}])(?:not|never|no longer|neither of (?:which|them|these|those)|none of (?:which|them|these|those)|"
                          r"neither)\s+$")
_CONDITION = regex.compile(r"(?<![\p{L}])(?:if|unless|whether|even if|were|so that|in order to|to avoid|to ensure|"
                           r"provided that|once|until|till)(?![\p{L}])(?!'s)")  # "so that's fine" is no purpose
_CONSEQUENCE = regex.compile(r",\s*(?:so|therefore|thus|hence)(?![\p{L}])(?!\s+that)")
# a verdict word as the object of a possibility ("a risk of violation", "any breach", "to avoid a problem")
_TENTATIVE = regex.compile(r"(?<![\p{L}])(?:risks?|chance|possibility|potential|possible|alleged|any|avoid|prevent|"
                           r"whether)\s+(?:of\s+)?(?:an?\s+|the\s+)?(?:\p{L}+\s+)?$")
# ... or as the name of a topic ("the unlicensed Phase 1 question", "the breach analysis below")
_TOPIC_AFTER = regex.compile(r"(?:(?:\s+[\p{L}\p{N}.'-]+){0,3}?\s+(?:question|issue|point|topic|analysis|section|"
                             r"discussion)s?|\s+risks?)(?![\p{L}])")
# a relative pronoun after a noun, just before the cue ("a network company that does not require")
# (or the second verb of one: "a company that does not dictate hours and does not require")
_RELATIVE_END = regex.compile(r"(?<![\p{L}])(?!(?:and|but|or|so|because|since|as|while|then|than|if|that)\s)\p{L}{3,}\s+"
                              r"(?:that|which|who)\s+(?:(?:does|do|did|is|are|was|were)\s+not\s+[^.;:]*?\s(?:and|or)\s+)?$")
# a clause whose subject is denied ("Neither deduction ...", "that no employee ...", "None of them ...")
_NO_SUBJECT = regex.compile(r"(?<![\p{L}])(?:neither|no|none of)(?![\p{L}])")
_ALLOWED = regex.compile(IN_ORDER)
# ("yet" at a clause's end is "so far", no turn: "not a real issue yet.")
_TURN = regex.compile(r"(?<![\p{L}])(?:but|however|although|though|yet(?!\s*(?:[.;,!?]|$))|nevertheless)(?![\p{L}])")


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
        "forbidden_speech": _alt(FORBIDDEN_SPEECH),
        "hedge": _alt(HEDGES),
        "hypothetical": _alt(HYPOTHETICAL),
        "reported": _alt(REPORTED),
        "adoption": _alt(ADOPTION),
        "other_matter": _alt(OTHER_MATTER),
        "law": _alt(LAW_IN_ABSTRACT),
        "courts": _alt(COURTS_IN_GENERAL),
        "definition": _alt(DEFINITION),
        "escalation": _alt(ESCALATION_V2),
        "verdict": _alt(VERDICT),
        "in_order": _alt(QUESTION_IN_ORDER),
        "wrong": _alt(QUESTION_WRONG),
        "correction": _alt(tuple(regex.escape(c) for c in CORRECTION_CUES)),
        "correction_after": _alt(tuple(regex.escape(c) for c in CORRECTION_CUES_AFTER)),
        "we": _alt((r"we", r"our", r"us", r"i", r"this memo", r"in our")),
        "strong_break": regex.compile(r"[;:]|\u2014| - |" + ARROW + r"|, (?:so|and|but|which)\b|" + _B +
                                      r"(?:but|however|because|since|therefore|so that|although|though|whereas)" + _E),
        # after what it qualifies, a hedge must share its clause: a conjunction starts another one
        "after_break": regex.compile(r"[;:]|\u2014| - |" + _B + r"(?:and|so|which|while|but|however|because|since|although)" + _E),
        "clause_break": regex.compile(r"[;:|]| - |\u2014|" + ARROW + "|" + _B + r"(?:but|however|although|though|whereas|except|yet)" + _E),
    }


_BREAKS = ("strong_break", "after_break", "clause_break")


@functools.lru_cache(maxsize=1)
def _cues() -> dict[str, Gated]:
    """The cue patterns (not the clause breaks), each searched only where one of its literals occurs."""
    return gate_patterns({k: p for k, p in _patterns().items() if k not in _BREAKS})


def compile_cues() -> None:
    """Compile the cue patterns now rather than on first use (see :func:`lae.match.engine.compile_spec`)."""
    _cues()


@dataclass(frozen=True)
class Stance:
    """Why a unit does not assert (None when it does), with the cue that decided it."""

    kind: str | None  # question | hedge | hypothetical | reported | definition | keyword-list | other-matter | denied
    cue: str = ""

    @property
    def asserts(self) -> bool:
        return self.kind is None


_PREDICATE_MARK = regex.compile(r"[:;=\u2014]| - ")


def is_keyword_list(text: str) -> bool:
    """A bare list of terms: five or more comma-separated segments, mostly short, and almost no
    function words, or eight or more (six or more per sentence), mostly short, with few (terse
    notes with dashes, semicolons and parentheses are not lists). A text that opens with a clause
    (six words or more, numbers aside, with a function word among them, before the first comma and
    with no colon) is a sentence ending in an enumeration ("Salary in all markets is below the
    floors in California ($68,640), Washington ..."), not a list; the comma of a grouped number
    ("$7,500") separates nothing."""
    tokens = TOKEN_RE.findall(text)
    segments = [s for s in _LIST_SPLIT.split(text) if s.strip()]
    if len(segments) < 5 or len(tokens) < 8 or len(_LIST_COMMA.findall(text)) < 3:
        return False  # a list of terms is separated by commas, not by "and" alone
    sentences = max(1, len(_SENTENCE_END.findall(text)))
    if len(segments) < 3 * sentences:
        return False  # a few short sentences ("Pay discussion. Sections 1.2 and 2.3 bar wage talk. Remove.")
    lead = _words(segments[0])
    if ":" not in segments[0] and len(lead) >= 6 and any(t in FUNCTION_WORDS for t in lead):
        return False
    short = sum(1 for s in segments if len(TOKEN_RE.findall(s)) <= 5)
    function = sum(1 for t in tokens if t in FUNCTION_WORDS and t not in ("and", "or"))
    if len(segments) >= 8 and len(segments) >= 6 * sentences and short >= 0.75 * len(segments) \
            and function <= 0.2 * len(tokens):
        return True  # a long run of short comma-separated items: an inventory, not an analysis
    return short >= 0.7 * len(segments) and function <= 0.12 * len(tokens)


def _words(text: str) -> list[str]:
    """The tokens of ``text`` that are not bare numbers."""
    return [t for t in TOKEN_RE.findall(text) if not t.isdigit()]


def _governs(text: str, cue_end: int, pos: int) -> bool:
    """A cue before ``pos`` governs it unless a clause break ("; ", "but", "because", ", so") lies between."""
    return cue_end <= pos and not _patterns()["strong_break"].search(text, cue_end, pos)


def _reported(text: str, start: int, end: int, pos: int) -> regex.Match | None:
    """The reporting cue (another's view, a document reciting) that governs ``pos``, unless the unit adopts it."""
    cues = _cues()
    if cues["adoption"].search(text, start, end):
        return None
    for m in cues["reported"].finditer(text, start, pos):
        if not _governs(text, m.end(), pos):
            continue
        before = text[clause_start(text, start, m.start()):m.start()]
        if cues["we"].search(before) or _AS_LEAD.search(before):
            continue
        return m
    return None


# A reporting verb followed by a preposition reports no clause unless a "that" opens one: "the point
# Ms. Castellanos noted on May 13 has been overtaken" is the memo's verdict on a point someone noted.
_REPORT_OBJECT_BEFORE = regex.compile(r"\s+(?:on|in|at|by|during|to|for|with|earlier|last|yesterday)\b(?![^.;:]*\bthat\b)")


def _reported_speech(text: str, start: int, end: int, pos: int) -> str | None:
    """The reporting cue whose clause holds ``pos`` (see :func:`_reported`), not one whose object came before it."""
    m = _reported(text, start, end, pos)
    return None if m is None or _REPORT_OBJECT_BEFORE.match(text, m.end(), pos) else m.group(0)


def _asks(unit: str) -> bool:
    """The unit is a question: it ends with "?" (before closing marks and quotes)."""
    return unit.rstrip(" *\"')").endswith("?")


def stance(text: str, start: int, end: int, pos: int | None = None, *, row: bool = False) -> Stance:
    """Classify the unit ``text[start:end]`` (normalized text) as it bears on what starts at
    ``pos`` (default: the whole unit): hedges, hypotheticals and reports count when they
    govern ``pos`` (come before it, with no clause break between)."""
    pats, cues = _patterns(), _cues()
    pos = end if pos is None else pos
    unit = text[start:end]
    if _asks(unit):
        return Stance("question", "?")
    m = _CHECKING_OPENER.match(text, start, end)
    if m and _governs(text, m.end(), pos) and (m.group("weigh") or not has_verdict_words(text, start, end)):
        return Stance("question", m.group(0).strip(" *-.)"))  # "Check B&P 16600 for San Diego": left open
    m = _REVIEW_RECITAL.match(text, start, end)
    if m and _governs(text, m.end(), pos) and not _REVIEW_FOUND.search(text, m.end(), end) \
            and not has_verdict_words(text, start, end):
        return Stance("recital", "a recital of the work done")  # "We reviewed the licence, the escrow ...": the record
    for kind in ("hedge", "hypothetical"):
        for m in cues[kind].finditer(text, start, end):
            if _governs(text, m.end(), pos) or m.start() >= pos and not pats["after_break"].search(text, pos, m.start()):
                return Stance(kind, m.group(0))
    for m in cues["other_matter"].finditer(text, start, end):
        if _same_clause(text, m.start(), m.end(), pos):
            return Stance("other-matter", m.group(0))
    m = cues["law"].search(text, start, end)
    if m and (len(TOKEN_RE.findall(text, start, m.start())) <= 3 or _LEADING_PHRASE.fullmatch(text, start, m.start())):
        return Stance("law-in-abstract", m.group(0))
    m = _GENERAL_CONDITION.match(text, start, end)
    if m and pos < m.end():
        return Stance("hypothetical", m.group(1))  # "Where a director leaves over a disagreement, ..."
    m = cues["courts"].search(text, start, end)
    if m:
        return Stance("law-in-abstract", m.group(0))
    m = cues["definition"].search(text, start, min(end, start + 70))
    if m and not _ANAPHOR_END.search(text[start:m.start()]) and (
            '"' in text[start:m.start()] or _DEFINIENS.match(text, m.end()) or _DEFINING.search(text, m.end(), end)
            or not m.group(0).startswith(("means", "refers"))):
        return Stance("definition", m.group(0))  # "X means a ...", '"X" means ...'; not "X means management should"
    m = _reported(text, start, end, pos)
    if m:
        return Stance("reported", m.group(0))
    if is_keyword_list(_cell_at(text, start, end, pos) if row else unit):
        return Stance("keyword-list", "a bare list of terms")
    return Stance(None)


def is_bare_term(text: str) -> bool:
    """A unit that is only a name for something: at most six words, no sentence end and no
    predicate mark (``:``, ``;``, ``=``, a dash). One item of a bulleted list of terms names
    things and says nothing about them; a terse note ("CA staff: void.") carries its predicate."""
    body = text.strip().lstrip("-*+#0123456789.) ").rstrip(" *")
    if _PREDICATE_MARK.search(body) or body.endswith((".", "!", "?")):
        return False
    return 0 < len(TOKEN_RE.findall(body)) <= 6


def _cell_at(text: str, start: int, end: int, pos: int) -> str:
    """The table cell of the row ``text[start:end]`` that holds ``pos`` (the whole row if none)."""
    if pos >= end:
        return text[start:end]
    left = text.rfind("|", start, pos)
    right = text.find("|", pos, end)
    return text[left + 1 if left >= 0 else start:right if right >= 0 else end]


def _same_clause(text: str, cue_start: int, cue_end: int, pos: int) -> bool:
    """Is a cue at ``cue_start:cue_end`` in the same clause as ``pos`` (no strong break between)?"""
    if cue_end <= pos:
        return not _patterns()["strong_break"].search(text, cue_end, pos)
    return not _patterns()["strong_break"].search(text, pos, cue_start)


def negated_before(text: str, unit_start: int, pos: int) -> str | None:
    """The negator that denies what starts at ``pos`` (within its clause, a few words before), or None."""
    cues = _cues()
    if not cues["negator"].possible(text, unit_start, pos):
        return None
    lo = clause_start(text, unit_start, pos)
    words = [w for w in TOKEN_RE.finditer(text, lo, pos) if len(w.group()) > 1][-NEGATION_SCOPE_WORDS:]
    if not words:
        return None
    scope_start = words[0].start()
    pseudo = [m.span() for m in cues["pseudo"].finditer(text, max(lo, scope_start - 12), pos)]
    for m in cues["negator"].finditer(text, scope_start, pos):
        if not any(s <= m.start() < e for s, e in pseudo):
            return m.group(0)
    return None


def count_negators(text: str, unit_start: int, first: int, last: int) -> int:
    """Negators (pseudo-negations excluded) from a few words before ``first`` (same clause) to ``last``."""
    cues = _cues()
    if not cues["negator"].possible(text, unit_start, last):
        return 0
    lo = clause_start(text, unit_start, first)
    words = [w for w in TOKEN_RE.finditer(text, lo, first) if len(w.group()) > 1][-NEGATION_SCOPE_WORDS:]
    scope = words[0].start() if words else first
    pseudo = [m.span() for m in cues["pseudo"].finditer(text, max(lo, scope - 12), last)]
    return sum(1 for m in cues["negator"].finditer(text, scope, last)
               if not any(s <= m.start() < e for s, e in pseudo))


def governed_by_negation(text: str, unit_start: int, pos: int) -> str | None:
    """A main-clause negation governing what follows ("nothing suggests that", "we do not say
    that"): within the clause, or anywhere after it when it opens the sentence (a sentence-initial
    "It is not the case that ..." denies the whole sentence)."""
    for m in _cues()["governing"].finditer(text, unit_start, pos):
        if len(TOKEN_RE.findall(text, unit_start, m.start())) <= 2 or _governs(text, m.end(), pos):
            return m.group(0)
    return None


def speech_forbidden(text: str, unit_start: int, pos: int) -> str | None:
    """A speech act the memo forbids, governing what follows ("Do not state in anything we send that
    ...", "avoid saying"): a claim there is one the memo tells the client not to make."""
    for m in _cues()["forbidden_speech"].finditer(text, unit_start, pos):
        if _governs(text, m.end(), pos):
            return m.group(0)
    return None


def dismissal_cue(text: str, start: int, end: int) -> str | None:
    """A dismissal the memo makes: not negated ("not immaterial"), not inside a condition ("if the
    drivers are exempt"), and not turned by a later "but"/"however" in the same sentence."""
    for m in _cues()["dismissal"].finditer(text, start, end):
        if not dismissal_holds(text, start, m.start(), m.end(), end):
            continue
        return m.group(0)
    return None


def dismissal_cues_by_unit(text: str, units: Sequence[tuple[int, int]]) -> dict[int, str]:
    """:func:`dismissal_cue` for every unit at once (one scan of the text): unit index -> cue."""
    starts = [s for s, _e in units]
    out: dict[int, str] = {}
    for m in _cues()["dismissal"].finditer(text):
        i = bisect.bisect_right(starts, m.start()) - 1
        if i < 0 or i in out or m.end() > units[i][1]:
            continue
        if dismissal_holds(text, units[i][0], m.start(), m.end(), units[i][1]):
            out[i] = m.group(0)
    return out


def clause_start(text: str, start: int, pos: int) -> int:
    """Where the clause holding ``pos`` begins in the unit starting at ``start`` (after the last
    semicolon, colon, dash or "but"/"however"/... before it)."""
    clause = start
    for b in _patterns()["clause_break"].finditer(text, start, pos):
        clause = b.end()
    return clause


def dismissal_holds(text: str, start: int, cue_start: int, cue_end: int, end: int) -> bool:
    """Does a dismissal found at ``cue_start:cue_end`` of the unit ``start:end`` stand?"""
    if _NOT_END.search(text[max(start, cue_start - 24):cue_start]):
        return False
    clause = clause_start(text, start, cue_start)
    if _RELATIVE_END.search(text, max(clause, cue_start - 160), cue_start):
        return False  # "a company that does not require ...": a rule's condition, not a conclusion
    if _ALLOWED.match(text, cue_start, cue_end) and _NO_SUBJECT.search(text, clause, cue_start):
        return False  # "Neither deduction is permitted", "... that no release is acceptable": the permission denied
    for m in _CONSEQUENCE.finditer(text, clause, cue_start):
        clause = m.end()  # "..., once X is fixed, so I see no issue": the condition governs what came before
    if _CONDITION.search(text[clause:cue_start]):
        return False  # a condition or a purpose ("... so that it does not raise ..."), not a conclusion
    if text[start:cue_start].count('"') % 2 == 1:
        return False  # inside a quotation: someone else's words
    if _reported_speech(text, start, end, cue_start):
        return False  # "Derek says the guarantor needs no license": someone else's dismissal, not the memo's
    return not _TURN.search(text[cue_end:end])


_MINIMIZED = regex.compile(r"(?<![\p{L}])(?:limited|low|lower|minimal|minor|little|modest|remote|negligible|"
                           r"no (?:real|significant|material|meaningful)|not (?:a |an )?(?:significant|material|real))"
                           r"\W+(?:\p{L}+\W+)?$")


def minimized_before(text: str, start: int, pos: int) -> bool:
    """The risk word at ``pos`` is graded down ("limited exposure", "a low risk", "no real
    concern"): naming a point to set it aside is not escalating it."""
    return bool(_MINIMIZED.search(text, max(start, pos - 40), pos))


def escalation_cue(text: str, start: int, end: int) -> str | None:
    m = _cues()["escalation"].search(text, start, end)
    return m.group(0) if m else None


def has_verdict_words(text: str, start: int, end: int) -> bool:
    """Whether the unit ``start:end`` holds a verdict in general words (``VERDICT``) at all,
    however the rule reads it (negated, conditional, quoted, tentative or made)."""
    return next(_cues()["verdict"].finditer(text, start, end), None) is not None


def verdict_cue(text: str, start: int, end: int) -> tuple[int, int, str] | None:
    """The first verdict in general words (``VERDICT``) that the unit ``start:end`` makes: not
    negated or minimised, not inside a condition ("if the exception fails") and not inside a
    quotation; its stance is the caller's to check."""
    for m in _cues()["verdict"].finditer(text, start, end):
        clause = clause_start(text, start, m.start())
        if _CONDITION.search(text[clause:m.start()]) or text[start:m.start()].count('"') % 2 == 1:
            continue
        if negated_before(text, start, m.start()) or governed_by_negation(text, start, m.start()) \
                or minimized_before(text, start, m.start()) or _TENTATIVE.search(text, max(start, m.start() - 40), m.start()):
            continue
        if _TOPIC_AFTER.match(text, m.end(), end):
            continue
        return m.start(), m.end(), m.group(0)
    return None


_ANSWER = regex.compile(ANSWER)
_ANSWER_CELL = regex.compile(ANSWER_CELL)
_QUESTION_MODAL = regex.compile(QUESTION_MODAL)


def _answer_reading(text: str, question: tuple[int, int], answer: tuple[int, int], *,
                    cell: bool = False) -> tuple[regex.Match, bool] | None:
    """The yes or no opening the unit ``answer`` (``cell``: the answer cell of a table's row, where a bare "Y" or
    "N" answers too) and whether it finds a problem, when ``question`` asks plainly whether something is in order
    or whether it is wrong (not both, not negated); else None."""
    m = (_ANSWER_CELL if cell else _ANSWER).match(text, *answer)
    q_start, q_end = question
    if m is None or not _asks(text[q_start:q_end]):
        return None
    cues = _cues()
    if cues["negator"].search(text, q_start, q_end):
        return None
    in_order = bool(cues["in_order"].search(text, q_start, q_end) or _QUESTION_MODAL.match(text, q_start, q_end))
    if in_order == bool(cues["wrong"].search(text, q_start, q_end)):
        return None
    return m, m["answer"].startswith("n") == in_order


def answer_verdict(text: str, question: tuple[int, int], answer: tuple[int, int], *,
                   cell: bool = False) -> tuple[int, int, str] | None:
    """The yes or no that opens the unit ``answer`` when it answers the question ``question`` (the
    unit before it, or the question cell of the answer cell's row) so as to find a problem: "No" to
    whether something is in order, "Yes" to whether something is wrong. None for any other answer or
    question, or a negated question."""
    read = _answer_reading(text, question, answer, cell=cell)
    if read is None or not read[1]:
        return None
    m = read[0]
    asked = "in order" if m["answer"].startswith("n") else "wrong"
    return m.start("answer"), m.end("answer"), f"{m['answer']!r} to whether it is {asked}"


_ANSWER_ENDS = regex.compile(r"\s*(?:[.!:]|$)")


def answer_clears(text: str, question: tuple[int, int], answer: tuple[int, int], *,
                  cell: bool = False) -> tuple[int, int] | None:
    """The mirror of :func:`answer_verdict`: a bare "Yes." to whether something is in order, or "No." to
    whether it is wrong ("Has due diligence been completed? | Yes. File 0317 is cleared."), which sets the
    point aside. A "yes, but ..." qualifies the answer and clears nothing. Returns the answer's span, its
    closing mark included."""
    read = _answer_reading(text, question, answer, cell=cell)
    ends = None if read is None or read[1] else _ANSWER_ENDS.match(text, read[0].end("answer"), answer[1])
    return (read[0].start("answer"), ends.end()) if ends else None


# A bare verdict that the sentence before it is false ("The rule took effect in 2024. False. A court set it aside."):
# that sentence is the writer's denial, not an assertion.
_DENIAL = regex.compile(r"[\s*_]*(?:" + "|".join(DENIAL_VERDICTS) + r")[\s*_]*[.!]?[\s*_]*")


def denies(text: str, start: int, end: int) -> bool:
    """The unit ``text[start:end]`` is a bare "False." (or "Not true.", "Myth.", "Wrong.", "Incorrect.")."""
    return _DENIAL.fullmatch(text, start, end) is not None


def correction_around(text: str, start: int, pos: int, pos_end: int, end: int) -> str | None:
    """A correction before the claim in its sentence, or a trailing one after it."""
    cues = _cues()
    m = cues["correction"].search(text, start, pos) or cues["correction_after"].search(text, pos_end, end)
    return m.group(0) if m else None
