"""Verify: every kind of tampering is refused and named; the gate's two modes."""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path
from typing import Callable

import pydantic
import pytest

from tests.conftest import private_copy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lae.freeze.freezer as freezer
import lae.freeze.identity as identity
import lae.freeze.verify as verify
from lae.errors import FreezeError, HashMismatchError, LayoutError, NotFrozenError, VerificationError
from lae.freeze import (
    OpenedPocket,
    PocketReport,
    Release,
    UnverifiedReleaseWarning,
    audit_pocket,
    freeze_pocket,
    issued,
    open_pocket,
    read_stamp,
    verify_pocket,
)
from lae.project import Project
from tests.test_freeze_support import MODULE, POCKET, frozen_files, make_tree, module_text, outside_stamp, snapshot


@pytest.fixture(scope="module")
def base_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tree per module, frozen once and never changed; each test and each property example
    copies it, so nothing a test changes outlives it. A copy verifies like the original (a freeze does not
    depend on the tree's location: test_freeze.py::test_freeze_is_independent_of_location_and_clock)."""
    root = make_tree(tmp_path_factory.mktemp("prop") / "tree")
    freeze_pocket(Project.at(root), POCKET)
    return root


@pytest.fixture
def frozen(base_tree: Path, tmp_path: Path) -> Path:
    """A private copy of the module's frozen tree (copied, not frozen again: tests change it)."""
    return private_copy(base_tree, tmp_path)


def _module(root: Path) -> Path:
    return root / "environments" / f"{MODULE}.py"


def test_verify_returns_the_ok_report(frozen: Path) -> None:
    report = verify_pocket(Project.at(frozen), POCKET)
    assert isinstance(report, PocketReport) and report.ok
    assert (report.pocket, report.file_count, report.environment_module) == (POCKET, 10, MODULE)
    assert report.root == read_stamp(_module(frozen).read_bytes()).root  # type: ignore[union-attr]


def test_verify_writes_nothing(frozen: Path) -> None:
    before = snapshot(frozen)
    verify_pocket(Project.at(frozen), POCKET)
    assert snapshot(frozen) == before


def test_verified_release_is_immutable(frozen: Path) -> None:
    release = verify_pocket(Project.at(frozen), POCKET)
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        release.root = "0" * 64  # type: ignore[misc]


# -- tampering: one named case per attack -----------------------------------------------

DOC = "tasks/demo/case-001/documents/01-agreement.txt"
TASK_JSON = "tasks/demo/case-002/task.json"
ANCHORS = "anchors/demo/case-001.anchors.json"


def _remove_document(root: Path) -> None:
    (root / DOC).unlink()


def _add_document(root: Path) -> None:
    (root / "tasks/demo/case-001/documents/04-planted.txt").write_text("extra\n")


def _add_task_folder(root: Path) -> None:
    (root / "tasks/demo/case-999/documents").mkdir(parents=True)
    (root / "tasks/demo/case-999/task.json").write_text("{}\n")


def _add_anchors(root: Path) -> None:
    shutil.copy(root / ANCHORS, root / "anchors/demo/case-003.anchors.json")


def _edit_task_json(root: Path) -> None:
    path = root / TASK_JSON
    path.write_text(path.read_text().replace("Review", "Skim"))


def _edit_anchors_scoring(root: Path) -> None:
    path = root / ANCHORS
    path.write_text(path.read_text().replace('"false_flag_weight":0.1', '"false_flag_weight":0.0'))


def _edit_stamp_digest(root: Path) -> None:
    path = _module(root)
    lines = path.read_text().split("\n")
    i = next(n for n, line in enumerate(lines) if line.endswith(DOC))
    lines[i] = "# " + "0" * 64 + "  " + DOC
    path.write_text("\n".join(lines))


def _edit_stamp_root(root: Path) -> None:
    path = _module(root)
    lines = path.read_text().split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith("# root-sha256: "))
    lines[i] = "# root-sha256: " + "f" * 64
    path.write_text("\n".join(lines))


def _edit_stamp_scoring(root: Path) -> None:
    path = _module(root)
    path.write_text(path.read_text().replace('"false_flag_weight":0.1', '"false_flag_weight":0.2', 1))


def _noncanonical_stamp_scoring(root: Path) -> None:
    path = _module(root)  # 0.0 is canonically written 0: the block no longer round-trips
    path.write_text(path.read_text().replace('"false_flag_weight":0.1', '"false_flag_weight":0.0', 1))


