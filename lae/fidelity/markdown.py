"""A fidelity report as Markdown: what ``lae fidelity`` prints and ``docs/fidelity.md`` holds."""

from __future__ import annotations

from .models import Disagreement, FidelityReport, Tally

__all__ = ["render_markdown", "representative"]

_KINDS = {
    "A": "thorough prose memo",
    "B": "issues table, terse cells",
    "C": "hurried partial memo, one wrong dismissal",
    "D": "raises nothing, reuses the matter's vocabulary",
    "E": "raises everything in a different lawyer's words",
    "F": "agent-style memo: headings, bold severities, numbered issues",
    "G": "kitchen sink written without the key",
}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _frac(n: int, d: int) -> str:
    return "—" if not d else f"{n} of {d}"


def _cells(t: Tally, *, reward: bool = True) -> list[str]:
    cells = [str(t.memos), _frac(t.raised - t.raised_not_credited, t.raised), _frac(t.not_raised_credited, t.not_raised),
             _pct(t.over_credit), _pct(t.under_credit),
             f"{t.distractors_escalated_by_grader_only} / {t.distractors_escalated_by_label_only}",
             f"{t.claims_made_by_grader_only} / {t.claims_made_by_label_only}"]
    if reward:
        cells.append("—" if t.mean_reward is None else f"{t.mean_reward:.3f}")
    return cells


_HEAD = ["memos", "raised → credited", "not raised → credited", "over-credit", "under-credit",
         "distractors (grader only / label only)", "claims (grader only / label only)"]


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    def esc(cell: str) -> str:
        return cell.replace("|", "\\|").replace("\n", " ")

    out = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return out


_ORDER = ["over_credit", "under_credit", "distractor_escalated_by_grader", "distractor_escalated_by_label",
          "claim_made_by_grader", "claim_made_by_label"]


def representative(report: FidelityReport, count: int = 12) -> list[Disagreement]:
    """Up to ``count`` disagreements spread over categories and memo kinds: round-robin
    over (category, kind), over-credit first, each bucket in report order."""
    buckets: dict[tuple[str, str], list[Disagreement]] = {}
    for d in report.disagreements:
        buckets.setdefault((d.category, d.kind), []).append(d)
    matters = sorted({(d.pocket, d.task_id) for d in report.disagreements})
    order = sorted(buckets, key=lambda k: (_ORDER.index(k[0]), k[1]))
    for i, key in enumerate(order):  # bucket i starts at matter i: the picks spread over matters too
        buckets[key].sort(key=lambda d: (matters.index((d.pocket, d.task_id)) - i) % len(matters))
    picked: list[Disagreement] = []
    depth = 0
    while len(picked) < count and any(len(b) > depth for b in buckets.values()):
        for key in order:
            if len(buckets[key]) > depth and len(picked) < count:
                picked.append(buckets[key][depth])
        depth += 1
    return picked


def _quote(text: str | None, limit: int = 400) -> str:
    if not text:
        return "(none)"
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _disagreement(d: Disagreement) -> list[str]:
    return [f"- **{d.pocket}/{d.task_id} memo {d.memo_id} (kind {d.kind}), {d.item_id} {d.item_title}**: "
            f"label {d.label}, grader {d.grader} ({d.category.replace('_', ' ')})",
            f"  - memo, where the grader looked: {_quote(d.memo_sentence)}",
            f"  - grader's reason: {_quote(d.grader_reason)}",
            f"  - label's sentence: {_quote(d.label_sentence)}"]


def render_markdown(report: FidelityReport, *, title: str = "Grader fidelity", command: str | None = None,
                    disagreements: int | None = 12, findings: bool = True) -> str:
    """The report as Markdown: totals, tables per pocket, per memo kind and per pocket and
    kind, per finding, and ``disagreements`` representative disagreements (None: all)."""
    t = report.totals
    g = report.grader
    out = [f"# {title}", "",
           f"Grader {g.version} (scoring contract {g.scoring_contract_version}, source `{g.source_digest[:16]}…`), "
           f"measured on {t.memos} labelled memos from `{report.source}`: **{_pct(t.over_credit)} over-credit** "
           f"({_frac(t.not_raised_credited, t.not_raised)} findings not raised were credited), "
           f"**{_pct(t.under_credit)} under-credit** ({_frac(t.raised_not_credited, t.raised)} findings raised were not "
           f"credited), mean reward {t.mean_reward:.3f}." if t.mean_reward is not None else "", "",
           f"_{report.note}._", ""]
    if command:
        out += ["Regenerate with:", "", "```bash", command, "```", ""]
    out += ["## By memo kind", ""]
    out += _table(["kind", "what it is"] + _HEAD + ["mean reward"],
                  [[k.kind, _KINDS.get(k.kind, "")] + _cells(k.tally) for k in report.kinds])
    out += ["", "## By pocket", ""]
    out += _table(["pocket"] + _HEAD + ["mean reward"], [[p.pocket] + _cells(p.tally) for p in report.pockets])
    out += ["", "## By pocket and memo kind", ""]
    out += _table(["pocket", "kind"] + _HEAD + ["mean reward"],
                  [[r.pocket, r.kind] + _cells(r.tally) for r in report.pocket_kinds])
    if findings:
        out += ["", "## By finding", ""]
        out += _table(["matter", "finding"] + _HEAD,
                      [[f"{r.pocket}/{r.task_id}", f"{r.finding_id} {r.title}"] + _cells(r.tally, reward=False)
                       for r in report.findings])
    shown = report.disagreements if disagreements is None else representative(report, disagreements)
    out += ["", f"## Disagreements ({len(shown)} of {len(report.disagreements)})", ""]
    for d in shown:
        out += _disagreement(d)
    if report.warnings:
        out += ["", "## Label warnings", ""] + [f"- {w}" for w in report.warnings]
    return "\n".join(out).rstrip("\n") + "\n"
