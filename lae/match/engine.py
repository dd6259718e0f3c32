"""The credit rule of grader v2 (SPEC section 3): pure functions over normalized text and a
:class:`~lae.match.spec.MatchSpec`.

A finding credits when, in one discussion, a unit (sentence or table row) that *asserts*
matches one of its ``problem`` phrases (or citations) without that phrase being negated, the
discussion (heading, lead-in and, for a short section, the rest of it included) matches one of
its ``subject`` phrases, nothing in the discussion dismisses the finding, and no other finding
matches that discussion clearly better. The compiler's calibration and red team call
:func:`analyze_text` too, so they exercise exactly what scoring does.
"""

from __future__ import annotations

import bisect
import functools
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Sequence

import regex

from lae.match import assertion as assertion_model
from lae.match.cues import (APPLICATION_NOTE, ARGUMENT_ADOPTED, FUNCTION_WORDS, IN_ORDER, ITEM_PASS_MARK, OTHER_SIDE_COLUMN,
                            POINTS_UPHELD, PRIORITY_CELL, PRIORITY_CELL_LEVELS, PRIORITY_COLUMN, PRIORITY_HEADING,
                            RATING_CELL, RATING_CELL_LEVELS, RATING_COLUMN, SEVERITY_LABELS, SEVERITY_LEVEL_WORDS,
                            SEVERITY_ORDER, STATUS_COLUMN, STATUS_FAIL, STATUS_LABEL, STATUS_PASS, TRIAGE_COLUMN,
                            TRIAGE_NO)
from lae.match.evidence import ClaimOutcome, DistractorOutcome, FindingOutcome, KernelEvidence, KernelHit
from lae.match.normalize import TOKEN_RE, NormalizedText
from lae.match.polarity import (Stance, clause_start, compile_cues, correction_around, denies, dismissal_cues_by_unit, dismissal_holds,
                                escalation_cue, count_negators, governed_by_negation, is_bare_term, is_keyword_list,
                                minimized_before, negated_before,
                                stance, verdict_cue, answer_verdict, answer_clears, has_verdict_words, speech_forbidden)
from lae.match.segment import SMALL_SECTION_BLOCKS, Block, Segmented, Unit, item_number, record_columns, segment
from lae.match.spec import ClaimSpec, CompiledPhrase, CompiledTerm, DistractorSpec, FindingSpec, MatchSpec
from lae.match.phrases import GENERIC_WORDS, split_phrase
from lae.match.prefilter import TaskLiterals, LineIndex, prepare_pattern
from lae.match.terms import compiled_pattern

__all__ = ["MATCH_TIMEOUT_SECONDS", "TextAnalysis", "analyze_text", "compile_spec", "BEST_MATCH_RATIO"]

MATCH_TIMEOUT_SECONDS = 2.0
BEST_MATCH_RATIO = 0.6  # a discussion goes to the findings scoring at least this share of the best one
_NEGATION_IN_PHRASE = regex.compile(r"(?<![\p{L}])(?:not|no|never|none|nothing|nor|without|cannot|\w+n't)(?![\p{L}])")

Spans = dict[int, list[tuple[int, int]]]  # unit index -> spans


@dataclass
class TextAnalysis:
    segmented: Segmented
    findings: list[FindingOutcome]
    distractors: list[DistractorOutcome]
    claims: list[ClaimOutcome]
    timeouts: list[str] = field(default_factory=list)

    def finding(self, fid: str) -> FindingOutcome:
        return next(f for f in self.findings if f.id == fid)


_ANAPHORIC_START = regex.compile(r"\W*(?:this|that|these|those|such|it|its|they|their|the same|here|there|both|each)"
                                 r"(?![\p{L}])")
NEGATOR_REACH = 30  # a negator part of a phrase binds the content part it precedes by at most this (characters)


def _bind_negators(per_part: list[Spans], negators: list[int], u: int, spans: list[tuple[int, int]]) -> bool:
    """A negator part ("not" in `not + reasonable`) must stand just before a content part, not
    anywhere in the sentence; ``spans`` gets the binding occurrence."""
    content = [s for i, pp in enumerate(per_part) if i not in negators for s, _e in pp[u]]
    for i in negators:
        bound = [(s, e) for s, e in per_part[i][u] if any(0 <= c - e <= NEGATOR_REACH for c in content)]
        if not bound:
            return False
        spans[i] = bound[0]
    return True


@functools.lru_cache(maxsize=16384)
def _phrase_terms(phrase: str, parts: int) -> tuple[tuple[str | None, ...], tuple[int, ...]]:
    """A phrase's terms (None each when they do not pair with its ``parts`` patterns) and the
    indexes of its negator parts: fixed for a task, so worked out once, not per memo."""
    terms: tuple[str | None, ...] = tuple(split_phrase(phrase))
    if len(terms) != parts:
        terms = (None,) * parts
    return terms, tuple(i for i, t in enumerate(terms) if t and _NEGATION_IN_PHRASE.fullmatch(t.lower()))


INVENTORY_MIN_ITEMS = 5
INVENTORY_BARE_SHARE = 0.5