def _malform_stamp(root: Path) -> None:
    path = _module(root)
    path.write_text(path.read_text().replace("# status: FROZEN\n", "# status: FROZEN\n# note: trust me\n"))


def _remove_stamp(root: Path) -> None:
    path = _module(root)
    head, tail = outside_stamp(path.read_bytes())
    path.write_bytes(head + tail)


def _unfreeze(root: Path) -> None:
    _module(root).write_text(module_text())


def _edit_sums(root: Path) -> None:
    path = root / "anchors/demo/SHA256SUMS"
    path.write_text(path.read_text().replace(DOC, DOC + ".bak"))


def _remove_sums(root: Path) -> None:
    (root / "anchors/demo/SHA256SUMS").unlink()


Case = tuple[Callable[[Path], None], type[VerificationError], str, str]

CASES: dict[str, Case] = {
    "removed-document": (_remove_document, HashMismatchError, "missing", DOC),
    "added-document": (_add_document, HashMismatchError, "added", "tasks/demo/case-001/documents/04-planted.txt"),
    "added-task-folder": (_add_task_folder, HashMismatchError, "added", "tasks/demo/case-999/task.json"),
    "added-anchors": (_add_anchors, HashMismatchError, "added", "anchors/demo/case-003.anchors.json"),
    "edited-task-json": (_edit_task_json, HashMismatchError, "changed", TASK_JSON),
    "edited-anchors-scoring": (_edit_anchors_scoring, HashMismatchError, "changed", ANCHORS),
    "edited-stamp-digest": (_edit_stamp_digest, HashMismatchError, "stamp_edited", f"environments/{MODULE}.py"),
    "edited-stamp-root": (_edit_stamp_root, HashMismatchError, "stamp_edited", f"environments/{MODULE}.py"),
    "edited-stamp-scoring": (_edit_stamp_scoring, HashMismatchError, "stamp_edited", f"environments/{MODULE}.py"),
    "noncanonical-stamp-scoring": (_noncanonical_stamp_scoring, NotFrozenError, "stamp_malformed",
                                   f"environments/{MODULE}.py"),
    "malformed-stamp": (_malform_stamp, NotFrozenError, "stamp_malformed", f"environments/{MODULE}.py"),
    "removed-stamp": (_remove_stamp, NotFrozenError, "stamp_missing", "environments"),
    "not-frozen-stamp": (_unfreeze, NotFrozenError, "not_frozen", f"environments/{MODULE}.py"),
    "edited-sha256sums": (_edit_sums, HashMismatchError, "sums_mismatch", "anchors/demo/SHA256SUMS"),
    "removed-sha256sums": (_remove_sums, HashMismatchError, "sums_missing", "anchors/demo/SHA256SUMS"),
}


@pytest.mark.parametrize("attack", list(CASES), ids=list(CASES))
def test_tampering_is_refused_and_named(frozen: Path, attack: str) -> None:
    tamper, error, kind, path = CASES[attack]
    tamper(frozen)
    after_tamper = snapshot(frozen)
    with pytest.raises(error) as info:
        verify_pocket(Project.at(frozen), POCKET)
    assert info.value.exit_code == 3
    assert any(p.field == kind and p.path == path for p in info.value.problems), info.value.report()
    assert snapshot(frozen) == after_tamper, "verify must not move anything"


def test_edited_stamp_digest_also_names_the_file(frozen: Path) -> None:
    _edit_stamp_digest(frozen)
    report = audit_pocket(Project.at(frozen), POCKET)
    found = {(p.kind, p.path) for p in report.problems}
    assert found >= {("changed", DOC), ("sums_mismatch", "anchors/demo/SHA256SUMS")}


def test_changed_file_reports_expected_and_observed_digests(frozen: Path) -> None:
    want = dict(line.split("  ")[::-1] for line in (frozen / "anchors/demo/SHA256SUMS").read_text().splitlines())
    _edit_task_json(frozen)
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(frozen), POCKET)
    import hashlib

    observed = hashlib.sha256((frozen / TASK_JSON).read_bytes()).hexdigest()
    (problem,) = [p for p in info.value.problems if p.path == TASK_JSON]
    assert f"expected {want[TASK_JSON]}" in problem.message and f"observed {observed}" in problem.message


def test_every_problem_is_listed_at_once(frozen: Path) -> None:
    _remove_document(frozen)
    _add_document(frozen)
    _edit_task_json(frozen)
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(frozen), POCKET)
    kinds = {(p.field, p.path) for p in info.value.problems}
    assert {("missing", DOC), ("changed", TASK_JSON),
            ("added", "tasks/demo/case-001/documents/04-planted.txt")} <= kinds


