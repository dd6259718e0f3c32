"""Semantic checks of a key beyond its schema: ids, references, cross-file agreement."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from lae.compiler.keys import AnswerKey
from lae.match.normalize import normalize_term
from lae.match.phrases import is_generic_phrase, phrase_problem
from lae.project import Project

__all__ = ["semantic_problems", "DELIVERABLE_EXTENSIONS"]

DELIVERABLE_EXTENSIONS = (".docx", ".md", ".txt")

Issue = tuple[tuple, str, str]  # (field path, message, mend)


def semantic_problems(key: AnswerKey, path: Path, project: Project | None) -> list[Issue]:
    """Every semantic problem of ``key`` (empty when it is sound)."""
    return list(_checks(key, path, project))


def _checks(key: AnswerKey, path: Path, project: Project | None) -> Iterator[Issue]:
    stem = path.name[:-5] if path.name.endswith(".yaml") else path.stem
    if key.task_id != stem:
        yield ("task_id",), f"task_id {key.task_id!r} differs from the file name {stem!r}", "rename the file or fix task_id"
    if key.pocket != path.parent.name:
        yield ("pocket",), f"pocket {key.pocket!r} differs from the folder {path.parent.name!r}", "move the key or fix pocket"
    if key.scenario_slug is not None and key.scenario_slug == key.task_id:
        yield ("scenario_slug",), "scenario_slug repeats task_id", "drop it or give the short slug"
    ext = Path(key.deliverable).suffix.lower()
    if ext not in DELIVERABLE_EXTENSIONS:
        yield ("deliverable",), f"deliverable extension {ext!r} is not gradable", f"use one of {', '.join(DELIVERABLE_EXTENSIONS)}"

    seen: dict[str, tuple] = {}
    groups = (("findings", key.findings), ("distractors", key.distractors), ("must_not_say", key.must_not_say))
    for group, items in groups:
        for i, item in enumerate(items):
            if item.id in seen:
                yield (group, i, "id"), f"duplicate id {item.id!r} (first at {_dotted(seen[item.id])})", "give every finding, distractor and claim its own id"
            else:
                seen[item.id] = (group, i, "id")
    crit_seen: dict[str, int] = {}
    for i, crit in enumerate(key.rubric):
        if crit.id in crit_seen:
            yield ("rubric", i, "id"), f"duplicate criterion id {crit.id!r}", "number criteria C-001, C-002, ..."
        crit_seen.setdefault(crit.id, i)

    finding_ids = {f.id for f in key.findings}
    distractor_ids = {d.id for d in key.distractors}
    claim_ids = {c.id for c in key.must_not_say}
    for i, crit in enumerate(key.rubric):
        proxy = crit.proxy
        refs: list[tuple[str, str, set[str]]] = []
        if hasattr(proxy, "finding"):
            refs.append(("finding", proxy.finding, finding_ids))
        if hasattr(proxy, "findings"):
            refs.extend(("findings", fid, finding_ids) for fid in proxy.findings)
            if getattr(proxy, "min", 1) > len(proxy.findings):
                yield ("rubric", i, "proxy", "min"), f"min {proxy.min} exceeds the {len(proxy.findings)} listed findings", "lower min"
        if hasattr(proxy, "distractor"):
            refs.append(("distractor", proxy.distractor, distractor_ids))
        if hasattr(proxy, "claim"):
            refs.append(("claim", proxy.claim, claim_ids))
        for field, ref, known in refs:
            if ref not in known:
                yield ("rubric", i, "proxy", field), f"proxy names unknown {field.rstrip('s')} {ref!r}", f"use one of {', '.join(sorted(known))}"
        for j, d in enumerate(crit.deliverables):
            if d != key.deliverable:
                yield ("rubric", i, "deliverables", j), f"criterion names deliverable {d!r}, not the key's {key.deliverable!r}", "list the declared deliverable"

    yield from _phrase_checks(key)

    if project is not None:
        task_dir = project.task_dir(key.pocket, key.task_id)
        docs = task_dir / "documents"
        if docs.is_dir():
            present = {p.name for p in docs.iterdir() if p.is_file()}
            for i, f in enumerate(key.findings):
                for j, fact in enumerate(f.record):
                    if fact.document is not None and fact.document not in present:
                        yield ("findings", i, "record", j, "document"), f"document {fact.document!r} is not in {project.relative(docs)}", "name a file that exists there"
        task_json = task_dir / "task.json"
        if task_json.is_file():
            try:
                declared = json.loads(task_json.read_text(encoding="utf-8")).get("deliverables", {})
            except (ValueError, OSError, AttributeError):
                declared = None
            if isinstance(declared, dict) and declared:
                stems = {Path(name).stem: Path(name).suffix.lower() for name in declared}
                want = Path(key.deliverable)
                if key.deliverable not in declared:
                    if want.stem in stems:
                        yield ("deliverable",), f"extension {want.suffix!r} differs from the task's declared {stems[want.stem]!r}", "use the task.json deliverable name exactly"
                    else:
                        yield ("deliverable",), f"{key.deliverable!r} is not a deliverable declared in {project.relative(task_json)}", "use the declared filename"


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _phrase_checks(key: AnswerKey) -> Iterator[Issue]:
    """Phrase syntax everywhere; problem phrases must say what is wrong, not just that something is."""
    groups: list[tuple[tuple, list[str]]] = []
    for i, f in enumerate(key.findings):
        groups += [(("findings", i, name), getattr(f, name)) for name in ("subject", "problem", "dismissals")]
    for i, d in enumerate(key.distractors):
        groups += [(("distractors", i, name), getattr(d, name)) for name in ("subject", "problem")]
    for i, c in enumerate(key.must_not_say):
        groups.append((("must_not_say", i, "phrasings"), c.phrasings))
    for path, phrases in groups:
        seen: set[str] = set()
        for j, phrase in enumerate(phrases):
            why = phrase_problem(phrase)
            if why:
                yield path + (j,), f"phrase {phrase!r}: {why}", "write plain terms joined by ` + `"
            elif normalize_term(phrase) in seen:
                yield path + (j,), f"phrase {phrase!r} is listed twice", "remove the repeat"
            elif path[0] == "findings" and path[2] == "problem" and is_generic_phrase(phrase):
                yield path + (j,), (f"problem phrase {phrase!r} is generic risk language (it would credit any memo "
                                    "naming the subject beside risk words)"), \
                    "say what is wrong: the defect, the rule broken (by name) or the consequence, e.g. `void`, `cannot + enforce`"
            seen.add(normalize_term(phrase))
