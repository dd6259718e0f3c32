"""Structure: normalized text -> blocks (headings, paragraphs, list items, table rows), the
sections they sit in, and the sentences (or rows) that phrases are matched in.

Deliverables arrive as Markdown-like text: ``#`` headings, ``-``/``1.`` list items and
``| a | b |`` table rows (the .docx reader writes Word headings, list paragraphs and tables
that way, so .docx, .md and .txt memos are read alike). A *unit* is what a phrase must fit
in: a sentence of a heading, paragraph or list item, or a whole table row (read with its
column headers). A block's *discussion* is itself, its heading chain, the lead-in line of
its list or table and, when its section is short, the rest of that section.
"""

from __future__ import annotations

import bisect
import functools
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, Literal, Sequence

import regex

from lae.match.cues import ARROW, VERDICT_CLEARS, VERDICT_LABEL
from lae.match.normalize import NormalizedText, normalize

__all__ = ["Block", "Unit", "Segmented", "segment", "blank_spans", "item_number", "SMALL_SECTION_BLOCKS"]

BlockKind = Literal["heading", "paragraph", "item", "row"]
SectionKind = Literal["analysis", "recital", "declined", "recommendations"]

SMALL_SECTION_BLOCKS = 4  # a section this short is one discussion

_HEADING_MD = regex.compile(r"#{1,6}(?= )")
_BOLD_LINE = regex.compile(r"\*\*[^*\n]{1,120}\*\*:?")
_ITEM = regex.compile(r"(?:[-*+\u2022\u25aa\u25e6\u00b7]|\d{1,2}[.)]|\(?[a-h]\)|\(?(?:i|ii|iii|iv|v|vi|vii|viii)\))(?= )")
_NUMBERED_TITLE = regex.compile(r"(?:\d{1,2}(?:\.\d{1,2})*\.?|[ivxIVX]{1,4}\.|[A-H]\.) \S")
_ROW = regex.compile(r"\|.*\|")
_TITLE_END = regex.compile(r"[.!?:;,]\**$")
_SHORT_END = regex.compile(r"[.!?;,)\]]\**$")
# A table whose first column names a date, a defined term, a record field or a person is a recital
# (a chronology, a glossary, a key-terms abstract "Field | Value as written", minutes "Speaker | Record").
_RECITAL_HEADER = regex.compile(r"(?:date|when|term|defined term|definition|event|field|metric|speaker|name|person"
                                r"|party|parties|custodian)s?")
# ... unless another column assesses each row (a tracker or calendar "| Date | Obligation | Applies? | Status |").
_ASSESSMENT_HEADER = regex.compile(r"\b(?:appl(?:y|ies|icable)|status|risk|issue|concern|problem|action|assessment|"
                                   r"go(?:es)? wrong|consequences?|if missed|implications?|why it matters|legal basis"
                                   r"|rating|severity|priority|exposure|our view)")
# ... or a column comments on it ("| Date | Event | Document | Comment |"): then the comment is the memo's reading of
# the row and the other cells recite the record (:func:`record_columns`).
_COMMENTARY_HEADER = regex.compile(r"\b(?:comments?|commentary|significance|analysis|observations?|remarks)\b")
# A chat or call-log message opens with its clock time and speaker ("[07:15] Tobias Renner: ...",
# "08:02 Ingrid Halvorsen: ...") or its speaker and clock time ("Maya Okafor (16:02): ...", "**Ben** [4:10 pm]:"):
# the message is what follows them. Matched on the lowercased text; each word of the name must be capitalised
# in the original (so "16:21 biggest thing: ..." is content).
_CLOCK_STAMP = r"\d{1,2}:\d{2}(?::\d{2})?(?: ?[ap]\.?m\.?)?"
_NAME = r"(?P<name>(?:\p{L}[\p{L}.'\u2019-]* ){0,3}\p{L}[\p{L}.'\u2019-]*)"
_SPEAKER = regex.compile(r"(?:\*\*)?\[?" + _CLOCK_STAMP + r"\]? +" + _NAME +
                         r"(?: \([^()\n]{1,40}\))?:(?:\*\*)? +(?=\S)"
                         r"|(?:\*\*)?" + _NAME + r"(?:\*\*)? [\[(]" + _CLOCK_STAMP + r"[\])](?:\*\*)?:(?:\*\*)? +(?=\S)")
