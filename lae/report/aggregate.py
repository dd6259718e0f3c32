"""Read rollout results and aggregate them by model × task × rollout.

Inputs (``load_runs``):

* rollout folders, as ``lae run`` writes them (``OUT/<model>/<task>/r<N>/`` with
  ``result.json``, ``rollout.json``) or as ``lae score --runs`` leaves them
  (``DIR/<rollout>/result.json``, optional ``rollout.json`` with ``task_id`` and
  ``model``); an optional ``judge.json`` beside ``result.json`` is the judge telemetry;
* verifiers eval output, one JSON object per line: classic ``vf-eval`` rows
  (``results.jsonl``: a ``metrics`` dict or the metrics flattened at the top level,
  ``reward``, and an ``info`` dict with ``task_id``, ``pocket``, ``model``,
  ``freeze_root``, ``reportable``) or verifiers v1 traces (``traces.jsonl``:
  ``metrics``, ``rewards.reward.score``, ``task.data.{task_id,pocket,source}``,
  ``agent.config.model``). A full ``ScoreResult`` under ``info.result`` or
  ``info.lae.result`` (what ``lae.env.verifiers_adapter`` records) gets an audit page;
  the model may also come from ``metadata.json``/``eval.json`` beside the file.
  Records whose grading failed (``scoring_error`` > 0) are left out with a warning.

A record whose metrics carry the ``lab_`` prefix is LAB mode (workflow discipline
over someone else's tree); LAB records are aggregated in a table of their own and
never averaged with factory metrics.

Aggregation is pure: ``aggregate(records, ...) -> ReportSummary``. Results from
different releases of one pocket (different freeze roots, or different anchors or
grader sources for the same task) are refused (``RefusalError``, exit 3) unless
``allow_mixed``, which marks the pocket ``mixed`` and unreportable.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from statistics import fmean
from typing import Literal

from pydantic import ValidationError

from lae import __version__
from lae.errors import InvalidInputError, Problem, RefusalError
from lae.freeze.manifest import FidelityRecord
from lae.runs import JUDGE_JSON, RESULT_JSON, ROLLOUT_JSON, WORKSPACE, RolloutHint, read_hint
from lae.grader.results import ScoreResult
from lae.jsonio import loads
from lae.report.models import (
    Comparison,
    ErroredRollout,
    UsageTotals,
    CriterionAgreement,
    FindingHeat,
    HeatCell,
    JudgeRecord,
    JudgeSummary,
    LabModelRow,
    ModelRow,
    PocketReport,
    ReportSummary,
    RolloutEntry,
    Spread,
    TaskRow,
)

__all__ = [
    "FACTORY_METRICS",
    "LoadedRuns",
    "RolloutRecord",
    "aggregate",
    "cohen_kappa",
    "load_runs",
    "page_for",
    "render_markdown",
    "spread",
]

GENERATOR = f"lae.report {__version__}"

#: Metrics every factory record must carry (``transcript_recall`` may be missing/None).
FACTORY_METRICS = ("reward", "finding_recall", "deliverable_complete", "false_flag_rate", "must_not_say",
                   "criterion_pass_rate_proxy")
OPTIONAL_METRICS = ("transcript_recall",)
UNKNOWN_MODEL = "unknown-model"
UNKNOWN_POCKET = "unknown-pocket"


@dataclass
class RolloutRecord:
    """One rollout as read from disk (internal; the report exposes ``RolloutEntry``)."""

    kind: Literal["factory", "lab"]
    model: str
    pocket: str
    task_id: str
    source: str
    source_format: Literal["result.json", "verifiers-jsonl"]
    metrics: dict[str, float | None]
    reportable: bool
    freeze_root: str | None
    release_reason: str | None
    declared_rollout: int | None = None
    result: ScoreResult | None = None
    judge: JudgeRecord | None = None
    folder: Path | None = None
    anchors_sha256: str | None = None
    grader_digest: str | None = None
    hint: RolloutHint | None = None  # the rollout.json beside the result (run id, usage)
    # set by number_rollouts
    position: int = 0
    rollout: int = 0

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.kind, self.model, self.pocket, self.task_id)

    @property
    def id(self) -> str:
        return f"{self.model}/{self.pocket}/{self.task_id}/r{self.rollout}"


@dataclass
class LoadedRuns:
    records: list[RolloutRecord]
    warnings: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    errored: list[tuple[ErroredRollout, RolloutHint]] = field(default_factory=list)


# --------------------------------------------------------------------------- loading

def _discover(arg: Path) -> list[tuple[str, Path, str]]:
    """(format, file, label) for each result file under one RUNS argument."""
    path = Path(arg)
    if path.is_file():
        fmt = "verifiers-jsonl" if path.suffix == ".jsonl" else "result.json"
        return [(fmt, path, arg.as_posix())]
    if not path.is_dir():
        raise InvalidInputError("no such runs folder", [Problem(arg.as_posix(), "does not exist",
                                                                mend="give a run folder, a rollout folder or a results.jsonl")])
    found = []
    for p in sorted(path.rglob("*")):
        rel = p.relative_to(path)
        # The agent's workspace is untrusted: a file it saved there is never a result.
        if any(part.startswith(".") or part == WORKSPACE for part in rel.parts[:-1]):
            continue
        if p.name == RESULT_JSON and p.is_file():
            found.append(("result.json", p, str(PurePosixPath(arg.as_posix()) / rel.as_posix())))
        elif p.name == ROLLOUT_JSON and p.is_file() and not (p.parent / RESULT_JSON).is_file():
            found.append(("rollout-error", p, str(PurePosixPath(arg.as_posix()) / rel.as_posix())))
        elif p.name in ("results.jsonl", "traces.jsonl") and p.is_file():
            found.append(("verifiers-jsonl", p, str(PurePosixPath(arg.as_posix()) / rel.as_posix())))
    return found


def _read_json(path: Path, label: str) -> object:
    try:
        return loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InvalidInputError("unreadable result file", [Problem(label, f"not readable JSON: {exc}",
                                                                   mend="re-run `lae score --runs` on the folder")]) from None


def _is_lab(metrics: dict) -> bool:
    return any(str(k).startswith("lab_") for k in metrics)


def _numeric(metrics: dict) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for k, v in metrics.items():
        if v is None:
            out[str(k)] = None
        elif isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(float(v)):
            continue  # non-numeric columns (names, strings) are not metrics
        else:
            out[str(k)] = float(v)
    return out


def _missing_factory(metrics: dict[str, float | None]) -> list[str]:
    return [m for m in FACTORY_METRICS if metrics.get(m) is None]


def _int_or_none(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _load_result_json(path: Path, label: str, warnings: list[str]) -> RolloutRecord:
    data = _read_json(path, label)
    folder = path.parent
    hint = read_hint(folder)
    meta = hint.model_dump()
    declared = _declared_rollout(hint, folder)
    model = hint.model or UNKNOWN_MODEL
    judge = None
    judge_path = folder / JUDGE_JSON
    if judge_path.is_file():
        try:
            judge = JudgeRecord.model_validate_json(judge_path.read_bytes())
        except (OSError, ValidationError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            warnings.append(f"{label.rsplit('/', 1)[0]}/judge.json: ignored ({first})")
    try:
        result = ScoreResult.model_validate(data)
    except ValidationError as exc:
        raw = _dict(data)
        metrics = raw.get("metrics")
        if isinstance(metrics, dict) and _is_lab(metrics):
            return RolloutRecord(kind="lab", model=model, pocket=str(raw.get("pocket") or meta.get("pocket") or "lab"),
                                 task_id=str(raw.get("task_id") or meta.get("task_id") or folder.name), source=label,
                                 source_format="result.json", metrics=_numeric(metrics),
                                 reportable=False, freeze_root=None, release_reason="LAB mode: no frozen release",
                                 declared_rollout=declared, folder=folder, hint=hint)
        errs = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()[:3])
        raise InvalidInputError("not a grader result", [Problem(label, errs, mend="re-score the rollout with `lae score --runs`")]) from None
    metrics = result.metrics.model_dump()
    return RolloutRecord(kind="factory", model=model, pocket=result.pocket, task_id=result.task_id, source=label,
                         source_format="result.json", metrics=metrics, reportable=bool(result.reportable and result.freeze_root),
                         freeze_root=result.freeze_root, release_reason=result.release.reason,
                         declared_rollout=declared, result=result, judge=judge, folder=folder,
                         anchors_sha256=result.anchors_sha256, grader_digest=result.grader.source_digest, hint=hint)


def _declared_rollout(hint: RolloutHint, folder: Path) -> int | None:
    if hint.rollout is not None:
        return hint.rollout
    m = re.fullmatch(r"r(\d+)", folder.name)
    return int(m.group(1)) if m else None


def _load_errored(path: Path, label: str) -> tuple[ErroredRollout, RolloutHint] | None:
    """An errored rollout (``rollout.json`` status error, no result): listed, never scored."""
    hint = read_hint(path.parent)
    if hint.status != "error":
        return None
    return ErroredRollout(model=hint.model or UNKNOWN_MODEL, pocket=hint.pocket or UNKNOWN_POCKET,
                          task_id=hint.task_id or path.parent.name, rollout=_declared_rollout(hint, path.parent),
                          run_id=hint.run_id, source=label, error=_first_line(hint.error)), hint


def _dict(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _run_model(folder: Path, label: str, warnings: list[str]) -> str | None:
    """The model of a verifiers run from its config beside the records (``metadata.json``
    of classic ``vf-eval``, ``eval.json`` of verifiers v1)."""
    for name in ("metadata.json", "eval.json"):
        meta_path = folder / name
        if not meta_path.is_file():
            continue
        try:
            meta = loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            warnings.append(f"{label.rsplit('/', 1)[0]}/{name}: unreadable; model names taken from records")
            continue
        model = _dict(meta).get("model")
        if isinstance(model, dict):
            model = model.get("name") or model.get("model")
        if isinstance(model, str) and model:
            return model
    return None


def _record_model(rec: dict, info: dict) -> str | None:
    calls = rec.get("calls")
    calls = calls if isinstance(calls, list) else []
    for candidate in (rec.get("model"), info.get("model"), _dict(_dict(rec.get("agent")).get("config")).get("model"),
                      *(_dict(c).get("model") for c in calls)):
        if isinstance(candidate, str) and candidate:
            return candidate
    return None


def _episode_traces(rec: object) -> list[object]:
    """verifiers 0.4 writes one *episode* per line, its agents' traces under ``traces``;
    older files hold one trace (or classic row) per line."""
    if isinstance(rec, dict) and isinstance(rec.get("traces"), list) and "metrics" not in rec:
        return list(rec["traces"])
    return [rec]


def _load_verifiers(path: Path, label: str, warnings: list[str]) -> list[RolloutRecord]:
    """Records of a verifiers eval: classic ``results.jsonl`` rows or v1 ``traces.jsonl`` traces."""
    default_model = _run_model(path.parent, label, warnings)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError("unreadable results file", [Problem(label, str(exc), mend="give a UTF-8 JSONL file")]) from None
    records: list[RolloutRecord] = []
    problems: list[Problem] = []
    parsed: list[tuple[int, object]] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            parsed.extend((lineno, rec) for rec in _episode_traces(loads(line)))
        except ValueError as exc:
            problems.append(Problem(label, f"not JSON: {exc}", line=lineno, mend="one JSON object per line"))
    for lineno, rec in parsed:
        if not isinstance(rec, dict):
            problems.append(Problem(label, "a record must be a JSON object", line=lineno, mend="one JSON object per line"))
            continue
        info = _dict(rec.get("info"))
        lae_info = _dict(info.get("lae"))  # lae.env.verifiers_adapter keeps the full result here
        task_data = _dict(_dict(rec.get("task")).get("data"))  # verifiers v1 traces
        raw_metrics = _dict(rec.get("metrics")) or {
            k: v for k, v in rec.items() if k in FACTORY_METRICS + OPTIONAL_METRICS or str(k).startswith("lab_")}
        if "reward" not in raw_metrics:
            reward = rec.get("reward")
            if reward is None:
                reward = _dict(_dict(rec.get("rewards")).get("reward")).get("score")
            if reward is not None:
                raw_metrics = {**raw_metrics, "reward": reward}
        metrics = _numeric(raw_metrics)
        model = _record_model(rec, info) or default_model or UNKNOWN_MODEL
        task_id = str(info.get("task_id") or task_data.get("task_id") or rec.get("task_id") or rec.get("example_id")
                      or f"line-{lineno}")
        pocket = info.get("pocket") or task_data.get("pocket")
        declared = _int_or_none(info.get("rollout"))
        where = f"{label}:{lineno}"
        if (metrics.get("scoring_error") or 0) > 0 or (metrics.get("lab_scoring_error") or 0) > 0:
            warnings.append(f"{where}: the grader failed on this rollout ({_first_line(str(lae_info.get('error') or 'no detail'))}); "
                            "not aggregated")
            continue
        if _is_lab(metrics) or task_data.get("source") == "lab":
            lab_metrics = {k: v for k, v in metrics.items() if k != "lab_scoring_error"}
            records.append(RolloutRecord(kind="lab", model=model, pocket=str(pocket or "lab"), task_id=task_id,
                                         source=where, source_format="verifiers-jsonl", metrics=lab_metrics, reportable=False,
                                         freeze_root=None, release_reason="LAB mode: no frozen release",
                                         declared_rollout=declared))
            continue
        result = None
        raw_result = info.get("result") if isinstance(info.get("result"), dict) else lae_info.get("result")
        if isinstance(raw_result, dict):
            try:
                result = ScoreResult.model_validate(raw_result)
            except ValidationError:
                warnings.append(f"{where}: the recorded result is not a grader result; metrics only")
        if result is not None:
            metrics = {**metrics, **result.metrics.model_dump()}
        missing = _missing_factory(metrics)
        if missing:
            problems.append(Problem(label, f"record carries none of our metrics {', '.join(missing)}", line=lineno,
                                    field="metrics", mend="records need a metrics dict with lae's metrics "
                                    "(reward, finding_recall, deliverable_complete, ...) or lab_ metrics"))
            continue
        freeze_root = (result.freeze_root if result else info.get("freeze_root")) or None
        reportable = bool(result.reportable if result else info.get("reportable")) and freeze_root is not None
        reason = (result.release.reason if result else info.get("release_reason")) or (
            None if reportable else "the record carries no verified freeze root")
        records.append(RolloutRecord(
            kind="factory", model=model, pocket=str(result.pocket if result else pocket or UNKNOWN_POCKET),
            task_id=result.task_id if result else task_id, source=where, source_format="verifiers-jsonl",
            metrics={k: metrics.get(k) for k in FACTORY_METRICS + OPTIONAL_METRICS},
            reportable=reportable, freeze_root=str(freeze_root) if freeze_root else None, release_reason=reason,
            declared_rollout=declared, result=result,
            anchors_sha256=result.anchors_sha256 if result else info.get("anchors_sha256"),
            grader_digest=result.grader.source_digest if result else None))
    if problems:
        raise InvalidInputError(f"{label}: records without our metrics", problems)
    return records


def load_runs(args: Sequence[Path | str]) -> LoadedRuns:
    """Read every result under the given paths (folders are searched recursively)."""
    if not args:
        raise ValueError("load_runs needs at least one path")
    out = LoadedRuns(records=[], inputs=[Path(a).as_posix() for a in args])
    seen: set[Path] = set()
    for arg in args:
        arg = Path(arg)
        found = _discover(arg)
        if not found:
            raise InvalidInputError("no results found", [Problem(arg.as_posix(), "holds no result.json, results.jsonl or traces.jsonl",
                                                                 mend="score the rollouts first: lae score --runs DIR")])
        for fmt, path, label in found:
            real = path.resolve()
            if real in seen:
                continue
            seen.add(real)
            if fmt == "rollout-error":
                errored = _load_errored(path, label)
                if errored:
                    out.errored.append(errored)
            elif fmt == "result.json":
                out.records.append(_load_result_json(path, label, out.warnings))
            else:
                out.records.extend(_load_verifiers(path, label, out.warnings))
    if not out.records and not out.errored:
        raise InvalidInputError("no results found", [Problem(", ".join(out.inputs), "no rollout records",
                                                             mend="score the rollouts first: lae score --runs DIR")])
    if any(r.model == UNKNOWN_MODEL for r in out.records):
        n = sum(r.model == UNKNOWN_MODEL for r in out.records)
        out.warnings.append(f"{n} rollout(s) name no model (no rollout.json 'model'); reported as {UNKNOWN_MODEL!r}")
    number_rollouts(out.records, out.warnings)
    return out


def number_rollouts(records: list[RolloutRecord], warnings: list[str]) -> None:
    """Give each record its position (replicate index) among its (model, task)'s rollouts,
    and a rollout number: the declared one, or the position when declared numbers repeat."""
    groups: dict[tuple, list[RolloutRecord]] = defaultdict(list)
    for r in records:
        groups[r.key].append(r)
    for key, group in sorted(groups.items()):
        group.sort(key=lambda r: (r.declared_rollout if r.declared_rollout is not None else 1 << 30, r.source))
        declared = [r.declared_rollout for r in group]
        unique = None not in declared and len(set(declared)) == len(declared)
        if not unique and len(group) > 1 and any(d is not None for d in declared):
            warnings.append(f"{key[1]}/{key[2]}/{key[3]}: rollout numbers repeat or are missing; numbered by position")
        for i, r in enumerate(group, 1):
            r.position = i
            r.rollout = r.declared_rollout if unique and r.declared_rollout is not None else i


# --------------------------------------------------------------------------- arithmetic

def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def spread(values_by_task: dict[str, list[float | None]]) -> Spread:
    """Mean over every rollout, and the min–max of the per-rollout-index means.

    ``values_by_task`` maps a task to its rollouts' values in rollout order. The k-th
    replicate is the mean over the tasks' k-th rollouts: one pass over the tasks, as a
    single run of the benchmark would give. With one task the replicates are its rollouts.
    """
    values: list[float] = [v for vs in values_by_task.values() for v in vs if v is not None]
    depth = max((len(vs) for vs in values_by_task.values()), default=0)
    reps: list[float] = []
    for k in range(depth):
        column = [v for vs in values_by_task.values() if len(vs) > k and (v := vs[k]) is not None]
        if column:
            reps.append(round(fmean(column), 6))
    has_range = len(reps) >= 2
    return Spread(mean=round(fmean(values), 6) if values else None, n=len(values), replicates=reps,
                  min=min(reps) if has_range else None, max=max(reps) if has_range else None)


def cohen_kappa(pairs: Sequence[tuple[bool, bool]]) -> tuple[float | None, str | None]:
    """Cohen's kappa of two binary raters, or (None, why) when undefined."""
    n = len(pairs)
    if n == 0:
        return None, "no criterion has both a judge verdict and a proxy result"
    po = sum(a == b for a, b in pairs) / n
    pa = sum(a for a, _ in pairs) / n
    pb = sum(b for _, b in pairs) / n
    pe = pa * pb + (1 - pa) * (1 - pb)
    if pe >= 1.0:
        return None, "undefined: judge and proxy gave the same single verdict throughout (chance agreement is 1)"
    return _r((po - pe) / (1 - pe)), None