def test_grader_contract_version_change_is_refused(frozen: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(identity, "_contract_version", lambda sources: 3)
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(frozen), POCKET)
    (problem,) = info.value.problems
    assert problem.field == "grader_changed" and "scoring contract version 2 → 3" in problem.message


def _derived_with(change: Callable[[identity.GraderIdentity], identity.GraderIdentity]) -> Callable[[], identity.DerivedIdentity]:
    real = identity.derive_identity()
    assert real.identity is not None
    return lambda: identity.DerivedIdentity(change(real.identity), real.sources)  # type: ignore[arg-type]


def test_scoring_module_change_is_refused_naming_the_module(frozen: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def edit(g: identity.GraderIdentity) -> identity.GraderIdentity:
        mods = tuple(m.model_copy(update={"sha256": "e" * 64}) if m.name == "lae.match.terms" else m for m in g.modules)
        return g.model_copy(update={"modules": mods})

    monkeypatch.setattr(verify, "derive_identity", _derived_with(edit))
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(frozen), POCKET)
    (problem,) = info.value.problems
    assert problem.field == "grader_changed" and problem.path == "lae.match.terms"
    assert "module lae.match.terms changed" in problem.message and f"observed {'e' * 64}" in problem.message


def test_python_version_change_is_refused(frozen: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify, "derive_identity", _derived_with(lambda g: g.model_copy(update={"python": "PyPy 3.9"})))
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(frozen), POCKET)
    (problem,) = info.value.problems
    assert problem.message.startswith(f"python {identity.python_tag()} → PyPy 3.9")


def test_unreadable_file_is_reported_not_crashed(frozen: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import lae.freeze.manifest as manifest

    real = manifest.sha256_file

    def denied(path: str) -> str:
        if str(path).endswith(DOC):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(manifest, "sha256_file", denied)
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(frozen), POCKET)
    assert [(p.field, p.path) for p in info.value.problems] == [("unreadable", DOC)]


def test_symlink_added_under_a_frozen_folder_is_refused(frozen: Path) -> None:
    import os

    os.symlink(frozen / DOC, frozen / "tasks/demo/case-001/documents/05-link.txt")
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(frozen), POCKET)
    assert any(p.field == "unsafe_file" for p in info.value.problems)


def test_unknown_pocket_is_a_layout_error(frozen: Path) -> None:
    with pytest.raises(LayoutError):
        verify_pocket(Project.at(frozen), "nope")


def test_ambiguous_stamps_without_keys_are_refused(frozen: Path) -> None:
    shutil.copy(_module(frozen), frozen / "environments" / "copy_env.py")
    with pytest.raises(NotFrozenError, match="not frozen") as info:
        verify_pocket(Project.at(frozen), POCKET)
    assert "several modules' stamps name pocket 'demo'" in info.value.report()


def test_pocket_yaml_naming_another_module_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freezer, "_check_pocket", lambda *a: None)
    root = make_tree(tmp_path / "tree", keys=True)
    freeze_pocket(Project.at(root), POCKET)
    shutil.copy(_module(root), root / "environments" / "renamed.py")
    yaml = root / "keys_private/demo/pocket.yaml"
    yaml.write_text(yaml.read_text().replace(f"environment_module: {MODULE}", "environment_module: renamed"))
    with pytest.raises(HashMismatchError) as info:
        verify_pocket(Project.at(root), POCKET)
    assert [p.field for p in info.value.problems] == ["module_changed"]


def test_verify_with_keys_uses_pocket_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freezer, "_check_pocket", lambda *a: None)
    root = make_tree(tmp_path / "tree", keys=True)
    result = freeze_pocket(Project.at(root), POCKET)
    (root / "environments" / "decoy.py").write_text(module_text())  # names the pocket too; ignored
    assert verify_pocket(Project.at(root), POCKET).root == result.root


def test_refreeze_after_an_intended_change_verifies_with_a_new_root(frozen: Path) -> None:
    old = verify_pocket(Project.at(frozen), POCKET).root
    _add_document(frozen)
    new = freeze_pocket(Project.at(frozen), POCKET).root
    assert new != old and verify_pocket(Project.at(frozen), POCKET).root == new


# -- the gate the grader goes through ------------------------------------------------------