_ROW_RULE = regex.compile(r"\|[\s:|-]*\|")
# A timeline of things to do ("action timeline", "timeline of required actions") is advice, not a recital.
_RECITAL = regex.compile(r"\b(?:glossary|definitions?|defined terms|chronology|(?<!action )(?<!actions )"
                         r"(?:timeline|time line)(?! (?:of|for) (?:the )?(?:required |next |remedial )?(?:actions|steps)|"
                         r" of what (?:must|should|needs? to|has to) be done| of what to do)|"
                         r"background|facts|"
                         r"factual|key dates|documents? reviewed|record reviewed|parties|sources|materials reviewed|"
                         r"scope and method|methodology|abbreviations|terms used|"
                         # an index of the documents (a data-room index, a document register) describes them
                         r"index of (?:documents|contents)|(?:data[- ]room|vdr|document|documents|production) "
                         r"(?:index|register|log))\b")
# A title that announces the memo's own reading of the record ("What this means", "Analysis", "Chronology with
# commentary") heads analysis, even under a title that heads a recital ("# Chronology" then "## What this means").
_ANALYTIC_TITLE = regex.compile(r"\b(?:what (?:this|it|that|they|these) means?|(?:legal )?analysis|assessment|implications|"
                                r"conclusions?|our view|so what|takeaways?|commentary|with comments?|(?:key )?(?:issues|risks|"
                                r"concerns|findings|problems) (?:identified|found|arising)|evaluation)\b"
                                # a heading that is only a label of the problems ("## Issues", "Key risks")
                                r"|^(?:the |key |main |real |live |legal )?(?:issues|problems|risks|concerns|red flags|"
                                r"findings)$")
# A title that sorts issues from non-issues ("Issues and non-issues", "Issues / non-issues") heads both
# kinds of point: not a section of points set aside (its subsections say which is which).
_MIXED_TITLE = regex.compile(r"\b(?:issues?|problems?|risks?|concerns?) ?(?:and|&|/|vs\.?|versus) ?"
                             r"(?:non-issues?|not issues?|non-problems?|no issues?)\b"
                             r"|\bnon-issues? ?(?:and|&|/|vs\.?|versus) ?(?:issues?|problems?|risks?)\b")
# ... but a glossary of issues ("A-to-Z Issues Glossary", "Glossary of Export and Deal Issues") is a list of
# issues, each entry a point about this matter, not a list of defined terms.
_ISSUE_GLOSSARY = regex.compile(r"\b(?:issues?|risks?|concerns?|problems?|red flags?) glossary\b"
                                r"|\bglossary of (?:[\w-]+,? ){0,5}?(?:issues|risks|concerns|problems|red flags)\b")
# A heading that names only the record ("The file", "What the documents say", "The documents (as numbered
# in the data room)") heads a description of it; "What the file shows" heads findings.
_RECORD_TITLE = regex.compile(r"(?:(?:part|section) [\w.]+[.:]? |\d+[.)] )?(?:what )?(?:the|this) (?:file|record|documents?|"
                              r"papers|data room)(?: received| as received)?(?: \([^()\n]*\))?"
                              r"(?: (?:says?|records?|contains?))?")
_DECLINED = regex.compile(r"\b(?:not issues?|non-issues?|no issues?|not (?:escalated|raised|flagged)|no action|"
                          r"not of concern|no concern|out of scope|dismissed|declined|noise|"
                          r"(?:items|matters|points) (?:we|that we) (?:do|did) not)\b")
_RECOMMEND = regex.compile(r"\b(?:recommendations?|recommended actions?|next steps|action items?|actions|"
                           r"remediation|remedial steps|what to do|proposed steps)\b")
# "No. 3", "s. 151", "p. 4": these abbreviate only before a number (and are abbreviations there)
_NUMBER_ABBREV = frozenset(("no", "nos", "p", "pp", "art", "sec", "secs", "para", "ch", "cl", "ex", "exh", "sch",
                            "fig", "s", "ss", "r", "rr", "reg", "regs", "sched", "scheds", "subsec", "subpara", "pt",
                            "pts"))