def _setup(per_task: dict[str, int]) -> str:
    n = len(per_task)
    lo, hi = min(per_task.values()), max(per_task.values())
    tasks = f"{n} task{'s' if n != 1 else ''}"
    if lo == hi:
        return f"{tasks} × {lo} rollout{'s' if lo != 1 else ''}"
    return f"{tasks} × {lo}–{hi} rollouts ({sum(per_task.values())} in all)"


def _by_task(records: Iterable[RolloutRecord], metric: str) -> dict[str, list[float | None]]:
    out: dict[str, list[float | None]] = defaultdict(list)
    for r in sorted(records, key=lambda r: (r.task_id, r.position)):
        out[r.task_id].append(r.metrics.get(metric))
    return dict(out)


def page_for(record: RolloutRecord) -> str:
    """The audit page of a rollout, relative to the report folder."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{record.pocket}--{record.task_id}--{record.model}--r{record.rollout}")
    return f"rollouts/{slug.strip('_') or 'rollout'}.html"


def _judge_pairs(record: RolloutRecord) -> list[tuple[str, bool | None, bool | None, bool]]:
    """(criterion id, judge PASS?, proxy passed?, error?) per judged criterion of a rollout."""
    if record.judge is None:
        return []
    proxy = {c.id: c.passed for c in record.result.criteria} if record.result else {}
    out = []
    for c in record.judge.criteria:
        verdict = None if c.verdict is None else c.verdict == "PASS"
        out.append((c.id, verdict, proxy.get(c.id, c.proxy_passed), c.verdict is None))
    return out


def _judge_summary(records: Sequence[RolloutRecord]) -> JudgeSummary | None:
    judged = [r for r in records if r.judge is not None]
    if not judged:
        return None
    pairs: list[tuple[bool, bool]] = []
    verdicts = errors = passes = 0
    for r in judged:
        for _, j, p, err in _judge_pairs(r):
            if err:
                errors += 1
                continue
            verdicts += 1
            passes += bool(j)
            if p is not None:
                pairs.append((bool(j), bool(p)))
    kappa, note = cohen_kappa(pairs)
    return JudgeSummary(
        judged_rollouts=len(judged), verdicts=verdicts, errors=errors,
        judge_pass_rate=_r(passes / verdicts) if verdicts else None,
        proxy_pass_rate=_r(sum(p for _, p in pairs) / len(pairs)) if pairs else None,
        agreement=_r(sum(a == b for a, b in pairs) / len(pairs)) if pairs else None,
        kappa=kappa, kappa_note=note)


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _fmt_spread(s: Spread) -> str:
    if s.mean is None:
        return "n/a"
    if s.min is None or s.max is None:
        return _fmt(s.mean)
    return f"{s.mean:.3f} ({s.min:.3f}–{s.max:.3f})"


_METRIC_LABEL = {"reward": "reward", "finding_recall": "finding recall"}
_COMPARED: tuple[Literal["reward", "finding_recall"], ...] = ("reward", "finding_recall")


def _compare(pocket: str, metric: Literal["reward", "finding_recall"], a: ModelRow, b: ModelRow, tasks_a: set[str], tasks_b: set[str]) -> Comparison:
    sa: Spread = getattr(a, metric)
    sb: Spread = getattr(b, metric)
    same = tasks_a == tasks_b
    ra = (sa.min, sa.max) if sa.min is not None and sa.max is not None else None
    rb = (sb.min, sb.max) if sb.min is not None and sb.max is not None else None
    head = f"{a.model} vs {b.model}: {_METRIC_LABEL[metric]} {_fmt_spread(sa)} vs {_fmt_spread(sb)}"
    if ra is None or rb is None:
        verdict: Literal["within_noise", "separated", "no_spread"] = "no_spread"
        who = [m.model for m, r in ((a, ra), (b, rb)) if r is None]
        text = (f"{head} — cannot be judged against the noise: {', '.join(who)} "
                f"{'has' if len(who) == 1 else 'have'} one rollout per task (run at least 3).")
    elif ra[0] <= rb[1] and rb[0] <= ra[1]:
        verdict = "within_noise"
        text = f"{head} — within the noise: the ranges across rollouts overlap."
    else:
        verdict = "separated"
        hi = a.model if (sa.mean or 0) > (sb.mean or 0) else b.model
        text = f"{head} — {hi} is ahead beyond the noise: the ranges across rollouts do not overlap."
    if not same:
        text += " The two ran different task sets, so this is not like for like."
    return Comparison(pocket=pocket, metric=metric, model_a=a.model, model_b=b.model, mean_a=sa.mean or 0.0,
                      mean_b=sb.mean or 0.0, range_a=ra, range_b=rb, verdict=verdict, same_tasks=same, text=text)


def _root_label(root: str | None) -> str:
    return root if root else "none (not frozen / not reportable)"


def _mix_problems(pocket: str, records: Sequence[RolloutRecord]) -> list[Problem]:
    problems: list[Problem] = []
    roots: dict[str | None, list[RolloutRecord]] = defaultdict(list)
    for r in records:
        roots[r.freeze_root].append(r)
    if len(roots) > 1:
        listing = "; ".join(f"{_root_label(k)} ({len(v)} rollout(s), e.g. {v[0].source})"
                            for k, v in sorted(roots.items(), key=lambda kv: (kv[0] is None, kv[0] or "")))
        problems.append(Problem(pocket, f"results from {len(roots)} freeze roots: {listing}", field="freeze_root",
                                mend="report each release separately, or pass --allow-mixed to mark the mix"))
    anchors: dict[str, dict[str, RolloutRecord]] = defaultdict(dict)
    for r in records:
        if r.anchors_sha256:
            anchors[r.task_id].setdefault(r.anchors_sha256, r)
    for task, shas in sorted(anchors.items()):
        if len(shas) > 1:
            problems.append(Problem(pocket, f"task {task} was graded against {len(shas)} different anchors files ("
                                    + "; ".join(f"{sha[:12]}… e.g. {rec.source}" for sha, rec in sorted(shas.items())) + ")",
                                    field="anchors_sha256", mend="re-score every rollout against one release"))
    graders = {r.grader_digest: r for r in records if r.grader_digest}
    if len(graders) > 1:
        problems.append(Problem(pocket, f"results from {len(graders)} grader sources ("
                                + "; ".join(f"{d[:12]}… e.g. {rec.source}" for d, rec in sorted(graders.items())) + ")",
                                field="grader.source_digest", mend="re-score every rollout with one grader"))
    return problems


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else "no reason recorded"


def usage_totals(hints: Iterable[RolloutHint | None]) -> UsageTotals:
    """Usage summed over the rollouts whose ``rollout.json`` recorded it."""
    seen = [h for h in hints if h is not None and h.usage is not None]
    return UsageTotals(rollouts=len(seen), prompt_tokens=sum(h.usage.prompt_tokens for h in seen),  # type: ignore[union-attr]
                       completion_tokens=sum(h.usage.completion_tokens for h in seen),  # type: ignore[union-attr]
                       total_tokens=sum(h.usage.total_tokens for h in seen),  # type: ignore[union-attr]
                       turns=sum(h.turns or 0 for h in seen), tool_calls=sum(sum((h.tool_calls or {}).values()) for h in seen),
                       wall_seconds=round(sum(h.wall_seconds or 0.0 for h in seen), 3))


def _run_problems(records: Sequence[RolloutRecord]) -> list[Problem]:
    """Rollouts of one model and task from different runs (``run_id``): never combined silently."""
    runs: dict[tuple[str, str, str], dict[str, RolloutRecord]] = defaultdict(dict)
    for r in records:
        if r.hint is not None and r.hint.run_id:
            runs[(r.model, r.pocket, r.task_id)].setdefault(r.hint.run_id, r)
    return [Problem(f"{model}/{task}", f"rollouts from {len(ids)} runs: "
                    + "; ".join(f"{rid} (e.g. {rec.source})" for rid, rec in sorted(ids.items())), field="run_id",
                    mend="report one run folder, or pass --combine-runs to pool them")
            for (model, _, task), ids in sorted(runs.items()) if len(ids) > 1]


def _pocket_report(pocket: str, records: list[RolloutRecord], *, allow_mixed: bool, with_pages: bool,
                   errored: Sequence[tuple[ErroredRollout, RolloutHint]] = ()) -> PocketReport:
    problems = _mix_problems(pocket, records)
    if problems and not allow_mixed:
        raise RefusalError(f"refusing to mix results from different releases of pocket {pocket!r}", problems)
    by_model: dict[str, list[RolloutRecord]] = defaultdict(list)
    for r in records:
        by_model[r.model].append(r)

    rows: list[ModelRow] = []
    task_rows: list[TaskRow] = []
    task_sets: dict[str, set[str]] = {}
    for model, recs in by_model.items():
        per_task: dict[str, int] = defaultdict(int)
        for r in recs:
            per_task[r.task_id] += 1
        task_sets[model] = set(per_task)
        saved = sum(1 for r in recs if (r.metrics.get("deliverable_complete") or 0.0) >= 1.0)
        rows.append(ModelRow(
            model=model, pocket=pocket, tasks=len(per_task), rollouts=len(recs),
            rollouts_per_task=(min(per_task.values()), max(per_task.values())), setup=_setup(per_task),
            reward=spread(_by_task(recs, "reward")), finding_recall=spread(_by_task(recs, "finding_recall")),
            false_flag_rate=spread(_by_task(recs, "false_flag_rate")), must_not_say=spread(_by_task(recs, "must_not_say")),
            transcript_recall=spread(_by_task(recs, "transcript_recall")),
            criterion_pass_rate_proxy=spread(_by_task(recs, "criterion_pass_rate_proxy")),
            deliverables_saved=saved, deliverables_total=len(recs),
            reportable_rollouts=sum(1 for r in recs if r.reportable),
            errored=sum(1 for e, _ in errored if e.model == model),
            usage=usage_totals([r.hint for r in recs] + [h for e, h in errored if e.model == model]),
            judge=_judge_summary(recs)))
        for task in sorted(per_task):
            trecs = sorted((r for r in recs if r.task_id == task), key=lambda r: r.position)
            task_rows.append(TaskRow(
                model=model, pocket=pocket, task_id=task, rollouts=len(trecs),
                reward=spread({task: [r.metrics.get("reward") for r in trecs]}),
                finding_recall=spread({task: [r.metrics.get("finding_recall") for r in trecs]}),
                false_flag_rate=spread({task: [r.metrics.get("false_flag_rate") for r in trecs]}),
                deliverables_saved=sum(1 for r in trecs if (r.metrics.get("deliverable_complete") or 0.0) >= 1.0),
                rollout_pages=[page_for(r) if with_pages and r.result is not None else None for r in trecs]))
    rows.sort(key=lambda m: (-(m.reward.mean or 0.0), m.model))
    order = {m.model: i for i, m in enumerate(rows)}
    task_rows.sort(key=lambda t: (t.task_id, order[t.model]))

    comparisons = [_compare(pocket, metric, a, b, task_sets[a.model], task_sets[b.model])
                   for a, b in itertools.combinations(rows, 2) for metric in _COMPARED]

    # Per-finding recall across models (the heat map), from rollouts with full results.
    findings_meta: dict[tuple[str, str], tuple[int, str, str]] = {}
    for r in records:
        if r.result is None:
            continue
        for i, f in enumerate(r.result.findings):
            findings_meta.setdefault((r.task_id, f.id), (i, f.title, f.severity))
    heat: list[FindingHeat] = []
    for (task, fid), (_, title, severity) in sorted(findings_meta.items(), key=lambda kv: (kv[0][0], kv[1][0])):
        cells = []
        for row in rows:
            trecs = sorted((r for r in by_model[row.model] if r.task_id == task and r.result is not None),
                           key=lambda r: r.position)
            marks = []
            for r in trecs:
                match = [f for f in r.result.findings if f.id == fid]  # type: ignore[union-attr]
                marks.append(bool(match and match[0].credited))
            cells.append(HeatCell(model=row.model, credited=sum(marks), rollouts=len(marks),
                                  rate=_r(sum(marks) / len(marks)) if marks else None,
                                  pages=[f"{page_for(r)}#finding-{_anchor_id(fid)}" for r in trecs] if with_pages else [],
                                  marks=marks))
        heat.append(FindingHeat(pocket=pocket, task_id=task, finding_id=fid, title=title, severity=severity, cells=cells))

    # Judge vs proxy, per criterion (task, criterion id).
    agreement: dict[tuple[str, str], dict] = {}
    for r in records:
        titles = {c.id: c.title for c in r.judge.criteria} if r.judge else {}
        for cid, j, p, err in _judge_pairs(r):
            slot = agreement.setdefault((r.task_id, cid), {"title": titles.get(cid, cid), "pairs": 0, "judge_pass": 0,
                                                            "proxy_pass": 0, "agree": 0, "errors": 0})
            if err:
                slot["errors"] += 1
            elif p is not None:
                slot["pairs"] += 1
                slot["judge_pass"] += bool(j)
                slot["proxy_pass"] += bool(p)
                slot["agree"] += bool(j) == bool(p)
    crit = [CriterionAgreement(pocket=pocket, task_id=t, criterion_id=c, **v) for (t, c), v in sorted(agreement.items())]

    roots = sorted({r.freeze_root for r in records}, key=lambda x: (x is None, x or ""))
    reasons = sorted({_first_line(r.release_reason) for r in records if not r.reportable})
    return PocketReport(pocket=pocket, freeze_roots=roots, mixed=bool(problems), mix_problems=[str(p) for p in problems],
                        reportable=not problems and all(r.reportable for r in records), unreportable_reasons=reasons,
                        models=rows, tasks=task_rows, findings=heat, comparisons=comparisons, criteria_agreement=crit)


def _anchor_id(raw: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", raw)


def _lab_rows(records: list[RolloutRecord]) -> list[LabModelRow]:
    by_model: dict[str, list[RolloutRecord]] = defaultdict(list)
    for r in records:
        by_model[r.model].append(r)
    rows = []
    for model, recs in sorted(by_model.items()):
        per_task: dict[str, int] = defaultdict(int)
        for r in recs:
            per_task[f"{r.pocket}/{r.task_id}"] += 1
        keys = sorted({k for r in recs for k in r.metrics}, key=lambda k: (not k.startswith("lab_"), k))
        metrics = {}
        for k in keys:
            values: dict[str, list[float | None]] = defaultdict(list)
            for r in sorted(recs, key=lambda r: (r.pocket, r.task_id, r.position)):
                values[f"{r.pocket}/{r.task_id}"].append(r.metrics.get(k))
            metrics[k] = spread(dict(values))
        rows.append(LabModelRow(model=model, tasks=len(per_task), rollouts=len(recs), setup=_setup(per_task), metrics=metrics))
    return rows


def aggregate(loaded: LoadedRuns, *, allow_mixed: bool = False, with_pages: bool = False,
              combine_runs: bool = False, fidelity: Mapping[str, FidelityRecord] | None = None) -> ReportSummary:
    """Aggregate loaded records into the report summary (raises ``RefusalError`` on a mix of
    releases, or of runs of one model and task unless ``combine_runs``). Errored rollouts are
    counted and listed, never in a mean. ``fidelity`` maps a freeze root to its recorded
    fidelity, stated beside that pocket's scores."""
    factory = [r for r in loaded.records if r.kind == "factory"]
    lab = [r for r in loaded.records if r.kind == "lab"]
    by_pocket: dict[str, list[RolloutRecord]] = defaultdict(list)
    for r in factory:
        by_pocket[r.pocket].append(r)
    problems: list[Problem] = []
    for pocket, recs in sorted(by_pocket.items()):
        problems.extend(_mix_problems(pocket, recs))
    if problems and not allow_mixed:
        raise RefusalError("refusing to mix results from different releases (freeze roots)", problems)
    run_problems = _run_problems(loaded.records)
    if run_problems and not combine_runs:
        raise RefusalError("refusing to combine rollouts of different runs of the same model and task", run_problems)
    pockets = [_pocket_report(p, recs, allow_mixed=allow_mixed, with_pages=with_pages,
                              errored=[e for e in loaded.errored if e[0].pocket == p])
               for p, recs in sorted(by_pocket.items())]
    pockets = [p.model_copy(update={"fidelity": (fidelity or {}).get(p.freeze_roots[0] or "")})
               if len(p.freeze_roots) == 1 else p for p in pockets]
    warnings = list(loaded.warnings) + [f"combined runs: {p}" for p in run_problems]
    if loaded.errored:
        warnings.append(f"{len(loaded.errored)} errored rollout(s) excluded from every mean (listed under Errored rollouts)")
    for p in pockets:
        few = [m.model for m in p.models if m.rollouts_per_task[0] < 3]
        if few:
            warnings.append(f"{p.pocket}: fewer than 3 rollouts per task for {', '.join(few)}: the spread across "
                            "rollouts is thin or missing, so gaps cannot be told from noise")
    entries = []
    for r in sorted(loaded.records, key=lambda r: (r.kind, r.pocket, r.task_id, r.model, r.position)):
        judge_pass = r.judge.pass_rate if r.judge else None
        entries.append(RolloutEntry(
            id=r.id, kind=r.kind, model=r.model, pocket=r.pocket, task_id=r.task_id, rollout=r.rollout, source=r.source,
            source_format=r.source_format, reportable=r.reportable, freeze_root=r.freeze_root,
            release_reason=r.release_reason, metrics={k: _r(v) for k, v in sorted(r.metrics.items())},
            page=page_for(r) if with_pages and r.result is not None else None,
            judge_pass_rate=judge_pass, judge_errors=r.judge.errors if r.judge else None))
    return ReportSummary(
        generator=GENERATOR, inputs=list(loaded.inputs), allow_mixed=allow_mixed, mixed=any(p.mixed for p in pockets),
        reportable=bool(pockets) and all(p.reportable for p in pockets), pockets=pockets, lab=_lab_rows(lab),
        rollouts=entries, errored=sorted((e for e, _ in loaded.errored), key=lambda e: (e.pocket, e.task_id, e.model, e.source)),
        usage=usage_totals([r.hint for r in loaded.records] + [h for _, h in loaded.errored]), warnings=sorted(set(warnings)))