def test_gate_opens_a_verified_release_with_its_root(frozen: Path) -> None:
    opened = open_pocket(Project.at(frozen), POCKET, allow_unfrozen=False)
    assert issued(opened)
    assert opened.release == Release(pocket=POCKET, reportable=True,
                                     freeze_root=verify_pocket(Project.at(frozen), POCKET).root, reason=None)


def test_gate_holds_the_bytes_it_verified(frozen: Path) -> None:
    opened = open_pocket(Project.at(frozen), POCKET, allow_unfrozen=False)
    before = (frozen / DOC).read_bytes()
    (frozen / DOC).write_bytes(b"swapped after the check")
    assert opened.read(DOC) == before
    assert opened.entry(DOC).sha256 == hashlib.sha256(before).hexdigest()


def test_only_the_gate_constructs_an_opened_pocket(frozen: Path) -> None:
    release = Release(pocket=POCKET, reportable=True, freeze_root="0" * 64)
    with pytest.raises(RuntimeError, match="only by lae.freeze.gate.open_pocket"):
        OpenedPocket(object(), Project.at(frozen), release, None, {}, {})
    forged = OpenedPocket.__new__(OpenedPocket)
    assert not issued(forged)


def test_gate_raises_without_the_opt_in(frozen: Path) -> None:
    _edit_task_json(frozen)
    with pytest.raises(HashMismatchError):
        open_pocket(Project.at(frozen), POCKET, allow_unfrozen=False)


def test_gate_with_the_opt_in_marks_results_not_reportable(frozen: Path) -> None:
    _edit_task_json(frozen)
    with pytest.warns(UnverifiedReleaseWarning, match="results are not reportable") as caught:
        opened = open_pocket(Project.at(frozen), POCKET, allow_unfrozen=True)
    assert len(caught) == 1
    assert opened.release.reportable is False and opened.release.freeze_root is None
    assert opened.release.reason and TASK_JSON in opened.release.reason


def test_gate_with_the_opt_in_on_a_never_frozen_pocket(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree")
    with pytest.warns(UnverifiedReleaseWarning):
        opened = open_pocket(Project.at(root), POCKET, allow_unfrozen=True)
    assert opened.release.reportable is False and "NOT FROZEN" in (opened.release.reason or "")


# -- property: any byte flip in any frozen file is caught -------------------------------

@pytest.fixture(scope="module")
def derived_identity() -> identity.DerivedIdentity:
    """The grader identity (the hashes of the code that scores), derived once for the property
    test: the code does not change between its examples, and deriving it (parsing every scoring
    module) was most of each example's time. Every file under test is still hashed for real."""
    return identity.derive_identity()


_FROZEN_PATHS = sorted([
    "anchors/demo/case-001.anchors.json", "anchors/demo/case-002.anchors.json",
    *[f"tasks/demo/case-00{i}/{name}" for i in (1, 2) for name in (
        "documents/01-agreement.txt", "documents/02-email.eml", "documents/03-schedule.bin", "task.json")],
])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_byte_flip_is_refused_naming_the_file(base_tree: Path, derived_identity: identity.DerivedIdentity,
                                                  data: st.DataObject) -> None:
    target = data.draw(st.sampled_from(_FROZEN_PATHS), label="file")
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        mp.setattr(freezer, "derive_identity", lambda: derived_identity)
        mp.setattr(verify, "derive_identity", lambda: derived_identity)
        root = Path(tmp) / "tree"
        shutil.copytree(base_tree, root)
        assert frozen_files(root) == _FROZEN_PATHS
        verify_pocket(Project.at(root), POCKET)  # the untouched copy verifies
        path = root / target
        raw = bytearray(path.read_bytes())
        offset = data.draw(st.integers(0, len(raw) - 1), label="offset")
        mask = data.draw(st.integers(1, 255), label="xor")
        raw[offset] ^= mask
        path.write_bytes(bytes(raw))
        module_before = _module(root).read_bytes()

        with pytest.raises(HashMismatchError) as info:
            verify_pocket(Project.at(root), POCKET)
        assert [(p.field, p.path) for p in info.value.problems] == [("changed", target)]

        # Re-freezing the tampered tree rewrites the stamp only (or refuses outright
        # when the flip broke an anchors file), and never touches code outside it.
        try:
            freeze_pocket(Project.at(root), POCKET)
        except FreezeError:
            assert target.startswith("anchors/")
            assert _module(root).read_bytes() == module_before
        else:
            verify_pocket(Project.at(root), POCKET)
        assert outside_stamp(_module(root).read_bytes()) == outside_stamp(module_before)
