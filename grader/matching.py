"""The matching core: does a finding credit in this plain text, and why.

Pure functions over normalized text and compiled anchors. The compiler's calibration
self-test and the grader both call :func:`analyze_text`, so calibration exercises
exactly what scoring does.

Credit rule (SPEC section 3): a finding credits when a sentence S names it, S is the
agent's own prose (not a keyword list, not masked quotation), S does not dismiss it,
and the window around S (S and ``window_sentences`` sentences either side, within
one paragraph) holds a corroboration: a severity, remediation or record term.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import regex

from lae.compiler.terms import compiled_pattern, term_regex
from lae.grader.anchors import Anchors, CompiledTerm
from lae.grader.lexicon import (CORRECTION_CUES, CORRECTION_CUES_AFTER, DISMISSAL_CUES, DISMISSAL_PATTERNS,
                                ESCALATION_CUES, FUNCTION_WORDS)
from lae.grader.normalize import TOKEN_RE, NormalizedText, normalize

__all__ = [
    "MATCH_TIMEOUT_SECONDS",
    "MatchTimeout",
    "Hit",
    "Sentence",
    "Segmented",
    "FindingOutcome",
    "DistractorOutcome",
    "ClaimOutcome",
    "TextAnalysis",
    "segment",
    "analyze_text",
    "blank_spans",
]

MATCH_TIMEOUT_SECONDS = 2.0
MIN_SENTENCE_WORDS = 6
MIN_OWN_WORDS = 3
MIN_FUNCTION_WORDS = 1


class MatchTimeout(Exception):
    """A matcher exceeded its time budget (treated as no match, and reported)."""


@functools.lru_cache(maxsize=1)
def _cue_patterns() -> tuple[tuple[regex.Pattern, ...], tuple[regex.Pattern, ...], tuple[regex.Pattern, ...]]:
    def build(cues: Iterable[str]) -> tuple[regex.Pattern, ...]:
        return tuple(compiled_pattern(term_regex(c)) for c in cues)

    dismissals = build(DISMISSAL_CUES) + tuple(regex.compile(p) for p in DISMISSAL_PATTERNS)
    return dismissals, build(ESCALATION_CUES), build(CORRECTION_CUES)


@functools.lru_cache(maxsize=1)
def _correct_after_patterns() -> tuple[regex.Pattern, ...]:
    return tuple(regex.compile(term_regex(c)) for c in CORRECTION_CUES_AFTER)


@dataclass(frozen=True)
class Hit:
    """One matcher hit in normalized text."""

    category: str  # name | severity | remediation | record | distractor | claim
    owner: str  # finding / distractor / claim id
    term: str
    start: int
    end: int


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    paragraph: int


@dataclass(frozen=True)
class Segmented:
    norm: NormalizedText
    text: str  # normalized text after masking (masked characters blanked)
    sentences: tuple[Sentence, ...]


# Sentence ends: . ! ? (plus closing quotes/brackets) followed by space, unless the
# period ends a common abbreviation; line breaks always end a sentence.
_ABBREV = ("sec", "secs", "no", "nos", "inc", "co", "corp", "ltd", "llc", "u.s", "e.g", "i.e", "v", "vs", "mr", "mrs",
           "ms", "dr", "st", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
           "art", "para", "cf", "al", "approx", "est", "fig", "p", "pp", "ch", "cl", "id", "reg", "regs", "stat",
           "u.s.c", "c.f.r", "del", "ann", "ct", "ch", "n.d", "s.d", "e.d", "w.d", "cal", "tex", "no", "sdn", "bhd",
           "pte", "rev", "plc", "dept", "govt", "jr", "sr", "bros", "ex", "exh", "sch", "ltd", "pty", "gmbh", "prop",
           "lab", "prof", "bus", "civ", "proc", "crim", "n.j.s.a", "n.y", "n.j", "fla", "ill", "mass", "cir", "app",
           "supp", "fed", "admin", "gen", "rul", "cong", "amend", "const", "educ", "emp", "ins", "corp")
_END_RE = regex.compile(r"[.!?]+[\"')\]]*(?= )")
_WORD_BEFORE_RE = regex.compile(r"([\p{L}.]+)$")


def _split_sentences(text: str, start: int, end: int, paragraph: int, out: list[Sentence]) -> None:
    pos = start
    for m in _END_RE.finditer(text, start, end):
        if m.group(0).startswith("."):
            before = _WORD_BEFORE_RE.search(text, pos, m.start())
            if before and (before.group(1).strip(".") in _ABBREV or len(before.group(1).strip(".")) == 1):
                continue
        stop = m.end()
        if text[pos:stop].strip():
            out.append(Sentence(pos, stop, paragraph))
        pos = stop + 1
    if pos < end and text[pos:end].strip():
        out.append(Sentence(pos, end, paragraph))


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


def segment(text: str, masked: Sequence[tuple[int, int]] = (), norm: NormalizedText | None = None) -> Segmented:
    """Normalize, blank masked spans (normalized offsets), split into sentences."""
    norm = norm or normalize(text)
    blanked = blank_spans(norm.text, masked)
    sentences: list[Sentence] = []
    pos = 0
    for para_index, line in enumerate(blanked.split("\n")):
        end = pos + len(line)
        _split_sentences(blanked, pos, end, para_index, sentences)
        pos = end + 1
    return Segmented(norm=norm, text=blanked, sentences=tuple(sentences))


def _find(pattern: str, text: str, deadline_budget: float) -> list[tuple[int, int]]:
    try:
        return [m.span() for m in compiled_pattern(pattern).finditer(text, timeout=deadline_budget)]
    except TimeoutError as exc:  # regex raises TimeoutError on timeout
        raise MatchTimeout(pattern) from exc


def _hits(terms: Sequence[CompiledTerm], category: str, owner: str, text: str, timeout: float) -> list[Hit]:
    out = []
    for t in terms:
        for s, e in _find(t.pattern, text, timeout):
            out.append(Hit(category, owner, t.term, s, e))
    return out


@functools.lru_cache(maxsize=4096)
def _is_bare_word(term: str) -> bool:
    """A name that is a single word of letters (``Hangzhou``, ``standstill``)."""
    return bool(regex.fullmatch(r"\p{L}+", normalize(term).text.strip()))


def _sentence_index(sentences: Sequence[Sentence], pos: int) -> int | None:
    lo, hi = 0, len(sentences) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        s = sentences[mid]
        if pos < s.start:
            hi = mid - 1
        elif pos >= s.end:
            lo = mid + 1
        else:
            return mid
    return None


def _any_cue(patterns: Sequence[regex.Pattern], text: str, start: int, end: int, timeout: float) -> bool:
    return any(p.search(text, start, end, timeout=timeout) for p in patterns)


def _is_prose(seg: Segmented, sent: Sentence, term_spans: Sequence[tuple[int, int]]) -> bool:
    """Does the sentence read as the agent's own prose rather than a keyword list?"""
    words = list(TOKEN_RE.finditer(seg.text, sent.start, sent.end))
    if len(words) < MIN_SENTENCE_WORDS:
        return False
    own = [w for w in words if not any(s <= w.start() < e for s, e in term_spans)]
    function = sum(1 for w in own if w.group(0) in FUNCTION_WORDS)
    return len(own) >= MIN_OWN_WORDS and function >= MIN_FUNCTION_WORDS