_ABBREV = frozenset(("inc", "co", "corp", "ltd", "llc", "u.s", "e.g", "i.e", "v", "vs", "mr", "mrs", "ms", "dr", "st",
                     "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "cf", "al",
                     "approx", "est", "id", "stat", "u.s.c", "c.f.r", "del", "ann", "ct", "n.d", "s.d", "e.d", "w.d",
                     "cal", "tex", "sdn", "bhd", "pte", "rev", "plc", "dept", "govt", "jr", "sr", "bros", "pty", "gmbh",
                     "prop", "lab", "prof", "bus", "civ", "proc", "crim", "n.j.s.a", "n.y", "n.j", "fla", "ill", "mass",
                     "cir", "app", "supp", "fed", "admin", "gen", "rul", "cong", "amend", "const", "educ", "emp", "ins",
                     "b", "cap",
                     # a note's shorthand: "prob. unenforceable", "poss. diversion", "Ack. para 4", "incl. fees"
                     "prob", "poss", "ack", "incl", "excl", "req", "reqd", "agmt", "mgmt", "cttee", "resp")) | _NUMBER_ABBREV
_NUMBER_NEXT = regex.compile(r"[\d(§]")
_END_RE = regex.compile(r"[.!?]+[\"')\]*]*(?= )")
_WORD_BEFORE_RE = regex.compile(r"([\p{L}.]+)$")
_ARROW_NEXT = regex.compile(ARROW)


@dataclass(frozen=True)
class Block:
    index: int
    kind: BlockKind
    start: int  # content offsets in the normalized text (markup prefix excluded)
    end: int
    level: int = 0  # heading level (1-6); 0 otherwise
    headings: tuple[int, ...] = ()  # enclosing heading blocks, outermost first
    section: SectionKind = "analysis"
    lead_in: int | None = None  # the paragraph ending in ':' that introduces this list or table
    header: int | None = None  # for a row: the table's header row block
    cells: tuple[tuple[int, int], ...] = ()
    parent: int | None = None  # for a nested list item: the item it is nested under

    def cell_at(self, pos: int | None) -> int | None:
        """The index of the table cell ``pos`` lies in (None outside a row's cells or for other blocks)."""
        if self.kind != "row" or pos is None:
            return None
        return next((i for i, (start, end) in enumerate(self.cells) if start <= pos < end), None)


@dataclass(frozen=True)
class Unit:
    """A sentence (of a heading, paragraph or list item) or a table row."""

    index: int
    block: int
    start: int
    end: int


@dataclass(frozen=True)
class Segmented:
    norm: NormalizedText
    text: str  # normalized text with masked characters blanked
    blocks: tuple[Block, ...]
    units: tuple[Unit, ...]
    unit_starts: tuple[int, ...] = field(default=())
    sections: dict[tuple[int, ...], list[int]] = field(default_factory=dict)  # heading chain -> its non-heading blocks
    records: dict[int, tuple[int, ...]] = field(default_factory=dict)  # block -> the field record it belongs to
    turns: dict[int, tuple[int, ...]] = field(default_factory=dict)  # chat message -> its turn and the message it answers

    def unit_at(self, pos: int) -> int | None:
        """Index of the unit containing normalized offset ``pos``."""
        i = bisect.bisect_right(self.unit_starts, pos) - 1
        if i >= 0 and pos < self.units[i].end:
            return i
        return None

    def item_family(self, block: int) -> list[int]:
        """A list item with its sub-items, as one discussion: the outermost item ``block`` is
        nested under, and every item nested (at any depth) under that one."""
        root = block
        while self.blocks[root].parent is not None:
            root = self.blocks[root].parent  # type: ignore[assignment]
        out = [root]
        x = root + 1
        while x < len(self.blocks) and self.blocks[x].parent is not None and self.blocks[x].parent in out:
            out.append(x)
            x += 1
        return out

    def turn_of(self, block: int) -> tuple[int, ...]:
        """The chat turn ``block`` is a message of: the run of consecutive messages of one speaker,
        which reads as a paragraph does (a message names a point, the next says what is wrong with
        it), with the message that run answers, or ``()``."""
        return self.turns.get(block, ())

    def record_of(self, block: int) -> tuple[int, ...]:
        """The field record ``block`` is a line of (``**Evidence:** ...`` beside ``**Analysis:** ...``
        under one finding), or ``()``: a record is one discussion, like a table row."""
        return self.records.get(block, ())

    def section_blocks(self, block: int) -> list[int]:
        """Blocks under the same innermost heading as ``block`` (the heading itself excluded)."""
        return self.sections.get(self.blocks[block].headings, [])


