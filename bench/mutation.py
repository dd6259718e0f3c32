"""Mutation check: break each contract that matters, in a temporary copy, and show which test catches it.

Each breakage is a small targeted patch (an exact text replacement in one source file) that
turns off one guard the project claims: quote masking, dismissal, verify's coverage of a file
kind, the reward formula, the deliverable format rule, the leak check, and so on. For each,
the script copies the tracked tree, applies the patch, and runs the tests named for that
contract against the copy. A breakage is *caught* when a test fails; a *survivor* means the
suite no longer proves the contract, and the script exits 1. A patch whose text is not found
(the code moved) is *stale*, also exit 1: update the table in the same commit as the code.

Why targeted patches and not mutmut/cosmic-ray: those mutate operators at random across the
code and run the whole suite per mutant (hours here), and cannot express "verify ignores .eml
files" or "masking is a no-op" as one named breakage. A short table of contract breakages runs
in minutes and says, per contract, which test guards it.

Usage (from the project root, the project's venv active):
    python bench/mutation.py [-j 2] [--only NAME]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The stage folders install under the `lae` namespace (pyproject's package-dir); in a copy,
# links inside lae/ give the same import names without installing the copy.
STAGES = ("compiler", "grader", "freeze", "environments", "tasks", "anchors")


@dataclass(frozen=True)
class Mutation:
    name: str  # the breakage, as the table prints it
    path: str  # file to patch, relative to the root
    old: str  # exact text that must occur exactly once
    new: str  # its replacement
    tests: tuple[str, ...]  # pytest node ids or files that must catch it


def _verify_ignores(suffix: str) -> Mutation:
    return Mutation(
        f"verify ignores {suffix} files", "freeze/manifest.py",
        "            assert entry is not None\n            scan.files.append(ScannedFile(rel, entry.path))",
        f"            assert entry is not None\n            if rel.endswith({suffix!r}):\n                continue\n"
        "            scan.files.append(ScannedFile(rel, entry.path))",
        ("tests/test_verify_file_kinds.py",))


def _prepend(name: str, path: str, signature: str, body: str, tests: tuple[str, ...]) -> Mutation:
    """A breakage that makes a function return early: ``body`` goes first under ``signature``."""
    return Mutation(name, path, signature, f"{signature}{body}", tests)


MUTATIONS: tuple[Mutation, ...] = (
    _prepend("quote masking is a no-op", "lae/match/masking.py",
             "    def mask(self, norm: NormalizedText) -> list[tuple[int, int]]:\n", "        return []\n",
             ("tests/grader/test_masking_contract.py",)),
    *(_verify_ignores(s) for s in (".docx", ".pdf", ".xlsx", ".eml", ".txt", ".json")),
    Mutation("reward weights changed (0.6 -> 0.7 on recall)", "grader/score.py",
             "return (scoring.finding_weight * finding_recall",
             "return ((scoring.finding_weight + 0.1) * finding_recall",
             ("tests/grader/test_score.py",)),
    Mutation("deliverable format check relaxed (.md accepted for .docx)", "grader/deliverables.py",
             "def read_deliverable(path: Path, declared_name: str) -> DeliverableRead:",
             "def read_deliverable(path: Path, declared_name: str) -> DeliverableRead:\n"
             "    if isinstance(path, Path) and path.is_dir() and (path / Path(declared_name).with_suffix('.md').name).exists():\n"
             "        path = path / Path(declared_name).with_suffix('.md').name\n"
             "        declared_name = Path(declared_name).with_suffix('.md').name\n"
             "    return _read_deliverable(path, declared_name)\n\n\n"
             "def _read_deliverable(path: Path, declared_name: str) -> DeliverableRead:",
             ("tests/test_deliverables.py",)),
    Mutation("leak check off", "compiler/compile.py",
             "    if problems:\n        raise CompileError(f\"private prose would leak from {where}\", problems)",
             "    if problems and False:\n        raise CompileError(f\"private prose would leak from {where}\", problems)",
             ("tests/compiler/test_compile.py",)),
    Mutation("polarity off (every sentence asserts)", "lae/match/polarity.py",
             "    def asserts(self) -> bool:\n        return self.kind is None",
             "    def asserts(self) -> bool:\n        return True",
             ("tests/grader/test_rule_v2.py",)),
    _prepend("dismissal off", "lae/match/polarity.py",
             "def dismissal_cues_by_unit(text: str, units: Sequence[tuple[int, int]]) -> dict[int, str]:\n",
             "    return {}\n", ("tests/grader/test_rule_v2.py",)),
    _prepend("keyword-list (salad) check off", "lae/match/polarity.py",
             "def is_keyword_list(text: str) -> bool:\n", "    return False\n", ("tests/grader/test_rule_v2.py",)),
    Mutation("distractor escalation always on", "lae/match/engine.py",
             "        if live or esc:\n", "        if True:\n", ("tests/grader/test_rule_v2.py",)),
    Mutation("prohibited claims never made", "lae/match/engine.py",
             "            return ClaimOutcome(id=c.id, made=True,", "            return ClaimOutcome(id=c.id, made=False,",
             ("tests/grader/test_rule_v2.py",)),
    Mutation("red team off", "compiler/compile.py",
             "    if problems:\n        raise CalibrationError(f\"red team failed for {where}\", problems)",
             "    if problems and False:\n        raise CalibrationError(f\"red team failed for {where}\", problems)",
             ("tests/compiler/",)),
    Mutation("grader identity ignores a module (lae.match.terms)", "freeze/identity.py",
             "        modules=tuple(ModuleDigest(name=s.name, sha256=hashlib.sha256(s.data).hexdigest()) for s in sources),",
             "        modules=tuple(ModuleDigest(name=s.name, sha256=hashlib.sha256(s.data).hexdigest()) for s in sources\n"
             "                      if s.name != 'lae.match.terms'),",
             ("tests/test_freeze_grader_identity.py",)),
    Mutation("low-fidelity release reportable", "freeze/gate.py",
             "    if report.ok and report.fidelity is not None and not report.fidelity.met:",
             "    if False:", ("tests/test_demo.py", "tests/fidelity/")),
    _prepend("run reply-size limit off", "lae/chat.py",
             "    def _read_body(self, response: http.client.HTTPResponse, deadline: float) -> bytes:\n",
             "        return response.read()\n", ("tests/security/test_run_bounds.py",)),
    _prepend("secrets redaction off", "lae/chat.py",
             "def redact(text: str, secrets: tuple[str, ...] | list[str] = ()) -> str:\n",
             "    return text\n", ("tests/security/test_secrets.py",)),
    _prepend("bulleted inventory check off", "lae/match/engine.py",
             "    def _inventory(self, run: list[int]) -> bool:\n", "        return False\n",
             ("tests/pockets/test_attacks_every_matter.py",)),
    _prepend("email header limits off", "grader/documents.py",
             "def _check_headers(part: Message) -> None:\n", "    return None\n",
             ("tests/security/test_document_limits.py",)),
    Mutation("nested list levels dropped by the reader", "grader/_ooxml.py",
             '            return "  " * _list_depth(child, val) + "- "', '            return "- "',
             ("tests/test_deliverables.py",)),
    _prepend("a list item's sub-items are not its discussion", "lae/match/segment.py",
             "    def item_family(self, block: int) -> list[int]:\n", "        return [block]\n",
             ("tests/grader/test_rule_v2.py",)),
    Mutation("a hedged distractor mention escalates", "lae/match/engine.py",
             "cue or st.kind is not None:", "cue or st.kind not in (None, \"hedge\", \"hypothetical\"):",
             ("tests/grader/test_rule_v2.py",)),
    Mutation("the assertion model never vetoes", "lae/match/assertion.py",
             "vetoed=applies(feats) and p < threshold)", "vetoed=False)",
             ("tests/grader/test_assertion_layer.py",)),
    Mutation("the tiered scope judges a brief text by its register", "lae/match/assertion.py",
             'return 0.0 if feats["m_brief"] else unmarked', "return unmarked",
             ("tests/grader/test_assertion_layer.py",)),
    Mutation("reported speech is not a feature", "lae/match/assertion.py",
             '"d_reported": min(1.0, per["report"]),', '"d_reported": 0.0,',
             ("tests/grader/test_assertion_layer.py",)),
)


@dataclass
class Outcome:
    mutation: Mutation
    status: str  # caught | SURVIVED | STALE | BASELINE-FAILS
    caught_by: str
    seconds: float


def tracked_files(root: Path) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                         capture_output=True, check=True).stdout
    return [p for p in out.decode().split("\0") if p and (root / p).is_file()]


def make_copy(dest: Path) -> None:
    for rel in tracked_files(REPO):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, target)
    for stage in STAGES:
        (dest / "lae" / stage).symlink_to(Path("..") / stage)


def apply(root: Path, m: Mutation) -> bool:
    path = root / m.path
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    if text.count(m.old) != 1:
        return False
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")
    return True


def run_tests(root: Path, tests: tuple[str, ...]) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "PYTHONPATH")}
    env.update(PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", "no:randomly",
                           *tests], cwd=root, env=env, capture_output=True, text=True, timeout=900)
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", proc.stdout, flags=re.M)
    return proc.returncode, (failed[0] if failed else proc.stdout.strip().splitlines()[-1:][0] if proc.stdout else "")


def check(m: Mutation) -> Outcome:
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="lae-mutant-") as tmp:
        root = Path(tmp) / "tree"
        make_copy(root)
        if not apply(root, m):
            return Outcome(m, "STALE", f"text to patch not found exactly once in {m.path}", time.monotonic() - start)
        code, first = run_tests(root, m.tests)
    status = "caught" if code == 1 else ("SURVIVED" if code == 0 else f"ERROR (pytest exit {code})")
    return Outcome(m, status, first if code == 1 else "-", time.monotonic() - start)


def baseline(tests: set[str]) -> tuple[int, str]:
    with tempfile.TemporaryDirectory(prefix="lae-mutant-") as tmp:
        root = Path(tmp) / "tree"
        make_copy(root)
        return run_tests(root, tuple(sorted(tests)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=2, help="mutants checked at once (default 2)")
    ap.add_argument("--only", help="run only breakages whose name contains this text")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.only or args.only in m.name]
    start = time.monotonic()
    code, first = baseline({t for m in chosen for t in m.tests})
    if code != 0:
        print(f"the unmutated tests fail ({first}); fix them before checking mutants", file=sys.stderr)
        return 1
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(check, chosen))
    width = max(len(o.mutation.name) for o in outcomes)
    print(f"| {'breakage':<{width}} | status   | caught by |")
    print(f"| {'-' * width} | -------- | --------- |")
    for o in outcomes:
        print(f"| {o.mutation.name:<{width}} | {o.status:<8} | {o.caught_by} ({o.seconds:.0f} s) |")
    bad = [o for o in outcomes if o.status != "caught"]
    print(f"\n{len(outcomes) - len(bad)} of {len(outcomes)} breakages caught in {time.monotonic() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