@dataclass
class FindingOutcome:
    id: str
    credited: bool = False
    credit: dict | None = None  # evidence of the crediting window
    near_miss: dict | None = None  # best non-crediting mention
    severity_window: bool = False
    remediation_window: bool = False
    record_window: bool = False


@dataclass
class DistractorOutcome:
    id: str
    flagged: bool = False
    evidence: dict | None = None
    declined: dict | None = None


@dataclass
class ClaimOutcome:
    id: str
    made: bool = False
    evidence: dict | None = None


@dataclass
class TextAnalysis:
    segmented: Segmented
    findings: list[FindingOutcome]
    distractors: list[DistractorOutcome]
    claims: list[ClaimOutcome]
    timeouts: list[str] = field(default_factory=list)

    def finding(self, fid: str) -> FindingOutcome:
        return next(f for f in self.findings if f.id == fid)


def _evidence(seg: Segmented, sentences: Sequence[Sentence], lo: int, hi: int, hits: Sequence[Hit],
              reason: str) -> dict:
    start, end = sentences[lo].start, sentences[hi].end
    o_start, o_end = seg.norm.span_in_original(start, end)
    return {
        "window": [o_start, o_end],
        "hits": [
            {"category": h.category, "term": h.term, "span": list(seg.norm.span_in_original(h.start, h.end))}
            for h in sorted(hits, key=lambda h: (h.start, h.category, h.term))
        ],
        "reason": reason,
        "_norm_window": [start, end],
    }