def blank_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """Replace characters in ``spans`` by spaces (line breaks kept)."""
    if not spans:
        return text
    chars = list(text)
    for s, e in spans:
        for i in range(max(0, s), min(len(chars), e)):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def _line_kind(text: str, start: int, end: int) -> tuple[BlockKind, int, int]:
    """(kind, content start, heading level) of one line."""
    line = text[start:end]
    m = _HEADING_MD.match(line)
    if m:
        return "heading", start + m.end() + 1, m.end()
    if _ROW.fullmatch(line.strip()):
        return "row", start, 0
    if _BOLD_LINE.fullmatch(line.strip()):
        return "heading", start, 4
    words = len(line.split())
    if words <= 12 and not _TITLE_END.search(line.rstrip()) and _NUMBERED_TITLE.match(line):
        return "heading", start, 3
    m = _ITEM.match(line)
    if m:
        return "item", start + m.end() + 1, 0
    if words <= 6 and ":" not in line and not _SHORT_END.search(line.rstrip()):
        return "heading", start, 3  # a short title line of a plain-text memo
    return "paragraph", start, 0


def _section_kind(title: str, analytic: bool) -> SectionKind:
    """The kind of section a heading titled ``title`` opens (``analytic``: the title matches :data:`_ANALYTIC_TITLE`)."""
    if _DECLINED.search(title) and not _MIXED_TITLE.search(title):
        return "declined"
    if analytic:
        return "analysis"
    if (_RECITAL.search(title) and not _ISSUE_GLOSSARY.search(title)) or _RECORD_TITLE.fullmatch(title.strip(" *#:-")):
        return "recital"
    if _RECOMMEND.search(title):
        return "recommendations"
    return "analysis"


def _cells(text: str, start: int, end: int) -> tuple[tuple[int, int], ...]:
    out = []
    pos = text.index("|", start) + 1
    while pos < end:
        nxt = text.find("|", pos, end)
        if nxt < 0:
            break
        s, e = pos, nxt
        while s < e and text[s] == " ":
            s += 1
        while e > s and text[e - 1] == " ":
            e -= 1
        out.append((s, e))
        pos = nxt + 1
    return tuple(out)


class _Builder:
    """Walks the lines once, tracking the heading stack, list lead-ins and table headers."""

    def __init__(self, text: str, depth_of: Callable[[int], int] = lambda _pos: 0,
                 capital_at: Callable[[int], bool] = lambda _pos: True) -> None:
        self.text = text
        self.depth_of = depth_of  # a line's nesting depth, from its indentation in the original text
        self.capital_at = capital_at  # whether the original character at a normalized offset is upper case
        self.speakers: dict[int, str] = {}  # chat message block -> its speaker's name
        self.items: list[tuple[int, int]] = []  # the open list: (depth, block index) of each enclosing item
        self.blocks: list[Block] = []
        self.stack: list[tuple[int, int, SectionKind, bool]] = []  # (level, block index, section kind, analytic title)
        self.lead_in: int | None = None
        self.header: int | None = None
        self.prev_kind: str = "blank"

    def section(self) -> SectionKind:
        for _level, _idx, kind, analytic in reversed(self.stack):
            if kind != "analysis" or analytic:
                return kind
        return "analysis"

    def add(self, start: int, end: int) -> None:
        text = self.text
        if not text[start:end].strip():
            self.prev_kind = "blank"
            return
        kind, cstart, level = _line_kind(text, start, end)
        if kind == "paragraph":
            cstart = self._after_speaker(start, end, len(self.blocks))
        if kind == "row" and _ROW_RULE.fullmatch(text[start:end].strip()):
            return
        idx = len(self.blocks)
        if kind == "heading":
            while self.stack and self.stack[-1][0] >= level:
                self.stack.pop()
            heads = tuple(i for _l, i, _k, _a in self.stack)
            title = text[cstart:end]
            analytic = bool(_ANALYTIC_TITLE.search(title))
            self.stack.append((level, idx, _section_kind(title, analytic), analytic))
            self.blocks.append(Block(idx, kind, cstart, end, level, heads, self.section()))
            self.lead_in = self.header = None
        elif kind == "row":
            if self.prev_kind != "row":
                self.header = None
            header = self.header
            self.blocks.append(Block(idx, kind, cstart, end, 0, self._heads(), self._row_section(header),
                                     self.lead_in, header, _cells(text, start, end)))
            if header is None:
                self.header = idx
        else:
            if kind == "paragraph":
                self.lead_in = idx if text[start:end].rstrip("* ").endswith(":") else None
            lead = self.lead_in if kind == "item" else None
            parent = self._nest(start, idx) if kind == "item" else None
            self.blocks.append(Block(idx, kind, cstart, end, 0, self._heads(), self.section(), lead, parent=parent))
        if kind != "item":
            self.items = []
        self.prev_kind = kind

    def _after_speaker(self, start: int, end: int, idx: int) -> int:
        """Where a chat message's content starts, past its clock time and speaker's name (noted as
        block ``idx``'s speaker)."""
        m = _SPEAKER.match(self.text, start, end)
        if m is None:
            return start
        a, b = m.span("name")
        words = [a] + [i + 1 for i in range(a, b) if self.text[i] == " "]
        if not all(self.capital_at(w) for w in words):
            return start
        self.speakers[idx] = m.group("name")
        return m.end()

    def _nest(self, start: int, idx: int) -> int | None:
        """The item this one is nested under (by indentation), if any; records it as open."""
        depth = self.depth_of(start)
        while self.items and self.items[-1][0] >= depth:
            self.items.pop()
        parent = self.items[-1][1] if self.items else None
        self.items.append((depth, idx))
        return parent

    def _heads(self) -> tuple[int, ...]:
        return tuple(i for _l, i, _k, _a in self.stack)

    def _row_section(self, header: int | None) -> SectionKind:
        base = self.section()
        if header is None or base not in ("recital", "analysis"):
            return base
        titles = _header_titles(self.text, self.blocks[header])
        if not _chronology(titles):
            return base
        if base == "recital" and _commenting(titles):
            return "analysis"  # a chronology's comment column is the memo's reading, under any heading
        if base == "analysis" and not _commenting(titles):
            return "recital"  # a bare chronology (date, event, source) under an analysis heading recites
        return base