# --------------------------------------------------------------------------- Markdown

def _model_cell(row: ModelRow, pocket: PocketReport) -> str:
    marks = []
    if row.reportable_rollouts < row.rollouts:
        marks.append("not reportable" if row.reportable_rollouts == 0
                     else f"{row.rollouts - row.reportable_rollouts}/{row.rollouts} not reportable")
    if pocket.mixed:
        marks.append("mixed releases")
    return _md_escape(row.model) + (f" *({'; '.join(marks)})*" if marks else "")


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|<>])")


def _usage_lines(p: PocketReport) -> list[str]:
    rows = [m for m in p.models if m.usage.rollouts or m.errored]
    if not rows:
        return []
    out = ["| Model | Errored rollouts | Tokens (prompt / completion) | Turns | Tool calls | Wall time |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for m in rows:
        u = m.usage
        out.append(f"| {_md_escape(m.model)} | {m.errored} | {u.total_tokens:,} ({u.prompt_tokens:,} / {u.completion_tokens:,}) "
                   f"| {u.turns} | {u.tool_calls} | {u.wall_seconds:.1f}s |")
    return out + [""]


def _md_escape(text: str) -> str:
    """Text safe in a Markdown table cell: HTML tags, links, emphasis and pipes are shown
    literally (each special character backslash-escaped; ``<``/``>`` as entities), never
    interpreted, so a hostile model name or task id cannot inject a script or a link."""
    text = " ".join(str(text).split())
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return text.replace("\\<", "&lt;").replace("\\>", "&gt;")


_LAB_LABELS = {"lab_deliverables_saved": "Deliverables saved", "lab_deliverables_substantive": "Substantive",
               "lab_deliverable_complete": "Complete", "lab_undeclared_files": "Undeclared files"}


def render_markdown(summary: ReportSummary) -> str:
    """The report as Markdown: per pocket, the seed READMEs' "Baseline results" table."""
    out = ["# Results", ""]
    out.append(f"Generated by `{summary.generator}` from " + ", ".join(_md_escape(i) for i in summary.inputs) + ".")
    out.append("")
    for p in summary.pockets:
        out += [f"## {_md_escape(p.pocket)}", ""]
        if p.mixed:
            out.append("**Mixed releases (--allow-mixed): not reportable.** Freeze roots: "
                       + ", ".join(f"`{r}`" if r else "none" for r in p.freeze_roots) + ".")
        elif p.reportable:
            out.append(f"**Freeze root** `{p.freeze_roots[0]}`: every rollout verified; reportable.")
        else:
            n = sum(m.rollouts - m.reportable_rollouts for m in p.models)
            total = sum(m.rollouts for m in p.models)
            out.append(f"**Not reportable** ({n} of {total} rollouts): " + "; ".join(p.unreportable_reasons) + ".")
        if p.fidelity is not None:
            out += ["", f"Graded by a release {p.fidelity.sentence()}"
                    + ("." if p.fidelity.met else ", below its fidelity thresholds.")]
        out.append("")
        out.append("| Model | Setup | Reward | Finding recall | Deliverables saved | False flags |")
        out.append("| --- | --- | ---: | ---: | ---: | ---: |")
        for m in p.models:
            out.append(f"| {_model_cell(m, p)} | {m.setup} | {_fmt_spread(m.reward)} | "
                       f"{_fmt_spread(m.finding_recall)} | {m.deliverables_saved}/{m.deliverables_total} | "
                       f"{_fmt_spread(m.false_flag_rate)} |")
        out.append("")
        if any(m.reward.min is not None for m in p.models):
            out += ["In parentheses: min–max over rollout passes (the mean over the tasks' k-th rollouts, for each k).", ""]
        out.append("| Model | Must-not-say | Transcript recall | Criterion pass rate (proxy) | Judge pass rate | "
                   "Judge–proxy agreement | Cohen's κ |")
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for m in p.models:
            j = m.judge
            out.append(f"| {_md_escape(m.model)} | {_fmt_spread(m.must_not_say)} | {_fmt_spread(m.transcript_recall)} | "
                       f"{_fmt_spread(m.criterion_pass_rate_proxy)} | {_fmt(j.judge_pass_rate) if j else 'not run'} | "
                       f"{_fmt(j.agreement) if j else '—'} | {(_fmt(j.kappa) if j.kappa is not None else 'n/a') if j else '—'} |")
        out.append("")
        if p.comparisons:
            out.append("Comparisons:")
            out.append("")
            out += [f"- {_md_escape(c.text)}" for c in p.comparisons]
            out.append("")
        if p.criteria_agreement:
            out += ["Rubric judge (weight 0) vs the deterministic proxy, per criterion:", "",
                    "| Task | Criterion | Judged | Judge PASS | Proxy PASS | Agree | Errors |",
                    "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
            out += [f"| {_md_escape(a.task_id)} | {_md_escape(a.criterion_id)} {_md_escape(a.title)} | {a.pairs} | {a.judge_pass} | "
                    f"{a.proxy_pass} | {a.agree}/{a.pairs} | {a.errors} |" for a in p.criteria_agreement]
            out.append("")
        out += _usage_lines(p)
        if p.mix_problems:
            out.append("Mixed releases:")
            out.append("")
            out += [f"- {_md_escape(x)}" for x in p.mix_problems]
            out.append("")
    if summary.lab:
        out += ["## LAB mode", "",
                "Workflow discipline only (`lab_` metrics over someone else's LAB tree); never averaged with factory metrics.", ""]
        keys = sorted({k for row in summary.lab for k in row.metrics}, key=lambda k: (not k.startswith("lab_"), k))
        out.append("| Model | Setup | " + " | ".join(_LAB_LABELS.get(k, f"`{k}`") for k in keys) + " |")
        out.append("| --- | --- | " + " | ".join("---:" for _ in keys) + " |")
        for row in summary.lab:
            cells = [_fmt_spread(row.metrics[k]) if k in row.metrics else "n/a" for k in keys]
            out.append(f"| {_md_escape(row.model)} | {row.setup} | " + " | ".join(cells) + " |")
        out.append("")
    if summary.errored:
        out += [f"## Errored rollouts ({len(summary.errored)}, excluded from every mean)", "",
                "| Model | Pocket | Task | Rollout | Run | Error |", "| --- | --- | --- | ---: | --- | --- |"]
        out += [f"| {_md_escape(e.model)} | {_md_escape(e.pocket)} | {_md_escape(e.task_id)} | {e.rollout or ''} | "
                f"{_md_escape(e.run_id or '')} | {_md_escape(e.error)} |" for e in summary.errored]
        out.append("")
    if summary.warnings:
        out += ["Warnings:", ""] + [f"- {_md_escape(w)}" for w in summary.warnings] + [""]
    return "\n".join(out).rstrip() + "\n"