class _Scan:
    """Every pattern run once, on the lines its token prefilter leaves; hits grouped by unit; stances cached."""

    def __init__(self, seg: Segmented, timeout: float, lead: TaskLiterals | None = None) -> None:
        self.seg = seg
        self.timeout = timeout
        self.timeouts: list[str] = []
        self._hits: dict[str, Spans] = {}
        self._stance: dict[tuple[int, int | None], Stance] = {}
        self._dismissals: dict[int, str] | None = None
        self._cleared: dict[int, tuple[int, int]] | None = None
        self._lists: dict[int, bool] = {}
        self._notes: dict[int, int | None] = {}  # recital block -> its first unit opening an application note
        self._adopted: dict[int, bool] = {}  # block -> whether it rates the argument it reports as the memo's own
        self._upheld: frozenset[int] | None = None  # items a later verdict upholds by number
        self._record_columns: dict[int, frozenset[int]] = {}  # table header block -> its record-only columns
        self._qa_columns: dict[int, _QAColumns | None] = {}  # table header block -> its question and answer columns
        self._line_units: list[list[int]] | None = None
        self.lines = LineIndex(seg.text, lead)
        self.block_units: list[list[int]] = [[] for _ in seg.blocks]
        for u in seg.units:
            self.block_units[u.block].append(u.index)

    def pattern(self, pattern: str, term: str | None = None) -> Spans:
        """Units where ``pattern`` matches (``term``: its source, for the token prefilter)."""
        got = self._hits.get(pattern)
        if got is None:
            got = {}
            spans: list[tuple[int, int]] = []
            try:
                self.lines.spans(pattern, term, self.timeout, spans)
            except TimeoutError:
                self.timeouts.append(pattern[:80])
            for start, end in spans:
                u = self.seg.unit_at(start)
                if u is not None and end <= self.seg.units[u].end:
                    got.setdefault(u, []).append((start, end))
            self._hits[pattern] = got
        return got

    def phrase(self, phrase: CompiledPhrase) -> Spans:
        """Units where every part of the phrase occurs, with the first span of each part."""
        terms, negators = _phrase_terms(phrase.phrase, len(phrase.parts))
        if len(phrase.parts) > 1 and not self._could_meet(phrase.parts, terms):
            return {}  # no unit can hold every part: none of them need be scanned
        per_part: list[Spans] = []
        units: set[int] | None = None
        for p, t in zip(phrase.parts, terms):
            hits = self.pattern(p, t)
            units = set(hits) if units is None else units & set(hits)
            if not units:
                return {}  # later parts need not be scanned
            per_part.append(hits)
        out: Spans = {}
        for u in sorted(units or ()):
            spans = [pp[u][0] for pp in per_part]
            if negators and not _bind_negators(per_part, negators, u, spans):
                continue
            out[u] = spans
        return out

    def _could_meet(self, parts: Sequence[str], terms: Sequence[str | None]) -> bool:
        """Could one unit hold a match of every part? Not when the units a part can match in
        (those it matched in, once scanned; else those touching its prefilter's candidate lines,
        which hold every line a match lies on) have none in common."""
        common: set[int] | None = None
        for p, t in zip(parts, terms):
            hits = self._hits.get(p)
            if hits is not None:
                units = set(hits)
            else:
                lines = self.lines.candidate_lines(p, t)
                if lines is None:
                    continue  # searched over the whole text: any unit
                units = self._units_on(lines)
            common = units if common is None else common & units
            if not common:
                return False
        return True

    def _units_on(self, lines: set[int]) -> set[int]:
        """The units that touch any of ``lines``."""
        if self._line_units is None:
            starts = [s for s, _e in self.lines.lines]
            self._line_units = [[] for _ in starts]
            for unit in self.seg.units:
                first = bisect.bisect_right(starts, unit.start) - 1
                last = bisect.bisect_right(starts, max(unit.start, unit.end - 1)) - 1
                for line in range(first, last + 1):
                    self._line_units[line].append(unit.index)
        line_units = self._line_units
        return {u for line in lines for u in line_units[line]}

    def stance(self, u: int, pos: int | None = None) -> Stance:
        """The unit's stance toward what starts at ``pos`` (cached for the whole unit)."""
        key = (u, pos)
        got = self._stance.get(key)
        if got is None:
            unit = self.seg.units[u]
            block = self.seg.blocks[unit.block]
            if self.recites(u):
                got = Stance("recital", "a glossary, chronology, background or facts section")
            elif block.kind != "row" and self.block_is_list(block.index):
                got = Stance("keyword-list", "a paragraph that is a bare list of terms")
            elif self._in_record_column(block, pos):
                got = Stance("recital", "a chronology's record column, not its comment")
            elif self._denied_next(unit):
                got = Stance("denied", "the next sentence calls it false")
            else:
                got = stance(self.seg.text, unit.start, unit.end, pos, row=block.kind == "row")
                if got.kind == "reported" and self._argument_adopted(block):
                    got = Stance(None)
            self._stance[key] = got
        return got

    def recites(self, u: int) -> bool:
        """The unit is in a recital section (a glossary, chronology, background or facts) and not in an entry's
        application note: the sentence opening with ``Here:``, ``In this matter:``, ... and those after it in
        its paragraph, item or row are the memo's reading of this matter (:data:`APPLICATION_NOTE`)."""
        block = self.seg.units[u].block
        if self.seg.blocks[block].section != "recital":
            return False
        note = self._note_start(block)
        return note is None or u < note

    def _note_start(self, block: int) -> int | None:
        """The first unit of ``block`` that opens an application note (None: the block has none), cached."""
        if block not in self._notes:
            units, text = self.seg.units, self.seg.text
            self._notes[block] = next((u for u in self.block_units[block]
                                       if _APPLICATION_NOTE.match(text, units[u].start, units[u].end)), None)
        return self._notes[block]

    def _denied_next(self, unit: Unit) -> bool:
        """The next sentence of the unit's paragraph or item is a bare "False." (:func:`polarity.denies`)."""
        units = self.seg.units
        nxt = units[unit.index + 1] if unit.index + 1 < len(units) else None
        return nxt is not None and nxt.block == unit.block and denies(self.seg.text, nxt.start, nxt.end)

    def _argument_adopted(self, block: Block) -> bool:
        """Whether the memo rates the argument its block reports as its own ("This is a strong argument."):
        a rating not negated, in the same item, paragraph or row, or a later verdict on the item by its
        number (:func:`upheld_items`)."""
        got = self._adopted.get(block.index)
        if got is None:
            if self._upheld is None:
                self._upheld = upheld_items(self.seg)
            text = self.seg.text
            got = block.index in self._upheld or any(
                not negated_before(text, clause_start(text, block.start, m.start()), m.start())
                for m in _ARGUMENT_ADOPTED.finditer(text, block.start, block.end))
            self._adopted[block.index] = got
        return got

    def _in_record_column(self, block: Block, pos: int | None) -> bool:
        """Whether ``pos`` lies in a cell of a column that only records (:func:`record_columns`)."""
        cell = block.cell_at(pos)
        if cell is None or block.header is None:
            return False
        columns = self._record_columns.get(block.header)
        if columns is None:
            columns = self._record_columns[block.header] = record_columns(self.seg.text, self.seg.blocks[block.header])
        return cell in columns

    def block_is_list(self, b: int) -> bool:
        """A paragraph that is a bare list of terms, or an item of a bulleted inventory."""
        got = self._lists.get(b)
        if got is None:
            block = self.seg.blocks[b]
            got = is_keyword_list(self.seg.text[block.start:block.end])
            if not got and block.kind == "item":
                got = self._inventory(self._item_run(b))
            self._lists[b] = got
        return got

    def _item_run(self, b: int) -> list[int]:
        """The consecutive list items around item ``b`` under the same headings."""
        blocks, heads = self.seg.blocks, self.seg.blocks[b].headings
        lo, hi = b, b
        while lo > 0 and blocks[lo - 1].kind == "item" and blocks[lo - 1].headings == heads:
            lo -= 1
        while hi + 1 < len(blocks) and blocks[hi + 1].kind == "item" and blocks[hi + 1].headings == heads:
            hi += 1
        return list(range(lo, hi + 1))

    def _inventory(self, run: list[int]) -> bool:
        """A bulleted list of terms: at least INVENTORY_MIN_ITEMS items, most of them bare terms.
        Its items name things without saying anything about them, so none asserts."""
        if len(run) < INVENTORY_MIN_ITEMS:
            return False
        bare = sum(is_bare_term(self.seg.text[self.seg.blocks[i].start:self.seg.blocks[i].end]) for i in run)
        return bare >= INVENTORY_BARE_SHARE * len(run)

    def dismissal_cues(self) -> dict[int, str]:
        """Unit index -> the dismissal cue it holds (computed once)."""
        if self._dismissals is None:
            found = dismissal_cues_by_unit(self.seg.text, [(u.start, u.end) for u in self.seg.units])
            for u, (s, e) in self.cleared_answers().items():
                found.setdefault(u, self.seg.text[s:e])
            self._dismissals = found
        return self._dismissals

    def cleared_answers(self) -> dict[int, tuple[int, int]]:
        """Unit index -> the span of the answer in it that clears the question it answers (:func:`answer_clears`):
        a sentence after the question sentence, or a row of a question-and-answer table (its answer cell)."""
        if self._cleared is None:
            seg, out = self.seg, {}
            for q, a in zip(seg.units, seg.units[1:]):
                span = answer_clears(seg.text, (q.start, q.end), (a.start, a.end))
                if span and seg.blocks[a.block].kind != "row":
                    out[a.index] = span
            for u in seg.units:
                block = seg.blocks[u.block]
                qa = self.qa_columns(block)
                if qa is None:
                    continue
                span = answer_clears(seg.text, block.cells[qa.question], block.cells[qa.answer], cell=qa.yes_no)
                if span and u.start <= span[0] < u.end:
                    out[u.index] = span
            self._cleared = out
        return self._cleared

    def qa_columns(self, block: Block) -> _QAColumns | None:
        """The question and answer columns of a row's question-and-answer table (:func:`_question_answer_columns`),
        when the row has both cells."""
        if block.kind != "row" or block.header is None:
            return None
        if block.header not in self._qa_columns:
            self._qa_columns[block.header] = _question_answer_columns(self.seg, self.seg.blocks[block.header])
        qa = self._qa_columns[block.header]
        return qa if qa is not None and max(qa.question, qa.answer) < len(block.cells) else None

    def row_answered(self, block: Block) -> tuple[int, int, str] | None:
        """The answer cell of a yes/no grid's row that answers its question cell by finding a problem
        (`| Is the notice timely? | N | ... |`)."""
        qa = self.qa_columns(block)
        if qa is None or not qa.yes_no:
            return None
        return answer_verdict(self.seg.text, block.cells[qa.question], block.cells[qa.answer], cell=True)

    def units_of(self, blocks: Iterable[int]) -> set[int]:
        return {u for b in blocks for u in self.block_units[b]}


# A table that pairs questions with their answers ("| # | Question | Answer | Supporting document |"): a completed
# questionnaire, each row a question and the memo's answer to it; a yes/no grid ("| Question | Y/N | Why |") is one.
_QUESTION_HEADER = regex.compile(r"\W*(?:questions?|query|queries|requests?)\W*")
_ANSWER_HEADER = regex.compile(r"\W*(?:answers?|responses?|repl(?:y|ies))\W*")
_YES_NO_HEADER = regex.compile(r"\W*(?:y\s*/\s*n(?:\s*/\s*\?)?|yes\s*/\s*no|yes or no)\W*")


class _QAColumns(NamedTuple):
    """A question-and-answer table's question column and answer column, and whether the answer column is a yes/no
    grid's (`Y/N`), whose bare `Y` or `N` answers and whose answer that finds a problem is the row's verdict."""

    question: int
    answer: int
    yes_no: bool


def _question_answer_columns(seg: Segmented, header: Block) -> _QAColumns | None:
    """The question column and the answer column of a header row, if it has both (:class:`_QAColumns`)."""
    names = [seg.text[s:e] for s, e in header.cells]
    q = next((i for i, n in enumerate(names) if _QUESTION_HEADER.fullmatch(n)), None)
    a = next((i for i, n in enumerate(names) if _ANSWER_HEADER.fullmatch(n) or _YES_NO_HEADER.fullmatch(n)), None)
    return _QAColumns(q, a, bool(_YES_NO_HEADER.fullmatch(names[a]))) if q is not None and a is not None else None