def _header_titles(text: str, header: Block) -> list[str]:
    """A table's column titles, as its header row names them."""
    return [text[s:e].strip("* ").lower() for s, e in header.cells]


def _chronology(titles: list[str]) -> bool:
    """A table whose first column names a date, an event or the like and no other column assesses."""
    return bool(titles) and bool(_RECITAL_HEADER.fullmatch(titles[0])) \
        and not any(map(_ASSESSMENT_HEADER.search, titles[1:]))


def _commenting(titles: list[str]) -> frozenset[int]:
    """The columns past the first that comment on each row ("Comment", "Significance", ...)."""
    return frozenset(i for i, t in enumerate(titles) if i and _COMMENTARY_HEADER.search(t))


def record_columns(text: str, header: Block) -> frozenset[int]:
    """The columns of a table that only record (its date, event and source columns), when its first
    column names a date, event or the like and another column comments on each row ("| Date | Event |
    Document | Comment |"): a row's comment is the memo's reading, its event a recital of the record."""
    titles = _header_titles(text, header)
    commenting = _commenting(titles) if _chronology(titles) else frozenset()
    if not commenting:
        return frozenset()
    return frozenset(i for i in range(len(titles)) if i not in commenting)


# A table of parallel lists (a SWOT table's four columns, strengths to threats; pros and cons): a row
# lines up unrelated points, one a column, so each cell is read on its own, sentence by sentence.
_PARALLEL_COLUMN = regex.compile(r"(?:strengths?|weakness(?:es)?|opportunit(?:y|ies)|threats?|pros?|cons?|"
                                 r"(?:dis)?advantages?|benefits?|drawbacks?|upsides?|downsides?)")


def _parallel_columns(text: str, header: Block) -> bool:
    """Whether a table's header row names parallel lists, every column one (:data:`_PARALLEL_COLUMN`)."""
    cells = [text[s:e].strip("* ") for s, e in header.cells]
    return len(cells) >= 2 and all(map(_PARALLEL_COLUMN.fullmatch, cells))


WORD_BEFORE_REACH = 40  # characters searched back for the word before a full stop (more only when it is longer)


def _word_before(text: str, start: int, end: int) -> regex.Match | None:
    """``_WORD_BEFORE_RE.search(text, start, end)``: the run of letters and dots ending at ``end``,
    searched in the last few characters first (a search from ``start`` tries every position)."""
    near = max(start, end - WORD_BEFORE_REACH)
    found = _WORD_BEFORE_RE.search(text, near, end)
    if near == start or found is None or found.start() > near:
        return found
    return _WORD_BEFORE_RE.search(text, start, end)  # the run may reach further back


_ENUMERATOR = regex.compile(r"[\W_]*(?:q?\d{1,2}|[a-h]|[ivx]{1,4})")


