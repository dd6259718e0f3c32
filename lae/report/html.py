"""The static audit report: an overview page and one page per rollout.

Rendered with jinja2 (autoescape on: every string from a result, a memo or a file
name is escaped), inline CSS, no JavaScript and no external resource, so the folder
opens from disk and shows the same thing offline. Each rollout page shows the memo's
graded text with every credited window highlighted and anchored, linked both ways to
the finding it credits; quoted (masked) spans, near misses, false flags and
prohibited claims are marked the same way.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from lae.grader.results import ScoreResult
from lae.report.aggregate import GENERATOR, LoadedRuns, RolloutRecord, page_for
from lae.report.models import ReportSummary, RolloutEntry

__all__ = ["Segment", "anchor_id", "memo_segments", "render_index", "render_rollout", "write_html_report"]

_TEMPLATES = Path(__file__).resolve().parent / "templates"


def anchor_id(raw: str) -> str:
    """An HTML id fragment from a key id (ids are short and ASCII, but never trust them)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", raw)


@dataclass
class _Span:
    start: int
    end: int
    kind: str  # credit | hit | near | flag | claim | masked
    key: str
    title: str


@dataclass
class Segment:
    """A run of graded text with the same set of marks."""

    text: str
    classes: list[str] = field(default_factory=list)
    title: str = ""
    # Anchors that open here: (id, label, href back to the table row, kind).
    anchors: list[tuple[str, str, str, str]] = field(default_factory=list)


_ANCHOR_PREFIX = {"credit": "ev", "near": "nm", "flag": "ff", "claim": "claim"}
_ROW_PREFIX = {"credit": "finding", "near": "finding", "flag": "distractor", "claim": "claimrow"}


def _spans(result: ScoreResult) -> list[_Span]:
    n = len(result.graded_text)
    spans: list[_Span] = []

    def add(window: tuple[int, int], kind: str, key: str, title: str) -> None:
        s, e = max(0, min(n, window[0])), max(0, min(n, window[1]))
        if s < e:
            spans.append(_Span(s, e, kind, key, title))

    for f in result.findings:
        if f.credited and f.evidence is not None and f.evidence.source == "deliverable":
            add(f.evidence.window, "credit", f.id, f"credits {f.id}: {f.title} ({f.evidence.reason})")
            for h in f.evidence.hits:
                add(h.span, "hit", f.id, f"{h.category} term: {h.term}")
        elif f.near_miss is not None and f.near_miss.source == "deliverable":
            add(f.near_miss.window, "near", f.id, f"near miss for {f.id}: {f.near_miss.reason}")
    for d in result.distractors:
        if d.flagged and d.evidence is not None:
            add(d.evidence.window, "flag", d.id, f"false flag {d.id}: {d.title}")
    for c in result.claims:
        if c.made and c.evidence is not None:
            add(c.evidence.window, "claim", c.id, f"prohibited claim {c.id}")
    for i, m in enumerate(result.masked):
        add(m.span, "masked", str(i), "quoted from the matter documents: masked before matching, earns no credit")
    return spans


def memo_segments(result: ScoreResult) -> list[Segment]:
    """Split the graded text at every mark boundary; each piece knows its marks and the
    anchors that open at its start (the first piece of each window)."""
    text = result.graded_text
    spans = _spans(result)
    cuts = sorted({0, len(text), *(s.start for s in spans), *(s.end for s in spans)})
    opened: set[tuple[str, str]] = set()
    segments = []
    for a, b in itertools.pairwise(cuts):
        active = [s for s in spans if s.start <= a and b <= s.end]
        seg = Segment(text=text[a:b], classes=sorted({s.kind for s in active}),
                      title="; ".join(dict.fromkeys(s.title for s in active)))
        for s in active:
            if s.kind in _ANCHOR_PREFIX and s.start == a and (s.kind, s.key) not in opened:
                opened.add((s.kind, s.key))
                ident = f"{_ANCHOR_PREFIX[s.kind]}-{anchor_id(s.key)}"
                seg.anchors.append((ident, s.key, f"#{_ROW_PREFIX[s.kind]}-{anchor_id(s.key)}", s.kind))
        segments.append(seg)
    return segments


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters["f3"] = lambda x: "n/a" if x is None else f"{x:.3f}"
    env.filters["spread"] = _spread_text
    env.filters["heat"] = _heat_style
    env.filters["aid"] = anchor_id
    env.filters["firstline"] = lambda t: (t or "").strip().splitlines()[0] if (t or "").strip() else ""
    return env


def _spread_text(s) -> str:
    if s is None or s.mean is None:
        return "n/a"
    if s.min is None or s.max is None:
        return f"{s.mean:.3f}"
    return f"{s.mean:.3f} ({s.min:.3f}–{s.max:.3f})"


def _heat_style(rate: float | None) -> str:
    if rate is None:
        return "background:#eeeeee;color:#666666"
    hue = round(120 * rate)
    return f"background:hsl({hue},65%,82%)"


def render_index(summary: ReportSummary) -> str:
    """The overview page (``index.html``)."""
    lab_keys = sorted({k for row in summary.lab for k in row.metrics}, key=lambda k: (not k.startswith("lab_"), k))
    return _environment().get_template("index.html.j2").render(s=summary, lab_keys=lab_keys, generator=summary.generator)


def render_rollout(entry: RolloutEntry, record: RolloutRecord) -> str:
    """One rollout's audit page."""
    assert record.result is not None
    result = record.result
    judge = {c.id: c for c in record.judge.criteria} if record.judge else {}
    segments = memo_segments(result)
    anchors = {a[0] for seg in segments for a in seg.anchors}
    return _environment().get_template("rollout.html.j2").render(
        e=entry, r=result, judge=record.judge, generator=GENERATOR, judge_by_id=judge, segments=segments,
        anchors=anchors, masked_chars=sum(len(m.text) for m in result.masked))


def write_html_report(summary: ReportSummary, loaded: LoadedRuns, out_dir: Path) -> list[Path]:
    """Write ``index.html`` and ``rollouts/*.html`` into ``out_dir``; return the files written.

    Rollout pages left from an earlier report in the same folder are removed, so every
    page in ``rollouts/`` belongs to this report."""
    from lae.fsio import atomic_write

    out_dir = Path(out_dir)
    written: list[Path] = []
    by_id = {e.id: e for e in summary.rollouts}
    pages: set[str] = set()
    for record in loaded.records:
        if record.result is None:
            continue
        entry = by_id[record.id]
        page = entry.page or page_for(record)
        pages.add(page)
        path = out_dir / page
        atomic_write(path, render_rollout(entry, record).encode("utf-8"))
        written.append(path)
    rollouts_dir = out_dir / "rollouts"
    if rollouts_dir.is_dir():
        for old in rollouts_dir.glob("*.html"):
            if f"rollouts/{old.name}" not in pages:
                os.unlink(old)
    index = out_dir / "index.html"
    atomic_write(index, render_index(summary).encode("utf-8"))
    written.append(index)
    return written