def _discussion(seg: Segmented, b: int, *, wide: bool) -> list[int]:
    """Blocks of block ``b``'s discussion: itself, its headings (not the document title), the
    item it is nested under and that item's other sub-items, its list/table lead-in and header row, and (non-row blocks) its whole section when short;
    ``wide`` adds the block before it in the same section when ``b`` opens by referring back
    to it ("This ...", "That shipment ...", "Such ...") and a chat message's whole turn (its
    speaker's run of messages, read as one paragraph) (subject search)."""
    blk = seg.blocks[b]
    out = [b] + [h for h in blk.headings if not (h == 0 and seg.blocks[h].level == 1)]
    if blk.kind == "item":
        out += seg.item_family(b)  # a list item with its sub-items is one discussion
    out += seg.record_of(b)  # so is a field record (Evidence, Analysis, ... of one finding)
    out += [x for x in (blk.lead_in, blk.header) if x is not None]
    if wide:
        out += seg.turn_of(b)
    if blk.kind != "row":
        sec = seg.section_blocks(b)
        if blk.headings and len(sec) <= SMALL_SECTION_BLOCKS:
            out += [x for x in sec if seg.blocks[x].kind != "row"]
        elif wide and b > 0 and seg.blocks[b - 1].headings == blk.headings and seg.blocks[b - 1].kind != "heading" \
                and _ANAPHORIC_START.match(seg.text, blk.start):
            out.append(b - 1)  # "That export needed a license." continues the paragraph before
    return sorted(set(out))


def _phrase_negated(scan: _Scan, phrase: CompiledPhrase, u: int, spans: Sequence[tuple[int, int]]) -> str | None:
    """A governing negation before the phrase, or a negator before any part (its clause, a few
    words). A phrase that carries its own negator ("no recourse", "without + license": the absence
    is the problem) is checked before its first part only, so its own negator does not count."""
    text, start = scan.seg.text, scan.seg.units[u].start
    first, last = min(s for s, _e in spans), max(e for _s, e in spans)
    own = len(_NEGATION_IN_PHRASE.findall(phrase.phrase.lower()))
    if own:
        # Count negators from a few words before the phrase's first content part to its end: more
        # than the phrase's own means one more denial ("does not involve ... is not management").
        parts = split_phrase(phrase.phrase)
        content = [s for (s, _e), part in zip(spans, parts) if not _NEGATION_IN_PHRASE.fullmatch(part.lower())]
        anchor = min(content) if content else first
        if count_negators(text, start, anchor, last) > own:
            return "a further negation"
    else:
        for s, _e in spans:
            cue = negated_before(text, start, s)
            if cue:
                return cue
    return governed_by_negation(text, start, max(s for s, _e in spans))


DISMISSAL_PART_SPAN = 80  # a finding-specific dismissal's parts must lie this close together (characters)