def _split_sentences(text: str, block: int, start: int, end: int, out: list[Unit]) -> None:
    pos = start
    for m in _END_RE.finditer(text, start, end):
        if _ARROW_NEXT.match(text, m.end() + 1, end):
            continue  # "Phase 1 went NLR?? -> EEI wrong": a note's arrow carries on the same thought
        if m.group(0).startswith("."):
            if _ENUMERATOR.fullmatch(text, pos, m.start()):
                continue  # "**2. Can the client ...", "Q1. Is ...": a number in bold or a label opens the item
            before = _word_before(text, pos, m.start())
            word = before.group(1).strip(".") if before else ""
            if before and (word in _ABBREV or len(word) == 1):
                # "No. 3", "s. 151", "p. 4": these abbreviate only before a number
                if word not in _NUMBER_ABBREV or _NUMBER_NEXT.match(text, m.end() + 1):
                    continue
        stop = m.end()
        if text[pos:stop].strip():
            out.append(Unit(len(out), block, pos, stop))
        pos = stop + 1
    if pos < end and text[pos:end].strip():
        out.append(Unit(len(out), block, pos, end))


_CLOCK_AT_START = regex.compile(r"\d{1,2}:\d{2}(?= )")
_CLOCK = regex.compile(r"(?<= )\d{1,2}:\d{2}(?= )")
TRANSCRIPT_MIN_TIMES = 3  # a line opening with a clock time and holding this many is a run of messages


