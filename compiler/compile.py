"""Compile private keys into public anchors, self-test them, write them atomically.

Algorithm per key (SPEC section 5):

1. load and validate the key (every problem reported at once);
2. compile each term to a pattern (``lae.match.terms``); the finding's severity
   terms are the built-in lexicon of its level and the adjacent levels plus its own;
3. assemble the anchors with the pocket's scoring parameters;
4. calibrate: run every calibration sentence through the real matching core, with
   the task's documents as the quote-masking index; a positive that does not credit
   or a negative that does stops the compile;
5. refuse if any private prose of the key appears in the output;
6. serialize canonically (RFC 8785), validate against the anchors schema, and check
   that a parse/re-serialize round trip reproduces every byte.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

import jsonschema

from lae import __version__
from lae.canonical import canonical_bytes, canonical_sha256, parse_json_strict
from lae.compiler.keys import KEY_SCHEMA_VERSION, AnswerKey, PocketConfig
from lae.compiler.load import load_key, load_pocket_config
from lae.compiler.redteam import red_team
from lae.errors import (CalibrationError, CompileError, KeyValidationError, LaeError, Problem,
                        StaleAnchorsError)
from lae.fsio import atomic_write
from lae.grader.anchors import (ANCHORS_SCHEMA_VERSION, Anchors, CalibrationResult, ClaimAnchor, CompiledPhrase,
                                CompiledTerm, CriterionAnchor, DistractorAnchor, FindingAnchor, Provenance,
                                RedTeamResult, ScoringBlock, anchors_json_schema)
from lae.grader.documents import task_document_texts
from lae.match.cues import severity_terms_for
from lae.match.engine import analyze_text
from lae.match.masking import SourceIndex
from lae.match.normalize import normalize
from lae.match.phrases import citation_forms, initialism, split_phrase
from lae.match.terms import compile_term
from lae.project import Project

__all__ = [
    "CompileOptions",
    "CompiledTask",
    "TaskOutcome",
    "CompileReport",
    "compile_key",
    "compile_pocket",
    "check_pocket",
    "private_prose",
]


@dataclass(frozen=True)
class CompileOptions:
    """Options recorded in provenance; changing one changes the anchors."""

    mask_min_tokens: int = 8

    def as_dict(self) -> dict[str, int]:
        return {"mask_min_tokens": self.mask_min_tokens}


@dataclass(frozen=True)
class CompiledTask:
    key: AnswerKey
    anchors: Anchors
    data: bytes
    path: Path


@dataclass(frozen=True)
class _Pending:
    task_id: str
    path: Path
    data: bytes
    calibration: tuple[CalibrationResult, ...]


@dataclass(frozen=True)
class TaskOutcome:
    task_id: str
    anchors_path: str
    status: str  # unchanged | written | stale | missing | orphaned | removed
    calibration: tuple[CalibrationResult, ...] = ()


@dataclass
class CompileReport:
    pockets: list[str] = field(default_factory=list)
    tasks: list[TaskOutcome] = field(default_factory=list)
    check: bool = False

    @property
    def changed(self) -> list[TaskOutcome]:
        return [t for t in self.tasks if t.status != "unchanged"]

    def as_dict(self) -> dict:
        return {
            "check": self.check,
            "pockets": self.pockets,
            "tasks": [
                {"task_id": t.task_id, "anchors": t.anchors_path, "status": t.status,
                 "calibration": [c.model_dump() for c in t.calibration]}
                for t in self.tasks
            ],
            "changed": len(self.changed),
        }


def private_prose(key: AnswerKey) -> list[tuple[str, str]]:
    """Every private prose string of a key, with its field path (for leak checks)."""
    out: list[tuple[str, str]] = []
    if key.notes:
        out.append(("notes", key.notes))
    for f in key.findings:
        out.append((f"findings.{f.id}.explanation", f.explanation))
        out.append((f"findings.{f.id}.remediation.summary", f.remediation.summary))
        for i, s in enumerate(f.calibration.positive):
            out.append((f"findings.{f.id}.calibration.positive[{i}]", s))
        for i, s in enumerate(f.calibration.negative):
            out.append((f"findings.{f.id}.calibration.negative[{i}]", s))
        for i, r in enumerate(f.record):
            if r.note:
                out.append((f"findings.{f.id}.record[{i}].note", r.note))
    for d in key.distractors:
        out.append((f"distractors.{d.id}.explanation", d.explanation))
    for c in key.must_not_say:
        out.append((f"must_not_say.{c.id}.claim", c.claim))
    return out


def _terms(terms: Iterable[str], where: str, field_name: str) -> list[CompiledTerm]:
    out: list[CompiledTerm] = []
    seen: set[str] = set()
    for t in terms:
        pattern = compile_term(t, where=where, field=field_name)
        if pattern in seen:
            continue
        seen.add(pattern)
        out.append(CompiledTerm(term=t, pattern=pattern))
    return out


def _phrases(phrases: Iterable[str], where: str, field_name: str) -> list[CompiledPhrase]:
    out: list[CompiledPhrase] = []
    seen: set[tuple[str, ...]] = set()
    for j, phrase in enumerate(phrases):
        parts = tuple(compile_term(part, where=where, field=f"{field_name}[{j}]") for part in split_phrase(phrase))
        if parts not in seen:
            seen.add(parts)
            out.append(CompiledPhrase(phrase=phrase, parts=list(parts)))
    return out


def _with_initialisms(subject: list[str]) -> list[str]:
    """The key's subject phrases and the initials a memo abbreviates a multi-word name to
    (:func:`_phrases` drops any that repeat a phrase)."""
    return [*subject, *filter(None, map(initialism, subject))]


def _finding_anchor(f, where: str) -> FindingAnchor:
    field = f"findings.{f.id}"
    citations = [form for c in f.citations for form in citation_forms(c)]
    return FindingAnchor(
        id=f.id, title=f.title, severity=f.severity,
        subject=_phrases(_with_initialisms(f.subject), where, f"{field}.subject"),
        problem=_phrases(f.problem, where, f"{field}.problem"),
        citations=_phrases(citations, where, f"{field}.citations"),
        dismissals=_phrases(f.dismissals, where, f"{field}.dismissals"),
        severity_terms=_terms([*severity_terms_for(f.severity), *f.severity_terms], where, f"{field}.severity_terms"),
        remediation=_terms(f.remediation.terms, where, f"{field}.remediation.terms"),
        record=_terms([r.term for r in f.record], where, f"{field}.record"),
    )


def _scoring(key: AnswerKey, config: PocketConfig, options: CompileOptions) -> ScoringBlock:
    own = key.scoring
    return ScoringBlock(
        false_flag_weight=own.false_flag_weight if own.false_flag_weight is not None else config.false_flag_weight,
        must_not_say_weight=own.must_not_say_weight if own.must_not_say_weight is not None else config.must_not_say_weight,
        min_deliverable_chars=own.min_deliverable_chars if own.min_deliverable_chars is not None else config.min_deliverable_chars,
        mask_min_tokens=options.mask_min_tokens,
    )


def _assemble(key: AnswerKey, config: PocketConfig, options: CompileOptions, where: str,
              provenance: Provenance) -> Anchors:
    distractors = [DistractorAnchor(id=d.id, title=d.title, subject=_phrases(d.subject, where, f"distractors.{d.id}.subject"),
                                    problem=_phrases(d.problem, where, f"distractors.{d.id}.problem"))
                   for d in key.distractors]
    claims = [ClaimAnchor(id=c.id, phrasings=_phrases(c.phrasings, where, f"must_not_say.{c.id}.phrasings"))
              for c in key.must_not_say]
    rubric = [
        CriterionAnchor(id=c.id, title=c.title, match_criteria=c.match_criteria,
                        deliverables=list(c.deliverables) or [key.deliverable], proxy=c.proxy)
        for c in key.rubric
    ]
    return Anchors(
        anchors_schema_version=ANCHORS_SCHEMA_VERSION,
        task_id=key.task_id,
        scenario_slug=key.scenario_slug,
        pocket=key.pocket,
        title=key.title,
        deliverables=[key.deliverable],
        matter_date=key.matter_date.isoformat(),
        findings=[_finding_anchor(f, where) for f in key.findings],
        distractors=distractors,
        must_not_say=claims,
        rubric=rubric,
        scoring=_scoring(key, config, options),
        provenance=provenance,
    )


def _unmatchable_terms(key: AnswerKey, index: SourceIndex, where: str) -> list[Problem]:
    """Terms that repeat a document verbatim for a whole masking run would always be masked."""
    problems = []
    for f in key.findings:
        groups = (("subject", f.subject), ("problem", f.problem), ("remediation.terms", f.remediation.terms))
        for field_name, terms in groups:
            for j, term in enumerate(terms):
                if " + " in term:
                    continue  # parts are short terms; a phrase as a whole is never a verbatim run
                norm = normalize(term)
                spans = index.mask(norm)
                if spans and spans[0][0] == 0 and spans[-1][1] >= len(norm.text.rstrip(". ")):
                    problems.append(Problem(where, f"term {term!r} repeats a document verbatim, so quote masking would always hide it",
                                            field=f"findings.{f.id}.{field_name}[{j}]", mend="shorten or paraphrase the term"))
    return problems


def _credited(anchors: Anchors, index: SourceIndex, text: str) -> set[str]:
    """Ids of the findings ``text`` credits on its own, scored by the real kernel."""
    norm = normalize(text)
    analysis = analyze_text(anchors.match_spec(), text, index.mask(norm), norm=norm)
    return {f.id for f in analysis.findings if f.credited}


def _outcome(anchors: Anchors, index: SourceIndex, text: str, fid: str):
    norm = normalize(text)
    return analyze_text(anchors.match_spec(), text, index.mask(norm), norm=norm).finding(fid)


def _calibrate_finding(f, anchors: Anchors, index: SourceIndex, where: str,
                       problems: list[Problem]) -> CalibrationResult:
    credited_pos = rejected_neg = 0
    for i, sentence in enumerate(f.calibration.positive):
        outcome = _outcome(anchors, index, sentence, f.id)
        if outcome.credited:
            credited_pos += 1
            continue
        why = outcome.near_miss.reason if outcome.near_miss else "neither a subject nor a problem phrase matched"
        problems.append(Problem(where, f"positive does not credit {f.id}: {why}: {sentence!r}",
                                field=f"findings.{f.id}.calibration.positive[{i}]",
                                mend="add the subject or problem phrase the sentence uses, or fix the sentence"))
    for i, sentence in enumerate(f.calibration.negative):
        outcome = _outcome(anchors, index, sentence, f.id)
        if not outcome.credited:
            rejected_neg += 1
            continue
        hits = ", ".join(f"{h.category}={h.term!r}" for h in outcome.credit.hits) if outcome.credit else ""
        problems.append(Problem(where, f"negative credits {f.id} ({hits}): {sentence!r}",
                                field=f"findings.{f.id}.calibration.negative[{i}]",
                                mend="make the finding's problem phrases more specific, or fix the sentence"))
    return CalibrationResult(finding=f.id, positives=len(f.calibration.positive), positives_credited=credited_pos,
                             negatives=len(f.calibration.negative), negatives_rejected=rejected_neg)


def _calibrate(key: AnswerKey, anchors: Anchors, index: SourceIndex, where: str) -> list[CalibrationResult]:
    problems: list[Problem] = _unmatchable_terms(key, index, where)
    results = [_calibrate_finding(f, anchors, index, where, problems) for f in key.findings]
    if problems:
        raise CalibrationError(f"calibration failed for {where}", problems)
    return results


def _red_team(key: AnswerKey, anchors: Anchors, index: SourceIndex, where: str) -> list[RedTeamResult]:
    """Generated variants (SPEC section 5): refuse anchors that credit any must-not variant."""
    counts, failures = red_team(key, lambda text: _credited(anchors, index, text))
    problems = [Problem(where, f"red team: {v.kind} variant {verdict} {v.finding}: {v.text!r}",
                        field=f"findings.{v.finding}",
                        mend="make the problem phrases specific to this finding (a defect, rule or consequence), "
                             "or report a polarity gap")
                for v, verdict in failures if "must not" in verdict]
    if problems:
        raise CalibrationError(f"red team failed for {where}", problems)
    return [RedTeamResult(finding=fid, must_not=c[0], must_not_rejected=c[1], must=c[2], must_credited=c[3])
            for fid, c in counts.items()]


def _check_no_leak(key: AnswerKey, anchors: Anchors, where: str) -> None:
    # Every string in the anchors that came from the key: titles, terms, criteria.
    public: list[str] = [anchors.title]
    for f in anchors.findings:
        public.append(f.title)
        public.extend(p.phrase for p in (*f.subject, *f.problem, *f.dismissals))
        public.extend(t.term for t in (*f.severity_terms, *f.remediation, *f.record))
    for d in anchors.distractors:
        public.append(d.title)
        public.extend(p.phrase for p in (*d.subject, *d.problem))
    for c in anchors.must_not_say:
        public.extend(p.phrase for p in c.phrasings)
    for crit in anchors.rubric:
        public.extend([crit.title, crit.match_criteria])
        public.extend(getattr(crit.proxy, "terms", []))
    text = normalize("\n".join(public)).text
    problems = []
    for field_path, prose in private_prose(key):
        needle = normalize(prose).text.strip()
        # Short strings could coincide with a public term; long prose must never appear.
        if len(needle) >= 24 and needle in text:
            problems.append(Problem(where, "private prose appears in the anchors", field=field_path,
                                    mend="do not reuse private prose as a term or title"))
    if problems:
        raise CompileError(f"private prose would leak from {where}", problems)


@functools.lru_cache(maxsize=1)
def _anchors_validator() -> jsonschema.protocols.Validator:
    schema = anchors_json_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _validate_against_schema(data: bytes, where: str) -> None:
    """Validate anchor bytes against the anchors JSON Schema before they are written.

    Unchanged files were validated when they were written, so only writes pay for it."""
    try:
        _anchors_validator().validate(parse_json_strict(data))
    except jsonschema.ValidationError as exc:  # pragma: no cover - models and schema agree by construction
        raise CompileError("anchors fail their schema", [Problem(where, exc.message, mend="report this as a bug")]) from exc


def _source_date_epoch() -> int | None:
    raw = os.environ.get("SOURCE_DATE_EPOCH")
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError as exc:
        raise CompileError("bad SOURCE_DATE_EPOCH", [Problem("SOURCE_DATE_EPOCH", f"not an integer: {raw!r}",
                                                               mend="unset it or give seconds since 1970")]) from exc
    if value < 0:
        raise CompileError("bad SOURCE_DATE_EPOCH", [Problem("SOURCE_DATE_EPOCH", "negative", mend="unset it")])
    return value


def compile_key(project: Project, key_path: Path, config: PocketConfig,
                options: CompileOptions = CompileOptions(), index: SourceIndex | None = None) -> CompiledTask:
    """Compile one key into canonical anchor bytes (not written)."""
    where = project.relative(key_path)
    key = load_key(key_path, project=project)
    if index is None:
        index = SourceIndex(task_document_texts(project, key.pocket, key.task_id), options.mask_min_tokens)
    provisional = Provenance(
        key_path=where,
        key_sha256=canonical_sha256(key.model_dump(mode="json")),
        compiler_version=__version__,
        key_schema_version=KEY_SCHEMA_VERSION,
        anchors_schema_version=ANCHORS_SCHEMA_VERSION,
        options=options.as_dict(),
        calibration=[],
        documents_indexed=index.documents,
        source_date_epoch=_source_date_epoch(),
    )
    anchors = _assemble(key, config, options, where, provisional)
    calibration = _calibrate(key, anchors, index, where)
    red = _red_team(key, anchors, index, where)
    anchors = anchors.model_copy(update={"provenance": provisional.model_copy(update={"calibration": calibration,
                                                                                      "red_team": red})})
    payload = anchors.model_dump(mode="json")
    data = canonical_bytes(payload)
    if canonical_bytes(Anchors.model_validate(parse_json_strict(data)).model_dump(mode="json")) != data:
        raise CompileError("anchors do not round-trip", [Problem(where, "re-serialization changed bytes",
                                                                 mend="report this as a bug")])
    _check_no_leak(key, anchors, where)
    return CompiledTask(key=key, anchors=anchors, data=data, path=project.anchors_path(key.pocket, key.task_id))


def _select(project: Project, pocket: str, task: str | None) -> list[Path]:
    files = project.key_files(pocket)
    if task is None:
        return files
    chosen = [p for p in files if p.name[:-5] == task]
    if not chosen:
        # a scenario slug selects its task too
        for p in files:
            try:
                key = load_key(p, project=project)
            except KeyValidationError:
                continue
            if key.scenario_slug == task:
                chosen.append(p)
    return chosen


def _compile_one(args: tuple[Project, Path, PocketConfig, CompileOptions]) -> "_Pending | LaeError":
    """Compile one key (in this process or a worker); errors are returned, not raised.

    Only what writing needs travels back: bytes and calibration counts, not the models
    (a LAB-scale pocket holds thousands of these until every key has compiled)."""
    project, path, config, options = args
    try:
        item = compile_key(project, path, config, options)
    except LaeError as exc:
        return exc
    return _Pending(item.key.task_id, item.path, item.data, tuple(item.anchors.provenance.calibration))


def compile_pocket(project: Project, pocket: str | None = None, task: str | None = None, *, check: bool = False,
                   options: CompileOptions = CompileOptions(), jobs: int = 1,
                   progress: Callable[[str], None] | None = None) -> CompileReport:
    """Compile (or, with ``check``, verify) the anchors of one or every pocket.

    Nothing is written unless every selected key compiles. In check mode nothing is
    written and :class:`StaleAnchorsError` lists stale, missing and orphaned files.
    ``jobs`` > 1 compiles keys in that many worker processes (same bytes either way).
    """
    pockets = [pocket] if pocket else [p for p in project.pockets() if project.keys_dir(p).is_dir()]
    if not pockets:
        raise KeyValidationError("nothing to compile", [Problem(project.relative(project.keys_root),
                                                                "no pocket has keys", mend="add keys_private/<pocket>/<task-id>.yaml")])
    report = CompileReport(pockets=pockets, check=check)
    compiled: list[_Pending] = []
    problems: list[Problem] = []
    errors: list[LaeError] = []
    orphans: list[Path] = []
    for name in pockets:
        keys_dir = project.keys_dir(name)
        key_files = _select(project, name, task)
        if not key_files:
            what = f"task {task!r}" if task else "any key"
            problems.append(Problem(project.relative(keys_dir), f"pocket {name!r} has no {what}",
                                    mend="check --pocket/--task or add keys"))
            continue
        try:
            config = load_pocket_config(project, name)
        except LaeError as exc:
            errors.append(exc)
            continue
        work = [(project, path, config, options) for path in key_files]
        if jobs > 1 and len(work) > 1:
            pool = ProcessPoolExecutor(max_workers=min(jobs, len(work)))
            outcomes = pool.map(_compile_one, work, chunksize=max(1, len(work) // (jobs * 8)))
        else:
            pool = None
            outcomes = map(_compile_one, work)
        try:
            for path, outcome in zip(key_files, outcomes):
                if progress:
                    progress(project.relative(path))
                if isinstance(outcome, LaeError):
                    errors.append(outcome)
                else:
                    compiled.append(outcome)
        finally:
            if pool is not None:
                pool.shutdown()
        if task is None:
            expected = {project.anchors_path(name, p.name[:-5]) for p in key_files}
            orphans.extend(p for p in project.anchor_files(name) if p not in expected)
    if errors or problems:
        all_problems = problems + [p for e in errors for p in e.problems]
        kinds = {type(e) for e in errors}
        cls = CalibrationError if kinds == {CalibrationError} else (KeyValidationError if not kinds or KeyValidationError in kinds else CompileError)
        causes = "; ".join(dict.fromkeys(str(e.args[0]) for e in errors)) or "selection failed"
        raise cls(f"compile failed ({causes}): {len(all_problems)} problem(s); nothing was written", all_problems)

    stale: list[Problem] = []
    for item in compiled:
        rel = project.relative(item.path)
        current = item.path.read_bytes() if item.path.is_file() else None
        if current == item.data:
            status = "unchanged"
        elif check:
            status = "missing" if current is None else "stale"
            stale.append(Problem(rel, f"anchors are {status}", mend="run `lae compile`"))
        else:
            _validate_against_schema(item.data, rel)
            atomic_write(item.path, item.data)
            status = "written"
        report.tasks.append(TaskOutcome(item.task_id, rel, status, item.calibration))
    for orphan in orphans:
        rel = project.relative(orphan)
        if check:
            stale.append(Problem(rel, "anchors file has no key (orphaned)", mend="run `lae compile` to remove it, or restore the key"))
            report.tasks.append(TaskOutcome(orphan.name.split(".anchors.json")[0], rel, "orphaned"))
        else:
            orphan.unlink()
            report.tasks.append(TaskOutcome(orphan.name.split(".anchors.json")[0], rel, "removed"))
    if stale:
        raise StaleAnchorsError(f"{len(stale)} anchors file(s) out of date", stale)
    return report


def check_pocket(project: Project, pocket: str) -> None:
    """Gate used by ``lae freeze``: raise unless ``lae compile --check --pocket`` passes."""
    compile_pocket(project, pocket, check=True)