def _close_together(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Parts of a dismissal phrase: within DISMISSAL_PART_SPAN characters, in one sentence and one cell."""
    lo, hi = min(s for s, _ in spans), max(e for _, e in spans)
    return hi - lo <= DISMISSAL_PART_SPAN and not _SENTENCE_OR_CELL_BREAK.search(text, lo, hi)


_SENTENCE_OR_CELL_BREAK = regex.compile(r"[.!?] |\|")


@dataclass
class _Matches:
    """One finding's phrase hits by unit."""

    subject: dict[int, list[tuple[CompiledPhrase, list[tuple[int, int]]]]]
    problem: dict[int, list[tuple[CompiledPhrase, list[tuple[int, int]]]]]
    dismissal: dict[int, list[tuple[CompiledPhrase, list[tuple[int, int]]]]]


def _by_unit(scan: _Scan, phrases: Sequence[CompiledPhrase]) -> dict[int, list]:
    out: dict[int, list] = {}
    for p in phrases:
        for u, spans in scan.phrase(p).items():
            out.setdefault(u, []).append((p, spans))
    return out


def _matches(scan: _Scan, f: FindingSpec) -> _Matches:
    problem = _by_unit(scan, f.problem)
    for u, found in _by_unit(scan, f.citations).items():
        problem.setdefault(u, []).extend(found)
    return _Matches(_by_unit(scan, f.subject), problem, _by_unit(scan, f.dismissals))


def _dismissal_targets(scan: _Scan, spec: MatchSpec, matches: dict[str, _Matches]) -> dict[str, dict[int, str]]:
    """For each finding, the units that dismiss it, with the cue. A dismissal cue dismisses the
    findings named in its own unit; failing that, those named in its block; failing that,
    those named in its section heading. A declined section dismisses every finding it names."""
    seg = scan.seg
    out: dict[str, dict[int, str]] = {f.id: {} for f in spec.findings}
    by_id = {f.id: f for f in spec.findings}
    # built only for the findings a block-level dismissal reaches, once each
    vocabulary = functools.cache(lambda fid: _vocabulary(by_id[fid]))
    subject_stems = functools.cache(lambda fid: _stems(by_id[fid].subject))
    for f in spec.findings:
        for u, found in matches[f.id].dismissal.items():
            unit = seg.units[u]
            if _rated_risk(seg, seg.blocks[unit.block]):
                continue
            live = [p for p, spans in found if scan.stance(u, spans[0][0]).asserts and not _phrase_negated(scan, p, u, spans)
                    and _close_together(seg.text, spans) and not _in_other_side_column(seg, seg.blocks[unit.block], spans[0][0])
                    and dismissal_holds(seg.text, unit.start, min(s for s, _ in spans), max(e for _, e in spans), unit.end)]
            if live:
                out[f.id][u] = f"finding-specific dismissal {live[0].phrase!r}"
    _status_dismissals(seg, spec, matches, out)
    cues, answered = scan.dismissal_cues(), scan.cleared_answers()
    for u in seg.units:
        block = seg.blocks[u.block]
        cue = "a section of points not escalated" if block.section == "declined" else cues.get(u.index)
        cue_at = seg.text.find(cue, u.start) if cue else -1
        if not cue or (block.section != "declined" and scan.stance(u.index, cue_at).kind in (
                "reported", "question", "hedge", "hypothetical")):
            continue
        if _in_other_side_column(seg, block, cue_at):
            continue  # another party's position ("Their draft / position: no issue") is theirs, not the memo's
        if _rated_risk(seg, block):
            continue  # a row or item that rates the point medium or above asserts it; its "irrelevant" answers an objection
        named = _named_in(spec, matches, u.index) or _antecedent(scan, spec, matches, u)
        if not named and block.headings:
            heading_units = scan.units_of([block.headings[-1]])
            named = [f.id for f in spec.findings if heading_units & set(matches[f.id].subject)]
        if block.section == "declined" or u.index in answered:
            # the section, or the answer to the question it is asked, not a cue in the sentence, sets the points aside
            for fid in named:
                out[fid].setdefault(u.index, cue)
            continue
        own = {x for fid in named for x in (*matches[fid].subject, *matches[fid].problem)}
        cue_end = cue_at + len(cue)
        if u.index not in own:
            named = [fid for fid in named
                     if not _about_something_else(seg.text, u.start, cue_at, vocabulary(fid), cue_end, u.end)]
        else:
            named = [fid for fid in named
                     if not _answers_objection(scan, by_id[fid], matches[fid], u.index, cue_at, cue_end)]
        named = [fid for fid in named if not _in_own_problem(matches[fid], u.index, cue_at, cue_end)]
        if _RELEVANCE.fullmatch(cue) or _IN_ORDER.fullmatch(cue):
            named = [fid for fid in named if not (_sets_aside_other(seg.text, subject_stems(fid), u, cue_at, cue_end)
                                                  and _asserted_beside(scan, matches[fid], u, cue_at, cue_end))]
        for fid in named:
            out[fid].setdefault(u.index, cue)
    return out


def _in_own_problem(m: _Matches, u: int, cue_at: int, cue_end: int) -> bool:
    """Is the cue part of one of the finding's own problem phrases in ``u`` ("acceptance +
    irrelevant": the key says that wording states the problem)?"""
    return any(s <= cue_at and cue_end <= e for _p, spans in m.problem.get(u, ()) for s, e in spans)


def _sets_aside_other(text: str, subject: frozenset[str], unit, cue_at: int, cue_end: int) -> bool:
    """Does the cue's clause name something besides the finding's subject ("Ownership of the
    subsidiary is irrelevant", "It is irrelevant that only its own staff use them")? Not when it
    is only anaphora or a relative pronoun ("That is irrelevant", "..., which is irrelevant") or
    the subject itself ("The indemnity is irrelevant")."""
    start = clause_start(text, unit.start, cue_at)
    for m in _POINTER.finditer(text, start, cue_at):
        start = m.end()
    words = [w for w in _WORD.findall(text, start, cue_at)
             if len(w) > 2 and w not in FUNCTION_WORDS and w not in _DISMISSAL_ANAPHORA]
    if words:
        return any(w[:5] not in subject for w in words)
    after = _extraposed_words(text, cue_end, unit.end)
    return bool(after) and not any(w[:5] in subject for w in after)  # a clause that names the subject is about it


def _extraposed_words(text: str, cue_end: int, end: int) -> list[str]:
    """The content words, anaphora and generic nouns aside, of the clause a relevance cue introduces
    ("It is irrelevant that X", "it makes no difference whether X"): what the cue sets aside when
    nothing stands before it."""
    m = _EXTRAPOSED.match(text, cue_end, end)
    if m is None:
        return []
    stop = _CLAUSE_STOP.search(text, m.end(), end)
    return [w for w in _content_words(text[m.end():stop.start() if stop else end]) if w not in _DISMISSAL_ANAPHORA]


def _asserted_beside(scan: _Scan, m: _Matches, unit, cue_at: int, cue_end: int) -> bool:
    """Does the block of ``unit`` assert the finding's problem outside the cue at ``cue_at``? Then
    "... is irrelevant" there sets aside a consideration (an objection, a holiday, the parent's
    ownership), not the problem the same discussion asserts."""
    for u in scan.block_units[unit.block]:
        for p, spans in m.problem.get(u, ()):
            first, last = min(s for s, _e in spans), max(e for _s, e in spans)
            if (last <= cue_at or first >= cue_end) and scan.stance(u, first).asserts \
                    and not _phrase_negated(scan, p, u, spans):
                return True
    return False


def _status_dismissals(seg: Segmented, spec: MatchSpec, matches: dict[str, _Matches],
                       out: dict[str, dict[int, str]]) -> None:
    """A compliance-matrix row whose status column passes it ("Met", "Compliant"), or a checklist item
    its pass mark clears ("[ok]"), and which neither rates its point nor marks it failing dismisses
    the findings it names."""
    for u in seg.units:
        block = seg.blocks[u.block]
        passed = _passing_status(seg, block)
        if not passed or _rated_risk(seg, block):
            continue
        for fid in _named_in(spec, matches, u.index):
            out[fid].setdefault(u.index, f"{_form_noun(block)} marked {passed!r}")


def _antecedent(scan: _Scan, spec: MatchSpec, matches: dict[str, _Matches], unit: Unit) -> list[str]:
    """What a dismissal that names nothing ("Note it, move on.") sets aside: the point it follows
    in its block. Walking back from it, every finding whose subject a sentence names, up to and
    including the nearest sentence that states a point (names a finding's subject and problem):
    a note's paragraph runs through several points and the dismissal closes the last, with the
    action and rating lines after it ("... 24 still in use. VSD; stop use. Critical."). With
    nothing named before it, every finding whose subject the block names."""
    block_units = sorted(scan.units_of([unit.block]))
    named: list[str] = []
    for v in reversed([v for v in block_units if v < unit.index]):
        named += [f.id for f in spec.findings if v in matches[f.id].subject and f.id not in named]
        if any(v in matches[f.id].subject and v in matches[f.id].problem for f in spec.findings):
            break
    if named:
        return named
    same_block = set(block_units)
    return [f.id for f in spec.findings if same_block & set(matches[f.id].subject)]


def _named_in(spec: MatchSpec, matches: dict[str, _Matches], u: int) -> list[str]:
    """The findings whose subject or problem unit ``u`` names."""
    return [f.id for f in spec.findings if u in matches[f.id].subject or u in matches[f.id].problem]


def _answers_objection(scan: _Scan, f: FindingSpec, m: _Matches, u: int, cue_at: int, cue_end: int) -> bool:
    """A dismissal in a sentence that asserts the finding's problem in another clause sets aside
    an objection to it, not the finding, when its own clause is about some other thing than the
    finding's subject ("effective on delivery; acceptance irrelevant", "that is an export to China;
    the subsidiary's ownership is irrelevant" is not: it names the subject)."""
    seg = scan.seg
    unit = seg.units[u]
    clause = clause_start(seg.text, unit.start, cue_at)
    if not _about_something_else(seg.text, unit.start, cue_at, _stems(f.subject), cue_end, unit.end):
        return False
    return any((max(e for _s, e in spans) <= clause or min(s for s, _e in spans) >= cue_end)
               and scan.stance(u, spans[0][0]).asserts and not _phrase_negated(scan, p, u, spans)
               for p, spans in m.problem.get(u, ()))


_WORD = regex.compile(r"\p{L}+")
# what a relevance cue's clause may point back with ("That is irrelevant", "..., which is irrelevant")
_POINTER = regex.compile(r"(?<!\p{L})(?:which|that|this|it|these|those)(?!\p{L})")
# Dismissals that deny a consideration any bearing ("Memorial Day is irrelevant"): beside the
# finding's problem, asserted in the same block, they answer an objection (_asserted_beside).
# So do verdicts that something else is in order ("the VSP tab is in order", "... are acceptable").
_IN_ORDER = regex.compile(IN_ORDER)
_RELEVANCE = regex.compile(r"irrelevant|not relevant|beside the point|(?:does|do)(?: not|n't) matter|makes no difference")
# "It is irrelevant that X": the clause after the cue is what it sets aside, up to the clause's end
_EXTRAPOSED = regex.compile(r"[\s,]*(?:that|whether|if)(?![\p{L}\p{N}])")
_CLAUSE_STOP = regex.compile(r"[;:]|\.(?:\s|$)")

# Words a dismissal's clause may hold and still be about the point in hand: anaphora and generic nouns.
_DISMISSAL_ANAPHORA = GENERIC_WORDS | frozenset(
    "point points matter matters item items question questions aspect aspects topic topics one ones "
    "everything anything nothing none both either neither here also too therefore thus otherwise remains "
    "remain i me my view think believe consider considered agree regard regarded treat treated see".split())


def _content_words(text: str) -> list[str]:
    return [w for w in TOKEN_RE.findall(text) if len(w) > 2 and w not in FUNCTION_WORDS]


def _stems(phrases: Iterable[CompiledPhrase]) -> frozenset[str]:
    """Five-letter stems of the content words (three letters or more) of ``phrases``."""
    return frozenset(w[:5] for p in phrases for w in _content_words(p.phrase.lower()))


def _vocabulary(f: FindingSpec) -> frozenset[str]:
    """The stems of a finding's phrases (subject, problem, citations, dismissals)."""
    return _stems((*f.subject, *f.problem, *f.citations, *f.dismissals))


def _about_something_else(text: str, start: int, cue_at: int, vocabulary: frozenset[str], cue_end: int,
                          end: int) -> bool:
    """A dismissal is not of a finding when its clause is about some other thing ("Ownership of
    the subsidiary is irrelevant", "...; Memorial Day is irrelevant", "It is irrelevant that only
    its own staff use them": the clause it introduces): the clause names content words, none of
    which belong to the finding's phrases."""
    words = [w for w in _content_words(text[clause_start(text, start, cue_at):cue_at])
             if w not in _DISMISSAL_ANAPHORA and not w.isdigit()]
    if not words:
        words = [w for w in _extraposed_words(text, cue_end, end) if not w.isdigit()]
    return bool(words) and not any(w[:5] in vocabulary for w in words)


def _form_noun(block) -> str:
    """How a reason names a rated or marked block: "a row" of a table, else "an item" of a list."""
    return "a row" if block.kind == "row" else "an item"


def _rating_verdict(seg: Segmented, block, unit) -> tuple[int, int, str] | None:
    """A table row or list item that rates its point medium or above, or marks it as failing its
    requirement ("Not met", "Status: partly met"), says it is a risk: it is the verdict."""
    what = _form_noun(block)
    level = _risk_level(seg, block)
    if level:
        return unit.start, unit.end, f"{what} rated {level}"
    status = _failing_status(seg, block)
    return (unit.start, unit.end, f"{what} marked {status!r}") if status else None


def _levels(seg: Segmented, block) -> list[str]:
    """The severity levels a table row or a list item states (none for other blocks)."""
    return _row_levels(seg, block) if block.kind == "row" else _item_levels(seg, block) if block.kind == "item" else []


def _risk_level(seg: Segmented, block) -> str | None:
    """The first level of medium or above that a table row or a list item states, if any."""
    return next((level for level in _levels(seg, block) if level in ("medium", "high", "critical")), None)


def _status_cells(seg: Segmented, block, column: regex.Pattern | None = None) -> list[str]:
    """The cells of a table row that sit in a compliance status column ("Status", "Met?"), or in
    ``column`` when given."""
    if block.kind != "row" or block.header is None:
        return []
    headers = seg.blocks[block.header].cells
    column = column or _STATUS_COLUMN
    return [seg.text[s:e].strip(" *") for i, (s, e) in enumerate(block.cells)
            if i < len(headers) and column.match(seg.text[headers[i][0]:headers[i][1]].strip(" *"))]


def _in_other_side_column(seg: Segmented, block: Block, pos: int | None) -> bool:
    """Whether ``pos`` sits in a table column that gives another party's position ("Their draft /
    position"): a dismissal there is that party's, not the memo's."""
    cell = block.cell_at(pos)
    headers = seg.blocks[block.header].cells if block.header is not None else ()
    if cell is None or cell >= len(headers):
        return False
    return bool(_OTHER_SIDE_COLUMN.match(seg.text[headers[cell][0]:headers[cell][1]].strip(" *")))


def _failing_status(seg: Segmented, block) -> str | None:
    """The failing value ("not met", "partly met", "fail") that a row's status column or a list
    item's "Status:" label gives its requirement, if any."""
    if block.kind == "item":
        m = _STATUS_LABEL.search(seg.text, block.start, block.end)
        return m.group("status") if m else None
    return next((m.group("status") for m in map(_STATUS_FAIL.match, _status_cells(seg, block)) if m), None)


def _passing_status(seg: Segmented, block) -> str | None:
    """The passing value ("Met", "Compliant", "\u2713") a table row's status column holds alone, or
    the negative answer ("No", "Probably not") its triage column ("Worth a look?") gives, or the pass
    mark a checklist item opens with ("[ok]"), if any (none for other blocks): its point is not a problem."""
    if block.kind == "item":
        m = _ITEM_PASS_MARK.match(seg.text, block.start, block.end)
        return m.group(0).strip(" *") if m else None
    return next((cell for cell in _status_cells(seg, block) if _STATUS_PASS.match(cell)), None) or \
        next((cell for cell in _status_cells(seg, block, _TRIAGE_COLUMN) if _TRIAGE_NO.match(cell)), None)


def _item_levels(seg: Segmented, block) -> list[str]:
    """The severity levels a list item states as labels ("Risk: high", "sev hi", "(critical)")."""
    text = seg.text[block.start:block.end].strip(" *")
    return [SEVERITY_LEVEL_WORDS[m.group("level")] for pat in _label_patterns() for m in pat.finditer(text)]


def _graded_down(seg: Segmented, block) -> str | None:
    """A table row or list item that rates its point low and nothing higher ("Low", "sev lo",
    "P3"), or a row its status column passes ("Met", "Compliant"): what it says of its point."""
    if _failing_status(seg, block):
        return None
    levels = _levels(seg, block)
    if levels and all(level == "low" for level in levels):
        return "rated low"
    passed = _passing_status(seg, block)
    return f"marked {passed!r}" if passed else None


def _rated_risk(seg: Segmented, block) -> bool:
    """A row or item that rates its point medium or above or marks it as failing asserts it."""
    return _risk_level(seg, block) is not None or _failing_status(seg, block) is not None


def _row_levels(seg: Segmented, block) -> list[str]:
    """The severity levels a table row states: a label in a cell ("High", "Severity: high"), or a
    short value ("H", "Med", "Red", "4/5") in a column whose header rates ("Sev", "Risk", "I"), or a
    priority code ("P1") in a priority column;
    failing those, the urgency of the heading its table sits under ("Fix now", "Watch")."""
    text = seg.text
    headers = seg.blocks[block.header].cells if block.header is not None else ()
    out = []
    for i, (s, e) in enumerate(block.cells):
        cell = text[s:e].strip(" *")
        labels = [m.group("level") for m in (pat.search(cell) for pat in _label_patterns()) if m]
        out += [SEVERITY_LEVEL_WORDS[level] for level in labels]
        header = text[headers[i][0]:headers[i][1]] if i < len(headers) else ""
        m = None if labels else _RATING_CELL.match(cell)
        if m and _RATING_COLUMN.match(header):
            out.append(RATING_CELL_LEVELS[m.group("level")])
        m = None if labels else _PRIORITY_CELL.match(cell)
        if m and _PRIORITY_COLUMN.match(header):
            out.append(PRIORITY_CELL_LEVELS[m.group("level")])
    if not out and block.header is not None and block.headings:
        heading = seg.blocks[block.headings[-1]]
        m = _PRIORITY_HEADING.match(text[heading.start:heading.end].strip(" *"))
        if m:
            out.append(m.lastgroup)
    return out


_RATING_COLUMN = regex.compile(RATING_COLUMN)
_RATING_CELL = regex.compile(RATING_CELL)
_STATUS_COLUMN = regex.compile(STATUS_COLUMN)
_OTHER_SIDE_COLUMN = regex.compile(OTHER_SIDE_COLUMN, regex.IGNORECASE)
_ARGUMENT_ADOPTED = regex.compile(ARGUMENT_ADOPTED)
_STATUS_FAIL = regex.compile(STATUS_FAIL)
_APPLICATION_NOTE = regex.compile(APPLICATION_NOTE)
_STATUS_PASS = regex.compile(STATUS_PASS)
_ITEM_PASS_MARK = regex.compile(ITEM_PASS_MARK)
_TRIAGE_COLUMN = regex.compile(TRIAGE_COLUMN)
_TRIAGE_NO = regex.compile(TRIAGE_NO)
_STATUS_LABEL = regex.compile(STATUS_LABEL)
_PRIORITY_HEADING = regex.compile(PRIORITY_HEADING)
_PRIORITY_COLUMN = regex.compile(PRIORITY_COLUMN)
_PRIORITY_CELL = regex.compile(PRIORITY_CELL)
_POINTS_UPHELD = regex.compile(POINTS_UPHELD)
_POINT_NUMBER = regex.compile(r"\d{1,2}")
_POINT_RANGE = regex.compile(r"(\d{1,2})(?: to| through| ?[-\u2013])\s*(\d{1,2})")


def _point_numbers(spec: str) -> set[int]:
    """The numbers a verdict names: "1, 3 and 4", "1 through 6", "1-7"."""
    out = {int(n) for n in _POINT_NUMBER.findall(spec)}
    for lo, hi in _POINT_RANGE.findall(spec):
        out.update(range(int(lo), int(hi) + 1))
    return out


def upheld_items(seg: Segmented) -> frozenset[int]:
    """The list items, with their sub-items, that a later verdict not negated upholds by number ("Points 1
    through 6 would succeed", "Point 6 succeeds"): the memo adopts the case it set out point by point."""
    text = seg.text
    verdicts = [(m.start(), _point_numbers(m.group(1))) for m in _POINTS_UPHELD.finditer(text)
                if not negated_before(text, text.rfind("\n", 0, m.start()) + 1, m.start())]
    out: set[int] = set()
    for b in seg.blocks if verdicts else ():
        top = b
        while top.parent is not None:
            top = seg.blocks[top.parent]
        n = item_number(text, top)
        if n is not None and any(pos > top.end and n in numbers for pos, numbers in verdicts):
            out.add(b.index)
    return frozenset(out)


@dataclass
class _Candidate:
    finding: str
    unit: int
    block: int
    score: int
    hits: list[KernelHit]
    reason: str = ""  # empty: the rule credits; else why the rule did not (a soft rejection the model may overturn)


Hit = tuple[int, int, str, str]  # start, end, category, term (KernelHit is built only for evidence)


def _hits(category: str, items: Iterable[tuple[CompiledPhrase, list[tuple[int, int]]]]) -> list[Hit]:
    return [(s, e, category, p.phrase) for p, spans in items for s, e in spans]


def _evidence(scan: _Scan, u: int, hits: list[Hit], reason: str, assertion: str | None = None) -> KernelEvidence:
    block = scan.seg.blocks[scan.seg.units[u].block]
    typed = [KernelHit(category=c, term=t, start=s, end=e) for s, e, c, t in sorted(set(hits))]  # type: ignore[arg-type]
    return KernelEvidence(start=block.start, end=block.end, hits=typed, reason=reason, assertion=assertion)


class _FindingJudge:
    """Decides one finding: candidates (credit units) and the best near miss."""

    def __init__(self, scan: _Scan, f: FindingSpec, m: _Matches, dismissed: dict[int, str]) -> None:
        self.scan, self.f, self.m, self.dismissed = scan, f, m, dismissed
        self.candidates: list[_Candidate] = []
        self.soft: list[_Candidate] = []  # rejected for how it is said, subject and problem both present
        self.misses: dict[str, tuple[int, list[Hit], str, str | None]] = {}
        self.citations = {p.phrase for p in f.citations}
        self.problem_stems = assertion_model.problem_stems(f.title, tuple(p.phrase for p in (*f.problem, *f.citations)),
                                                           tuple(p.phrase for p in f.subject))

    def miss(self, status: str, u: int, hits: list[Hit], reason: str, assertion: str | None = None) -> None:
        self.misses.setdefault(status, (u, hits, reason, assertion))

    def _subject_hits(self, block: int) -> list[Hit]:
        units = self.scan.units_of(_discussion(self.scan.seg, block, wide=True))
        return _hits("subject", [(p, s) for x in sorted(units & set(self.m.subject)) for p, s in self.m.subject[x]])

    def soft_miss(self, status: str, u: int, hits: list[Hit], reason: str, tag: str, assertion: str | None = None) -> None:
        """A miss for how the problem is said (stance, negation, citation, heading, dismissal):
        recorded as a near miss and, where the discussion names the subject, as a candidate the
        assertion model may overturn (``tag`` says which soft rule rejected it)."""
        self.miss(status, u, hits, reason, assertion)
        block = self.scan.seg.units[u].block
        subj = [h for h in hits if h[2] == "subject"] or self._subject_hits(block)
        if subj:
            self.soft.append(_Candidate(self.f.id, u, block, 0, [h for h in hits if h[2] != "subject"] + subj, tag))

    def run(self) -> None:
        seg = self.scan.seg
        for u, found in sorted(self.m.problem.items()):
            hits = _hits("problem", found)
            asserted = [(p, s) for p, s in found if self.scan.stance(u, min(a for a, _b in s)).asserts]  # "X assumes A, but B"
            if not asserted:
                st = self.scan.stance(u, min(s for _p, spans in found for s, _e in spans))
                self.soft_miss("not-asserted", u, hits, f"the problem is stated but not asserted ({st.kind}: {st.cue!r})",
                               str(st.kind), f"{st.kind}: {st.cue}")
                continue
            found = asserted
            block = seg.units[u].block
            rated = _rated_risk(seg, seg.blocks[block])
            live = found if rated else [(p, s) for p, s in found if not _phrase_negated(self.scan, p, u, s)]
            if not live:
                cue = _phrase_negated(self.scan, found[0][0], u, found[0][1])
                self.soft_miss("not-asserted", u, hits, f"the problem is negated ({cue!r})", "negated", f"negated: {cue}")
                continue
            if seg.blocks[block].kind == "heading" and not self._heading_backed(block):
                self.soft_miss("not-asserted", u, hits, "named only in a heading with no asserted analysis under it",
                               "heading", "heading")
                continue
            if all(p.phrase in self.citations for p, _s in live) and not self._citation_asserted(u):
                self.soft_miss("not-asserted", u, hits, "a citation mentioned without saying that this matter breaks "
                               "it (needs the subject and violation language in the same sentence)", "citation",
                               "citation only")
                continue
            self._judge_unit(u, live, block)

    def verdict(self, u: int, naming: list[int]) -> None:
        """A sentence naming this finding's subject (or continuing the ``naming`` sentences of its
        block) that says in general words that it is wrong ("the exception isn't valid",
        "That's backwards."): a candidate of its own, scored below any key phrase."""
        seg = self.scan.seg
        unit = seg.units[u]
        block = seg.blocks[unit.block]
        if self.scan.recites(u):
            return
        if block.kind == "heading":  # a heading concludes only as a question answered, with analysis under it
            cue = _answered(seg, u) if self._heading_backed(block.index) else None
        else:
            cue = verdict_cue(seg.text, unit.start, unit.end) or _rating_verdict(seg, block, unit) or _answered(seg, u) \
                or self.scan.row_answered(block)
        if cue is None or not self.scan.stance(u, cue[0]).asserts:
            self.subject_only(u)
            return
        scope = self.scan.units_of(_discussion(seg, block.index, wide=False)) | {u}
        if any(x in self.dismissed for x in scope):
            return
        subject = [(p, sp) for x in naming if x in self.m.subject for p, sp in self.m.subject[x]]
        hits = _hits("subject", subject) + [(cue[0], cue[1], "cue", f"verdict: {cue[2]}")]
        self.candidates.append(_Candidate(self.f.id, u, block.index, 1, hits))

    def subject_only(self, u: int) -> None:
        """A sentence naming this finding's subject (and no finding's problem phrase, nor a verdict
        in general words) that asserts something outside a recital, heading or dismissed discussion:
        a soft candidate the assertion model may rescue ("po splitting -> split the order into
        singles to dodge the EUS"); the rule alone never credits it. A sentence whose verdict words
        the rule read as negated, conditional or quoted ("is not unenforceable") is not one: the
        rule has read what it says."""
        seg = self.scan.seg
        unit = seg.units[u]
        block = seg.blocks[unit.block]
        if u not in self.m.subject or self.scan.recites(u) or block.kind == "heading":
            return
        if has_verdict_words(seg.text, unit.start, unit.end):
            return
        if not self.scan.stance(u).asserts:
            return
        scope = self.scan.units_of(_discussion(seg, block.index, wide=False)) | {u}
        if any(x in self.dismissed for x in scope):
            return
        self.soft.append(_Candidate(self.f.id, u, block.index, 0, _hits("subject", self.m.subject[u]), "subject-only"))

    def _citation_asserted(self, u: int) -> bool:
        """A citation alone is a problem only beside the subject and violation language in its unit,
        or in a row or list item that rates its point medium or above and names the subject."""
        block = self.scan.seg.blocks[self.scan.seg.units[u].block]
        if _rated_risk(self.scan.seg, block):
            return bool(self.scan.units_of([block.index]) & set(self.m.subject))
        if u not in self.m.subject:
            return False
        unit = self.scan.seg.units[u]
        text = self.scan.seg.text
        cue = escalation_cue(text, unit.start, unit.end)
        return bool(cue) and not negated_before(text, unit.start, text.find(cue, unit.start))

    def _heading_backed(self, heading: int) -> bool:
        """A heading names the problem for the text under it: some prose sentence there that
        asserts and names the subject (the analysis need not repeat the problem's name)."""
        seg, text = self.scan.seg, self.scan.seg.text
        under = [b.index for b in seg.blocks if heading in b.headings and b.kind != "heading"]
        for u in sorted(self.scan.units_of(under) & set(self.m.subject)):
            unit = seg.units[u]
            words = TOKEN_RE.findall(text[unit.start:unit.end])
            if len(words) >= 6 and any(w in FUNCTION_WORDS for w in words) and self.scan.stance(u).asserts:
                return True
        return False

    def _judge_unit(self, u: int, live: list, block: int) -> None:
        seg = self.scan.seg
        hits = _hits("problem", live)
        subject_units = self.scan.units_of(_discussion(seg, block, wide=True))
        subj = [(p, s) for x in sorted(subject_units & set(self.m.subject)) for p, s in self.m.subject[x]]
        if not subj:
            self.miss("no-subject", u, hits, "the problem is asserted but the discussion never names this matter's "
                      "subject (who or what it is about)")
            return
        hits += _hits("subject", subj)
        scope = self.scan.units_of(_discussion(seg, block, wide=False)) | {u}
        killers = sorted(x for x in scope if x in self.dismissed)
        if killers:
            x = killers[0]
            unit = seg.units[x]
            cue = self.dismissed[x]
            self.soft_miss("dismissed", u, hits + [(unit.start, unit.end, "dismissal", cue)],
                           f"raised but dismissed in the same discussion ({cue!r})", "dismissed")
            return
        score = 2 * len({p.phrase for p, _s in live}) + len({p.phrase for p, _s in subj})
        self.candidates.append(_Candidate(self.f.id, u, block, score, hits))


def _answered(seg: Segmented, u: int) -> tuple[int, int, str] | None:
    """The yes or no opening ``u`` that answers the question just before it by finding a problem."""
    if u == 0:
        return None
    q, a = seg.units[u - 1], seg.units[u]
    return answer_verdict(seg.text, (q.start, q.end), (a.start, a.end))


def _verdicts(judges: dict[str, _FindingJudge]) -> None:
    """Offer each sentence with a verdict in general words and no key problem phrase to the one
    finding whose subject it names most (distinct subject phrases; a tie names no one finding).
    A short or anaphoric sentence ("That's backwards.") speaks of what its block named before it;
    an answer ("Answer: No.") of what its question named."""
    named: dict[int, dict[str, set[str]]] = {}
    for fid, j in judges.items():
        for u, found in j.m.subject.items():
            named.setdefault(u, {})[fid] = {p.phrase for p, _s in found}
    if not named:
        return
    seg = next(iter(judges.values())).scan.seg
    worded = {u for j in judges.values() for u in j.m.problem}
    near = set(named) | {u + 1 for u in named if u + 1 < len(seg.units)} | {u - 1 for u in named if u > 0}
    for u in sorted(near):
        if u in worded:
            continue
        answers = u - 1 in named and _answered(seg, u) is not None
        leads = not answers and u not in named and _leads(seg, u)
        if answers:
            counts = {fid: found | named.get(u, {}).get(fid, set()) for fid, found in named[u - 1].items()}
        elif leads:
            counts = _named_in_block(seg, u, named, after=True)
        else:
            counts = _named_in_block(seg, u, named) if _continues(seg, u) else named.get(u, {})
        if not counts:
            continue
        top = max(len(v) for v in counts.values())
        best = [fid for fid, v in counts.items() if len(v) == top]
        if len(best) == 1 and not judges[best[0]].candidates:
            naming = [u - 1] if answers else []
            naming += [x for x in named if seg.units[x].block == seg.units[u].block and (x <= u or leads)]
            judges[best[0]].verdict(u, sorted(set(naming)))


VERDICT_FOLLOW_WORDS = 8  # a sentence this short (or opening with "that", "this", ...) continues the one before


def _continues(seg: Segmented, u: int) -> bool:
    """A short or anaphoric sentence that names nothing itself continues what its block said before it."""
    unit = seg.units[u]
    if u == 0 or seg.units[u - 1].block != unit.block:
        return False
    short = len(TOKEN_RE.findall(seg.text, unit.start, unit.end)) <= VERDICT_FOLLOW_WORDS
    return short or bool(_ANAPHORIC_START.match(seg.text, unit.start, unit.end))


def _leads(seg: Segmented, u: int) -> bool:
    """A short sentence opening its block, with more of the block after it, speaks of what follows
    ("7:49 pm: worse." then the facts; "doc demands also bad." then the forms it means)."""
    unit = seg.units[u]
    if u + 1 >= len(seg.units) or seg.units[u + 1].block != unit.block:
        return False
    if u > 0 and seg.units[u - 1].block == unit.block:
        return False
    return len(TOKEN_RE.findall(seg.text, unit.start, unit.end)) <= VERDICT_FOLLOW_WORDS


def _named_in_block(seg: Segmented, u: int, named: dict[int, dict[str, set[str]]],
                    after: bool = False) -> dict[str, set[str]]:
    """Subject phrases named in ``u``'s block up to and including ``u`` (or from ``u`` on), by finding."""
    block = seg.units[u].block
    out: dict[str, set[str]] = {}
    span = range(u, len(seg.units)) if after else range(u, -1, -1)
    for x in span:
        if seg.units[x].block != block:
            break
        for fid, phrases in named.get(x, {}).items():
            out.setdefault(fid, set()).update(phrases)
    return out


def _assign(judges: dict[str, _FindingJudge]) -> None:
    """Give each block to the findings that match it best (vocabulary overlap is not credit)."""
    by_block: dict[int, list[_Candidate]] = {}
    for j in judges.values():
        for c in j.candidates:
            by_block.setdefault(c.block, []).append(c)
    for block, cands in by_block.items():
        best: dict[str, int] = {}
        for c in cands:
            best[c.finding] = max(best.get(c.finding, 0), c.score)
        top = max(best.values())
        losers = {fid for fid, s in best.items() if s < BEST_MATCH_RATIO * top}
        winner = max(best, key=lambda fid: (best[fid], fid))
        winners = [judges[fid] for fid in best if fid not in losers]
        for fid in losers:
            j = judges[fid]
            for c in [c for c in j.candidates if c.block == block and not _own_sentence(j, c, winners)]:
                j.candidates.remove(c)
                j.miss("lost-to-other", c.unit, c.hits, f"this discussion matches {winner} better")


def _own_sentence(judge: _FindingJudge, c: _Candidate, winners: list[_FindingJudge]) -> bool:
    """A sentence that names a finding's subject and asserts its problem, with none of the
    winning findings' problem phrases in the same clause, is that finding's own point, whatever else its paragraph
    discusses (a dense paragraph may raise two findings one sentence each). A citation alone
    does not make the sentence its own; a verdict candidate's sentence always is."""
    if any(cat == "cue" for _s, _e, cat, _t in c.hits):
        return True  # a verdict: its sentence names this finding most and holds no finding's problem phrase
    worded = [s for s, _e, cat, term in c.hits if cat == "problem" and term not in judge.citations]
    if not worded or c.unit not in judge.m.subject:
        return False
    rivals = [s for w in winners for _p, spans in w.m.problem.get(c.unit, ()) for s, _e in spans]
    text = judge.scan.seg.text
    return any(not any(_one_clause(text, s, r) for r in rivals) for s in worded)


_CLAUSE_BREAK = regex.compile(r"[;|]")


def _one_clause(text: str, a: int, b: int) -> bool:
    """No semicolon or cell border between ``a`` and ``b``: a unit that lists several points one clause each
    ("the export needs a licence that will be denied; the option is an in-country transfer") gives each its own."""
    return _CLAUSE_BREAK.search(text, min(a, b), max(a, b)) is None


_MISS_ORDER = ("dismissed", "lost-to-other", "not-asserted", "no-subject")


def _example(f: FindingSpec) -> str:
    subject = f.subject[0].phrase.replace(" + ", " ... ")
    problem = f.problem[0].phrase.replace(" + ", " ... ")
    return f"an asserted sentence naming the subject and what is wrong, e.g. '{subject} ... {problem}'"


def _level_ok(f: FindingSpec, level: str) -> bool:
    want, got = SEVERITY_ORDER.index(f.severity), SEVERITY_ORDER.index(level)
    return abs(want - got) <= 1


@functools.lru_cache(maxsize=1)
def _label_patterns() -> tuple[regex.Pattern, ...]:
    return tuple(regex.compile(p) for p in SEVERITY_LABELS)


def _severity_in(scan: _Scan, f: FindingSpec, units: set[int]) -> bool:
    if any(units.intersection(scan.pattern(t.pattern, t.term)) for t in f.severity_terms):
        return True
    text = scan.seg.text
    for u in units:
        unit = scan.seg.units[u]
        block = scan.seg.blocks[unit.block]
        if block.kind == "row":
            if any(_level_ok(f, level) for level in _row_levels(scan.seg, block)):
                return True
            continue
        for pat in _label_patterns():
            m = pat.search(text[unit.start:unit.end].strip(" *"))
            if m and _level_ok(f, SEVERITY_LEVEL_WORDS[m.group("level")]):
                return True
    return False


def _remediation_in(scan: _Scan, f: FindingSpec, units: set[int]) -> bool:
    text = scan.seg.text
    for t in f.remediation:
        for u, spans in scan.pattern(t.pattern, t.term).items():
            if u not in units:
                continue
            unit = scan.seg.units[u]
            if u in scan.dismissal_cues() or negated_before(text, unit.start, spans[0][0]):
                continue
            return True
    return False


def _support(scan: _Scan, f: FindingSpec, m: _Matches, blocks: set[int]) -> tuple[bool, bool, bool]:
    """Severity, remediation and record stated in the credited discussions, their headings, or
    (severity labels, recommendations) anywhere else in the memo that names the same subject."""
    seg = scan.seg
    scope: set[int] = set()
    for b in blocks:
        scope |= scan.units_of(_discussion(seg, b, wide=True))
    naming_blocks = {seg.units[u].block for u in m.subject}
    elsewhere = scan.units_of(naming_blocks)
    recommend = scan.units_of(b for b in naming_blocks if seg.blocks[b].section == "recommendations")
    severity = _severity_in(scan, f, scope) or _severity_in(scan, f, elsewhere - scope)
    remediation = _remediation_in(scan, f, scope | recommend)
    record = any(scope.intersection(scan.pattern(t.pattern, t.term)) for t in f.record)
    return severity, remediation, record


def _grounded(seg: Segmented, matches: Iterable[_Matches]) -> float:
    """The share of the memo's units that name a subject of any finding (rounded for the features)."""
    named = set().union(*(m.subject for m in matches))
    return round(len(named) / max(1, len(seg.units)), 6)


def _crowd(judges: dict[str, _FindingJudge]) -> dict[str, int]:
    """For each finding, how many other findings had a credit candidate in its candidate blocks."""
    by_block: dict[int, set[str]] = {}
    for j in judges.values():
        for c in j.candidates:
            by_block.setdefault(c.block, set()).add(j.f.id)
    return {fid: len(set().union(*(by_block[c.block] for c in j.candidates)) - {fid}) if j.candidates else 0
            for fid, j in judges.items()}


def _model_score(judge: _FindingJudge, candidates: list[_Candidate], crowd: int, grounded: float):
    return assertion_model.score(judge.scan.seg, [assertion_model.Candidate(x.unit, x.block, tuple(x.hits), x.reason)
                                                  for x in candidates], crowd, grounded, judge.problem_stems)


def _credit(judge: _FindingJudge, candidates: list[_Candidate], model, reason: str) -> FindingOutcome:
    scan, f = judge.scan, judge.f
    c = min(candidates, key=lambda c: c.unit)
    sev, rem, rec = _support(scan, f, judge.m, {x.block for x in candidates})
    ev = _evidence(scan, c.unit, c.hits, reason + assertion_model.explain(model)).model_copy(update={"model": model})
    return FindingOutcome(id=f.id, credited=True, status="credited", credit=ev, severity_window=sev,
                          remediation_window=rem, record_window=rec)


def _finding_outcome(judge: _FindingJudge, crowd: int = 0, grounded: float = 0.0) -> FindingOutcome:
    scan, f = judge.scan, judge.f
    if judge.candidates:
        model = _model_score(judge, judge.candidates, crowd, grounded)
        if not model.vetoed:
            return _credit(judge, judge.candidates, model, "asserts the problem, names the subject, not dismissed; ")
        c = min(judge.candidates, key=lambda c: c.unit)  # the rule proposes, the assertion model vetoes
        ev = _evidence(scan, c.unit, c.hits, assertion_model.explain(model), "assertion model")
        return FindingOutcome(id=f.id, status="not-asserted", near_miss=ev.model_copy(update={"model": model}),
                              example=_example(f))
    soft = _model_score(judge, judge.soft, crowd, grounded) if judge.soft else None
    if soft is not None and soft.rescued:
        tags = ", ".join(sorted({x.reason for x in judge.soft}))
        return _credit(judge, judge.soft, soft, f"names the subject and the problem; the rule read it as {tags}; ")
    for status in _MISS_ORDER:
        if status in judge.misses:
            u, hits, reason, assertion = judge.misses[status]
            ev = _evidence(scan, u, hits, reason, assertion)
            if soft is not None:
                ev = ev.model_copy(update={"model": soft, "reason": f"{reason}; {assertion_model.explain(soft)}"})
            return FindingOutcome(id=f.id, status=status, near_miss=ev, example=_example(f))  # type: ignore[arg-type]
    if judge.m.subject:
        u = min(judge.m.subject)
        reason = "the subject is named but no problem phrase says what is wrong"
        ev = _evidence(scan, u, _hits("subject", judge.m.subject[u]), reason)
        if soft is not None:
            ev = ev.model_copy(update={"model": soft, "reason": f"{reason}; {assertion_model.explain(soft)}"})
        return FindingOutcome(id=f.id, status="no-problem", near_miss=ev, example=_example(f))
    return FindingOutcome(id=f.id, status="never-named", example=_example(f))


def _distractor(scan: _Scan, d: DistractorSpec) -> DistractorOutcome:
    seg, text = scan.seg, scan.seg.text
    subject = _by_unit(scan, d.subject)
    problem = _by_unit(scan, d.problem)
    declined: KernelEvidence | None = None
    for u, found in sorted(subject.items()):
        unit = seg.units[u]
        hits = _hits("distractor", found)
        st = scan.stance(u, found[0][1][0][0])
        cue = scan.dismissal_cues().get(u)
        # only an asserted mention escalates: a denial, a question, a hedge ("may raise issues",
        # "should be reviewed"), someone else's view, a recital or another matter keeps it neutral
        if seg.blocks[unit.block].section == "declined" or cue or st.kind is not None:
            why = f"mentioned and declined ({cue!r})" if cue else f"mentioned, not asserted ({st.kind or 'declined section'})"
            declined = declined or _evidence(scan, u, hits, why, st.kind)
            continue
        graded = _graded_down(seg, seg.blocks[unit.block])
        if graded:  # the memo's own register rates it low or passes it: mentioned, not escalated
            declined = declined or _evidence(scan, u, hits, f"mentioned and {graded}")
            continue
        live = [(p, s) for p, s in problem.get(u, []) if not _phrase_negated(scan, p, u, s)]
        esc = escalation_cue(text, unit.start, unit.end)
        if esc and (negated_before(text, unit.start, text.index(esc, unit.start))
                    or minimized_before(text, unit.start, text.index(esc, unit.start))):
            esc = None
        if live or esc:
            why = f"escalated: {live[0][0].phrase!r}" if live else f"escalated: risk language in the same sentence ({esc!r})"
            return DistractorOutcome(id=d.id, flagged=True, evidence=_evidence(scan, u, hits + _hits("problem", live), why))
    return DistractorOutcome(id=d.id, declined=declined)


def _claim(scan: _Scan, c: ClaimSpec) -> ClaimOutcome:
    seg, text = scan.seg, scan.seg.text
    for u, found in sorted(_by_unit(scan, c.phrasings).items()):
        unit = seg.units[u]
        for p, spans in found:
            st = scan.stance(u, min(s for s, _e in spans))
            if not st.asserts and st.kind != "keyword-list":
                continue
            first, last = min(s for s, _e in spans), max(e for _s, e in spans)
            if _phrase_negated(scan, p, u, spans) or correction_around(text, unit.start, first, last, unit.end) \
                    or speech_forbidden(text, unit.start, first):
                continue
            return ClaimOutcome(id=c.id, made=True,
                                evidence=_evidence(scan, u, _hits("claim", [(p, spans)]), "prohibited claim asserted"))
    return ClaimOutcome(id=c.id)


def analyze_text(spec: MatchSpec, text: str, masked: Sequence[tuple[int, int]] = (), *,
                 norm: NormalizedText | None = None, timeout: float = MATCH_TIMEOUT_SECONDS) -> TextAnalysis:
    """Decide every finding, distractor and claim of ``spec`` over ``text`` (``masked``:
    normalized spans of quoted source text, blanked first)."""
    seg = segment(text, masked, norm)
    scan = _Scan(seg, timeout, _task_literals(spec))
    matches = {f.id: _matches(scan, f) for f in spec.findings}
    dismissed = _dismissal_targets(scan, spec, matches)
    judges = {f.id: _FindingJudge(scan, f, matches[f.id], dismissed[f.id]) for f in spec.findings}
    for j in judges.values():
        j.run()
    _verdicts(judges)
    crowd = _crowd(judges)
    _assign(judges)
    grounded = _grounded(seg, matches.values())
    findings = [_finding_outcome(judges[f.id], crowd[f.id], grounded) for f in spec.findings]
    distractors = [_distractor(scan, d) for d in spec.distractors]
    claims = [_claim(scan, c) for c in spec.claims]
    return TextAnalysis(seg, findings, distractors, claims, scan.timeouts)


def _spec_phrases(spec: MatchSpec) -> list[CompiledPhrase]:
    phrases = [p for f in spec.findings for p in (*f.subject, *f.problem, *f.citations, *f.dismissals)]
    phrases += [p for d in spec.distractors for p in (*d.subject, *d.problem)]
    phrases += [p for c in spec.claims for p in c.phrasings]
    return phrases


def _spec_terms(spec: MatchSpec) -> list[CompiledTerm]:
    return [t for f in spec.findings for t in (*f.severity_terms, *f.remediation, *f.record)]


def _spec_patterns(spec: MatchSpec) -> Iterable[str]:
    yield from (part for p in _spec_phrases(spec) for part in p.parts)
    yield from (t.pattern for t in _spec_terms(spec))


def _spec_sources(spec: MatchSpec) -> Iterable[tuple[str, str | None]]:
    """Each pattern of ``spec`` with its term, as :meth:`_Scan.pattern` is called with them."""
    for p in _spec_phrases(spec):
        yield from zip(p.parts, _phrase_terms(p.phrase, len(p.parts))[0])
    yield from ((t.pattern, t.term) for t in _spec_terms(spec))


_TASKS_KEPT = 32  # tasks whose prefilter literals are kept (a fidelity run scores 15 matters in turn)
_TASK_LITERALS: OrderedDict[tuple[int, ...], tuple[tuple[object, ...], TaskLiterals]] = OrderedDict()


def _task_literals(spec: MatchSpec) -> TaskLiterals:
    """The prefilter's automaton for ``spec``'s patterns, built once per task: keyed by the
    finding, distractor and claim objects it is built from (a task's anchors give every memo's
    spec the same ones), which it keeps alive so their ids are not reused."""
    parts = (*spec.findings, *spec.distractors, *spec.claims)
    key = tuple(map(id, parts))
    got = _TASK_LITERALS.get(key)
    if got is None or any(a is not b for a, b in zip(got[0], parts)):
        got = (parts, TaskLiterals(_spec_sources(spec)))
        _TASK_LITERALS[key] = got
        if len(_TASK_LITERALS) > _TASKS_KEPT:
            _TASK_LITERALS.popitem(last=False)
    else:
        _TASK_LITERALS.move_to_end(key)
    return got[1]


def compile_spec(spec: MatchSpec) -> int:
    """Compile every pattern of ``spec`` and the cue lexicons now (they are otherwise compiled
    on first use), so that processes forked afterwards share them; returns how many patterns.
    A batch calls this once per task before its workers start; results do not change."""
    patterns = set(_spec_patterns(spec))
    for pattern in patterns:
        compiled_pattern(pattern)
    for pattern, term in _spec_sources(spec):
        prepare_pattern(pattern, term)  # the prefilter's literals (term_regex, required_literals)
    _task_literals(spec)
    compile_cues()
    assertion_model.compile_patterns()
    _label_patterns()
    return len(patterns)