def _messages(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A line as the blocks a reader sees in it: a chat or call log whose messages a renderer
    joined into one paragraph ("16:20 read the file 16:21 biggest thing: ...") is one block per
    timestamped message; any other line is one block."""
    if not _CLOCK_AT_START.match(text, start, end):
        return [(start, end)]
    cuts = [m.start() for m in _CLOCK.finditer(text, start, end)]
    if len(cuts) + 1 < TRANSCRIPT_MIN_TIMES:
        return [(start, end)]
    bounds = [start, *cuts, end + 1]
    return [(a, b - 1) for a, b in zip(bounds, bounds[1:])]


def _capital(original: str, norm: NormalizedText, pos: int) -> bool:
    """Whether the character the normalized offset ``pos`` came from is upper case."""
    o = norm.origin[pos] if pos < len(norm.origin) else len(original)
    return o < len(original) and original[o].isupper()


def _indent_depth(original: str, norm: NormalizedText, pos: int) -> int:
    """Nesting depth of the line at normalized offset ``pos``: its indentation in the original
    text, in steps of two spaces (a tab is one step)."""
    o = norm.origin[pos] if pos < len(norm.origin) else len(original)
    line_start = original.rfind("\n", 0, o) + 1
    indent = original[line_start:o]
    if indent.strip(" \t"):
        return 0
    return len(indent.replace("\t", "  ")) // 2


def segment(text: str, masked: Sequence[tuple[int, int]] = (), norm: NormalizedText | None = None) -> Segmented:
    """Normalize, blank masked spans (normalized offsets), find blocks and units."""
    norm = norm or normalize(text)
    blanked = blank_spans(norm.text, masked)
    builder = _Builder(blanked, functools.partial(_indent_depth, text, norm), functools.partial(_capital, text, norm))
    pos = 0
    for line in blanked.split("\n"):
        for start, end in _messages(blanked, pos, pos + len(line)):
            builder.add(start, end)
        pos += len(line) + 1
    units: list[Unit] = []
    for b in builder.blocks:
        if b.kind == "row" and b.header is not None and _parallel_columns(blanked, builder.blocks[b.header]):
            for cell_start, cell_end in b.cells:
                _split_sentences(blanked, b.index, cell_start, cell_end, units)
        elif b.kind == "row":
            units.append(Unit(len(units), b.index, b.start, b.end))
        else:
            _split_sentences(blanked, b.index, b.start, b.end, units)
    blocks, table_records = _field_tables(blanked, _reviewed_draft(blanked, _verdict_declined(blanked, builder.blocks)))
    sections: dict[tuple[int, ...], list[int]] = {}
    for b in blocks:
        if b.kind != "heading":
            sections.setdefault(b.headings, []).append(b.index)
    return Segmented(norm, blanked, blocks, tuple(units), tuple(u.start for u in units), sections,
                     {**_field_records(blanked, blocks), **table_records}, _turns(blocks, builder.speakers))


def _turns(blocks: Sequence[Block], speakers: dict[int, str]) -> dict[int, tuple[int, ...]]:
    """Each chat message's turn: the run of consecutive messages (under the same headings) by its
    speaker, with the message that run answers (the one just before it, by another speaker), read as
    one exchange ("castellan sent the letter in december" / "not sudden or dramatic")."""
    runs: list[list[int]] = []
    for b in sorted(speakers):
        prev = runs[-1][-1] if runs else None
        if prev is None or prev != b - 1 or speakers[prev] != speakers[b] or blocks[prev].headings != blocks[b].headings:
            runs.append([])
        runs[-1].append(b)
    out: dict[int, tuple[int, ...]] = {}
    for run in runs:
        before = run[0] - 1
        answered = [before] if before in speakers and blocks[before].headings == blocks[run[0]].headings else []
        if len(run) + len(answered) > 1:
            out.update((b, tuple(answered + run)) for b in run)
    return out


# a field's label: words, or an agent's snake_case key ("source_docs", "risk_level")
VERDICT_SECTION_BLOCKS = 6  # a tested point's section (claim heading, check, finding, verdict) is this short at most
_VERDICT_CLEARS = regex.compile(VERDICT_CLEARS)
_VERDICT_LABEL = regex.compile(VERDICT_LABEL)


def _verdict_declined(text: str, blocks: Sequence[Block]) -> tuple[Block, ...]:
    """A short section whose one verdict line clears its point ("### Hypothesis 12: the hit is a true
    match" ... "**Verdict:** rejected", "### Check 4" ... "**Result:** PASS") sets that point aside: its
    heading states the claim tested, not the memo's view. Such a section, heading included, is declined."""
    out = list(blocks)
    bodies: dict[int, list[Block]] = {}
    for b in blocks:
        if b.headings and b.kind != "heading":
            bodies.setdefault(b.headings[-1], []).append(b)
    for h, body in bodies.items():
        if blocks[h].section != "analysis" or len(body) > VERDICT_SECTION_BLOCKS:
            continue
        verdicts = [b for b in body if _VERDICT_LABEL.match(text, b.start, b.end)]
        if len(verdicts) == 1 and _VERDICT_CLEARS.match(text, verdicts[0].start, verdicts[0].end):
            for b in (blocks[h], *body):
                out[b.index] = replace(b, section="declined")
    return tuple(out)


# A first draft of the points ("Draft issues", "First pass", "Initial hypotheses") that a later section at its level
# reviews ("Self-review", "Final answer", "Revised list", "Confirmed issues"), item by item: "Withdrawn 11: ..." sets
# draft item 11 aside, "Kept 8: ..." or "Revised 3: ..." leaves it standing.
_DRAFT_TITLE = regex.compile(r"(?:[\w.]+[.)]\s+)?(?:(?:draft|first[- ]pass|initial|preliminary|candidate|brainstorm(?:ed)?)"
                             r"\b[^\n]{0,30}?\b(?:issues?|findings?|points?|list|hypothes[ie]s|risks?|concerns?)|first[- ]pass"
                             r"|brainstorm)\b")
_REVIEW_TITLE = regex.compile(r"(?:[\w.]+[.)]\s+)?(?:self[- ]review|review of (?:the )?(?:draft|first pass)|second pass|"
                              r"final (?:answer|issues|list|findings|view|position)|revised (?:issues|list|findings)|"
                              r"confirmed (?:issues|findings))\b")
_WITHDRAWN = regex.compile(r"[\W_]*(?:withdrawn|withdraw|dropped|drop|rejected|removed|struck|deleted|discarded|ruled out)"
                           r"\s*(?:item|issue|point|no\.?)?\s*#?(\d{1,2})(?!\d)")
# an item's number: its list marker ("11. ..."), or text after a bullet, as a .docx numbered list reads ("- 11. ...")
_ITEM_NUMBER = regex.compile(r"[ \t]*(?:[-*+\u2022][ \t]+)?(\d{1,2})[.)]")


def item_number(text: str, block: Block) -> int | None:
    """A list item's number: its marker ("11. ..."), or the number after a bullet ("- 11. ..."); None otherwise."""
    m = _ITEM_NUMBER.match(text, text.rfind("\n", 0, block.start) + 1, block.end) if block.kind == "item" else None
    return int(m.group(1)) if m else None


def _reviewed_draft(text: str, blocks: Sequence[Block]) -> tuple[Block, ...]:
    """The items of a draft list ("## Draft issues") that a later review at its level withdraws by number
    ("## Self-review" ... "Withdrawn 11: ..."), with their sub-items: the memo set them aside (declined)."""
    out = list(blocks)
    headings = [b for b in blocks if b.kind == "heading"]
    for i, h in enumerate(headings):
        if not _DRAFT_TITLE.match(text, h.start, h.end) or not any(
                g.level <= h.level and _REVIEW_TITLE.match(text, g.start, g.end) for g in headings[i + 1:]):
            continue
        body = [b for b in blocks if h.index in b.headings]
        withdrawn = {int(m.group(1)) for b in blocks[h.index:] if b.kind in ("item", "paragraph") and h.index not in b.headings
                     for m in [_WITHDRAWN.match(text, b.start, b.end)] if m}
        dropped: set[int] = set()
        for b in body:
            if (b.parent is None and item_number(text, b) in withdrawn) or b.parent in dropped:
                dropped.add(b.index)
                if b.section == "analysis":
                    out[b.index] = replace(b, section="declined")
    return tuple(out)


_FIELD_LABEL = regex.compile(r"\W*(\p{L}[\p{L}_ /&'()-]{0,28}?)\W*:")
RECORD_MIN_FIELDS = 3  # a run of this many labelled lines is a record when its labels recur elsewhere


# A two-column table of one finding's fields ("| Field | Value |" under "## Issue 3", its rows "Status",
# "Facts", "Rule", "Consequence"): a record of an assessment, not a key-terms abstract, when a row's label assesses.
_FIELD_TABLE_HEADER = regex.compile(r"(?:field|item|attribute|element|key|label|heading)s?")
_ASSESSING_FIELD = regex.compile(r"(?:status|risk|risk level|issue|problem|concern|consequences?|exposure|analysis|"
                                 r"assessment|severity|finding|verdict|rule|legal basis|why it matters|next steps?|"
                                 r"recommendation|remedy|fix)")


def _table_rows(blocks: Sequence[Block]) -> dict[int, list[Block]]:
    """The rows of each table under its header row, by the header's block index."""
    rows: dict[int, list[Block]] = {}
    for b in blocks:
        if b.kind == "row" and b.header is not None:
            rows.setdefault(b.header, []).append(b)
    return rows


def _is_field_table(text: str, blocks: Sequence[Block], header: int, rows: list[Block]) -> bool:
    cells = [text[s:e].strip("* ") for s, e in blocks[header].cells]
    return len(cells) == 2 and bool(_FIELD_TABLE_HEADER.fullmatch(cells[0])) and any(
        r.cells and _ASSESSING_FIELD.fullmatch(text[r.cells[0][0]:r.cells[0][1]].strip("* ")) for r in rows)


def _field_tables(text: str, blocks: Sequence[Block]) -> tuple[tuple[Block, ...], dict[int, tuple[int, ...]]]:
    """A field table that assesses (:func:`_is_field_table`) is read as analysis, its header row too, and its
    rows are one record (one finding's discussion, like a field record): the blocks, and each row's record."""
    out = list(blocks)
    records: dict[int, tuple[int, ...]] = {}
    for header, rows in _table_rows(blocks).items():
        if not _is_field_table(text, blocks, header, rows):
            continue
        for b in (blocks[header], *rows):
            if b.section == "recital" and not (b.headings and blocks[b.headings[-1]].section == "recital"):
                out[b.index] = replace(b, section="analysis")
        record = tuple(r.index for r in rows)
        records.update({r.index: record for r in rows})
    return tuple(out), records


def _field_records(text: str, blocks: Sequence[Block]) -> dict[int, tuple[int, ...]]:
    """Runs of consecutive ``Label: value`` lines (items or paragraphs under the same headings)
    whose labels form a schema: at least two of them recur in another run. A findings export
    writes one record per finding (Title, Evidence, Analysis, Recommendation); a glossary's labels
    are its terms and do not recur, so its lines stay apart."""
    runs: list[list[tuple[int, str]]] = [[]]
    for b in blocks:
        m = _FIELD_LABEL.match(text, b.start, b.end) if b.kind in ("item", "paragraph") else None
        if m is None:
            runs.append([])
            continue
        prev = runs[-1][-1][0] if runs[-1] else None
        if prev is not None and (prev != b.index - 1 or blocks[prev].headings != b.headings):
            runs.append([])
        runs[-1].append((b.index, m.group(1).strip()))
    runs = [r for r in runs if len(r) >= RECORD_MIN_FIELDS]
    labels = [{label for _b, label in r} for r in runs]
    seen = Counter(label for run_labels in labels for label in run_labels)  # in how many runs each label occurs
    out: dict[int, tuple[int, ...]] = {}
    for r, run_labels in zip(runs, labels):
        if sum(seen[label] > 1 for label in run_labels) >= 2:
            record = tuple(b for b, _label in r)
            out.update({b: record for b in record})
    return out