def analyze_text(anchors: Anchors, text: str, masked: Sequence[tuple[int, int]] = (), *,
                 norm: NormalizedText | None = None, timeout: float = MATCH_TIMEOUT_SECONDS) -> TextAnalysis:
    """Run every matcher of ``anchors`` over ``text`` with ``masked`` (normalized
    offsets) blanked, and decide each finding, distractor and claim."""
    seg = segment(text, masked, norm)
    body = seg.text
    sentences = seg.sentences
    dismiss, escalate, correct = _cue_patterns()
    correct_after = _correct_after_patterns()
    radius = anchors.scoring.window_sentences
    timeouts: list[str] = []

    def safe_hits(terms: Sequence[CompiledTerm], category: str, owner: str) -> list[Hit]:
        try:
            return _hits(terms, category, owner, body, timeout)
        except MatchTimeout as exc:
            timeouts.append(f"{owner}/{category}: {exc}")
            return []

    def window(idx: int) -> tuple[int, int]:
        para = sentences[idx].paragraph
        lo = idx
        while lo > 0 and idx - lo < radius and sentences[lo - 1].paragraph == para:
            lo -= 1
        hi = idx
        while hi + 1 < len(sentences) and hi - idx < radius and sentences[hi + 1].paragraph == para:
            hi += 1
        return lo, hi

    def section(idx: int) -> tuple[int, int]:
        para = sentences[idx].paragraph
        lo = idx
        while lo > 0 and sentences[lo - 1].paragraph == para:
            lo -= 1
        hi = idx
        next_para = None
        while hi + 1 < len(sentences):
            p = sentences[hi + 1].paragraph
            if p == para:
                hi += 1
            elif next_para is None or p == next_para:
                next_para = p
                hi += 1
            else:
                break
        return lo, hi

    def by_sentence(hits: Iterable[Hit]) -> dict[int, list[Hit]]:
        out: dict[int, list[Hit]] = {}
        for h in hits:
            i = _sentence_index(sentences, h.start)
            if i is not None:
                out.setdefault(i, []).append(h)
        return out

    all_term_hits: list[Hit] = []
    finding_hits = {}
    for f in anchors.findings:
        hs = {
            "name": safe_hits(f.names, "name", f.id),
            "severity": safe_hits(f.severity_terms, "severity", f.id),
            "remediation": safe_hits(f.remediation, "remediation", f.id),
            "record": safe_hits(f.record, "record", f.id),
        }
        finding_hits[f.id] = hs
        for v in hs.values():
            all_term_hits.extend(v)
    distractor_hits = {d.id: safe_hits(d.names, "distractor", d.id) for d in anchors.distractors}
    claim_hits = {c.id: safe_hits(c.phrasings, "claim", c.id) for c in anchors.must_not_say}
    for v in list(distractor_hits.values()) + list(claim_hits.values()):
        all_term_hits.extend(v)
    spans_by_sentence = {i: [(h.start, h.end) for h in hs] for i, hs in by_sentence(all_term_hits).items()}

    def prose(i: int) -> bool:
        return _is_prose(seg, sentences[i], spans_by_sentence.get(i, []))

    def dismissed(i: int) -> bool:
        s = sentences[i]
        try:
            return _any_cue(dismiss, body, s.start, s.end, timeout)
        except TimeoutError:
            return False

    findings_out: list[FindingOutcome] = []
    for f in anchors.findings:
        hs = finding_hits[f.id]
        outcome = FindingOutcome(f.id)
        names = by_sentence(hs["name"])
        corro = {cat: by_sentence(hs[cat]) for cat in ("severity", "remediation", "record")}
        for i in sorted(names):
            lo, hi = window(i)
            in_window = {cat: [h for j in range(lo, hi + 1) for h in corro[cat].get(j, [])] for cat in corro}
            is_prose, is_dismissed = prose(i), dismissed(i)
            usable = is_prose and not is_dismissed
            if usable:
                # Rubric proxies read a little wider than credit does: the naming paragraph
                # and the one after it (memos often rate or fix an issue in the next paragraph).
                elo, ehi = section(i)
                in_section = {cat: any(corro[cat].get(j) for j in range(elo, ehi + 1)) for cat in corro}
                outcome.severity_window |= in_section["severity"]
                outcome.remediation_window |= in_section["remediation"]
                outcome.record_window |= in_section["record"]
            # A corroborating hit that overlaps the naming span is the name itself, not
            # corroboration: it must stand apart from at least one name hit.
            support = [h for cat in ("severity", "remediation", "record") for h in in_window[cat]
                       if any(not (h.start < n.end and n.start < h.end) for n in names[i])]
            if all(_is_bare_word(n.term) for n in names[i]):
                # A bare one-word name (an entity, a place) next to a record fact is fact
                # recital, not analysis: it needs a severity or remediation term.
                support = [h for h in support if h.category != "record"]
            hits_here = names[i] + support
            if usable and support and not outcome.credited:
                cats = sorted({h.category for h in support})
                outcome.credited = True
                outcome.credit = _evidence(seg, sentences, lo, hi, hits_here,
                                           f"named and corroborated by {', '.join(cats)} in one window")
            elif not outcome.credited and outcome.near_miss is None:
                if not is_prose:
                    why = "named only in a heading, list or fragment, not in a sentence of the agent's own"
                elif is_dismissed:
                    why = "named but dismissed in the same sentence"
                else:
                    why = "named without severity, remediation or record corroboration in the window"
                outcome.near_miss = _evidence(seg, sentences, lo, hi, hits_here, why)
        if not outcome.credited and outcome.near_miss is None:
            support_any = [h for cat in corro for hl in corro[cat].values() for h in hl]
            if support_any:
                h = support_any[0]
                i = _sentence_index(sentences, h.start)
                if i is not None:
                    lo, hi = window(i)
                    outcome.near_miss = _evidence(seg, sentences, lo, hi, [h],
                                                  "corroborating terms appear but the issue is never named")
        findings_out.append(outcome)

    distractors_out: list[DistractorOutcome] = []
    for d in anchors.distractors:
        outcome = DistractorOutcome(d.id)
        for i, hs in sorted(by_sentence(distractor_hits[d.id]).items()):
            lo, hi = window(i)
            if not prose(i) or dismissed(i):
                if outcome.declined is None:
                    outcome.declined = _evidence(seg, sentences, lo, hi, hs, "mentioned and declined (or not in prose)")
                continue
            try:
                cue = _any_cue(escalate, body, sentences[lo].start, sentences[hi].end, timeout)
            except TimeoutError:
                cue = False
            if cue:
                outcome.flagged = True
                outcome.evidence = _evidence(seg, sentences, lo, hi, hs, "distractor escalated (risk language in window)")
                break
        distractors_out.append(outcome)

    claims_out: list[ClaimOutcome] = []
    for c in anchors.must_not_say:
        outcome = ClaimOutcome(c.id)
        for h in sorted(claim_hits[c.id], key=lambda h: h.start):
            i = _sentence_index(sentences, h.start)
            # A claim's own words count toward prose: a short assertion is still an assertion.
            if i is None or not _is_prose(seg, sentences[i], ()):
                continue
            s = sentences[i]
            try:
                # a correction may come before the claim ("it is wrong to say X") or after it ("X is incorrect")
                corrected = (_any_cue(correct, body, s.start, h.start, timeout)
                             or _any_cue(correct_after, body, h.end, s.end, timeout))
            except TimeoutError:
                corrected = False
            if not corrected:
                outcome.made = True
                outcome.evidence = _evidence(seg, sentences, i, i, [h], "prohibited claim stated")
                break
        claims_out.append(outcome)

    return TextAnalysis(seg, findings_out, distractors_out, claims_out, timeouts)
