"""Freeze: what it hashes, what it writes, when it refuses (``lae.freeze.freeze_pocket``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import lae.freeze._fs as fs
import lae.freeze.freezer as freezer
from lae.errors import FreezeError, LayoutError, StaleAnchorsError, Problem
from lae.freeze import (
    Manifest,
    FileEntry,
    GraderIdentity,
    freeze_pocket,
    read_stamp,
    render_stamp,
    verify_pocket,
)
from lae.freeze.identity import ModuleDigest, PackageVersion
from lae.project import Project
from tests.test_freeze_support import (
    HEX64,
    MODULE,
    POCKET,
    frozen_files,
    make_tree,
    module_text,
    outside_stamp,
    snapshot,
)

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_tree(tmp_path / "tree")


@pytest.fixture
def project(root: Path) -> Project:
    return Project.at(root)


def module_bytes(root: Path) -> bytes:
    return (root / "environments" / f"{MODULE}.py").read_bytes()


# -- what a freeze covers and writes ------------------------------------------------


def test_freeze_then_verify_passes(project: Project) -> None:
    result = freeze_pocket(project, POCKET)
    release = verify_pocket(project, POCKET)
    assert release.root == result.root
    assert release.file_count == result.file_count == 10  # 2 anchors + 2 task.json + 6 documents
    assert result.task_count == 2


def test_freeze_covers_anchors_task_json_and_every_document(project: Project, root: Path) -> None:
    freeze_pocket(project, POCKET)
    assert frozen_files(root) == sorted([
        "anchors/demo/case-001.anchors.json", "anchors/demo/case-002.anchors.json",
        *[f"tasks/demo/case-00{i}/{name}" for i in (1, 2) for name in (
            "documents/01-agreement.txt", "documents/02-email.eml", "documents/03-schedule.bin", "task.json")],
    ])


def test_stamp_records_scoring_parameters_and_grader_identity(project: Project, root: Path) -> None:
    freeze_pocket(project, POCKET)
    stamp = read_stamp(module_bytes(root))
    assert stamp is not None and stamp.manifest is not None
    assert set(stamp.manifest.scoring) == {"case-001", "case-002"}
    assert stamp.manifest.scoring["case-001"]["false_flag_weight"] == 0.1
    from lae.freeze.identity import derive_identity, python_tag
    from lae.grader import SCORING_CONTRACT_VERSION

    assert stamp.manifest.grader.scoring_contract_version == SCORING_CONTRACT_VERSION
    assert stamp.manifest.grader == derive_identity().identity
    assert stamp.manifest.grader.python == python_tag()
    names = {m.name for m in stamp.manifest.grader.modules}
    assert {"lae.grader.score", "lae.match.terms", "lae.match.normalize", "lae.canonical",
            "lae.grader.documents", "lae.grader.deliverables"} <= names
    assert {"pypdf", "python-docx", "openpyxl", "lxml", "regex", "defusedxml"} <= {
        p.name for p in stamp.manifest.grader.packages}


def test_real_sha256sum_accepts_sha256sums(project: Project, root: Path) -> None:
    freeze_pocket(project, POCKET)
    done = subprocess.run(["sha256sum", "--strict", "-c", "anchors/demo/SHA256SUMS"], cwd=root,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(": OK") == 10


def test_real_sha256sum_rejects_a_changed_file(project: Project, root: Path) -> None:
    freeze_pocket(project, POCKET)
    (root / "tasks/demo/case-001/task.json").write_text("{}\n")
    done = subprocess.run(["sha256sum", "-c", "anchors/demo/SHA256SUMS"], cwd=root, capture_output=True, text=True)
    assert done.returncode == 1
    assert "tasks/demo/case-001/task.json: FAILED" in done.stdout


def test_root_is_sha256_of_canonical_manifest(project: Project, root: Path) -> None:
    result = freeze_pocket(project, POCKET)
    stamp = read_stamp(module_bytes(root))
    assert stamp is not None and stamp.manifest is not None
    from lae.canonical import canonical_bytes
    import hashlib

    assert result.root == hashlib.sha256(canonical_bytes(stamp.manifest.model_dump(mode="json"))).hexdigest()


def test_freezing_twice_is_byte_identical_and_writes_nothing(project: Project, root: Path) -> None:
    first = freeze_pocket(project, POCKET)
    before = snapshot(root)
    mtimes = {p: os.stat(root / p).st_mtime_ns for p in before}
    second = freeze_pocket(project, POCKET)
    assert snapshot(root) == before
    assert second.written == [] and second.root == first.root
    assert {p: os.stat(root / p).st_mtime_ns for p in before} == mtimes


def test_freeze_is_independent_of_location_and_clock(tmp_path: Path) -> None:
    a = make_tree(tmp_path / "a")
    b = make_tree(tmp_path / "elsewhere" / "b")
    freeze_pocket(Project.at(a), POCKET)
    time.sleep(1.1)  # a different second on the clock
    freeze_pocket(Project.at(b), POCKET)
    assert snapshot(a) == snapshot(b)


def test_code_outside_the_stamp_is_byte_identical(project: Project, root: Path) -> None:
    before = outside_stamp(module_bytes(root))
    freeze_pocket(project, POCKET)
    (root / "tasks/demo/case-002/documents/04-new.txt").write_text("new\n")
    freeze_pocket(project, POCKET)
    assert outside_stamp(module_bytes(root)) == before


def test_crlf_and_no_trailing_newline_outside_the_stamp_are_kept(project: Project, root: Path) -> None:
    path = root / "environments" / f"{MODULE}.py"
    text = module_text().replace("\n", "\r\n").rstrip("\r\n")
    path.write_bytes(text.encode())
    before = outside_stamp(path.read_bytes())
    freeze_pocket(project, POCKET)
    assert outside_stamp(path.read_bytes()) == before
    verify_pocket(project, POCKET)


def test_freeze_keeps_the_module_permission_bits(project: Project, root: Path) -> None:
    path = root / "environments" / f"{MODULE}.py"
    path.chmod(0o640)
    freeze_pocket(project, POCKET)
    assert (path.stat().st_mode & 0o777) == 0o640


# -- the header, exactly ----------------------------------------------------------------

_D = "d" * 64


def _manifest() -> Manifest:
    return Manifest(
        pocket="demo",
        environment_module="demo_env",
        environment_module_sha256="e" * 64,
        grader=GraderIdentity(scoring_contract_version=1, python="CPython 3.12",
                              modules=(ModuleDigest(name="lae", sha256="a" * 64),
                                       ModuleDigest(name="lae.grader.score", sha256="f" * 64)),
                              packages=(PackageVersion(name="pypdf", version="7.1.1"),
                                        PackageVersion(name="python-docx", version="1.2.0"))),
        scoring={"case-001": {"false_flag_weight": 0.1, "min_deliverable_chars": 200}},
        files=(FileEntry(path="anchors/demo/case-001.anchors.json", sha256="b" * 64),
               FileEntry(path="tasks/demo/case-001/documents/01 memo (draft).txt", sha256="c" * 64),
               FileEntry(path="tasks/demo/case-001/task.json", sha256=_D)),
    )


def test_frozen_header_exact_text() -> None:
    manifest = _manifest()
    assert render_stamp(manifest, generator_version="9.9.9") == textwrap.dedent(f"""\
        # >>> lae freeze stamp >>>
        # Written by `lae freeze`, checked by `lae verify`: do not edit by hand.
        # generator: lae.freeze 9.9.9
        # status: FROZEN
        # pocket: demo
        # command: lae freeze --pocket demo
        # environment-module: demo_env
        # environment-module-sha256: {"e" * 64}
        # manifest-version: 2
        # root-sha256: {manifest.root}
        # grader-contract: 1
        # python: CPython 3.12
        # package: pypdf 7.1.1
        # package: python-docx 1.2.0
        # module: {"a" * 64} lae
        # module: {"f" * 64} lae.grader.score
        # check: sha256sum -c anchors/demo/SHA256SUMS  (from the project root)
        # scoring: case-001 {{"false_flag_weight":0.1,"min_deliverable_chars":200}}
        # files: 3
        # {"b" * 64}  anchors/demo/case-001.anchors.json
        # {"c" * 64}  tasks/demo/case-001/documents/01 memo (draft).txt
        # {_D}  tasks/demo/case-001/task.json
        # <<< lae freeze stamp <<<""")


def test_frozen_header_parses_back_to_the_same_manifest() -> None:
    manifest = _manifest()
    stamp = read_stamp(f"x = 1\n{render_stamp(manifest)}\n".encode())
    assert stamp is not None and stamp.manifest == manifest and stamp.root == manifest.root


def test_unfrozen_header_says_not_frozen_and_holds_nothing_like_a_hash(root: Path) -> None:
    data = module_bytes(root)
    head, tail = outside_stamp(data)
    block = data[len(head): len(data) - len(tail)]
    assert b"# status: NOT FROZEN" in block and b"# pocket: demo" in block
    assert not HEX64.search(block)


@pytest.mark.parametrize("module", ["employment_law", "ai_law", "corporate_governance"])
def test_shipped_pocket_modules_carry_a_stamp_naming_their_pocket(module: str) -> None:
    data = (REPO / "environments" / f"{module}.py").read_bytes()
    stamp = read_stamp(data)
    assert stamp is not None and stamp.pocket == module.replace("_", "-")
    if not stamp.frozen:
        head, tail = outside_stamp(data)
        assert not HEX64.search(data[len(head): len(data) - len(tail)])


# -- refusals -----------------------------------------------------------------------------


def _refusal(project: Project, root: Path, match: str) -> FreezeError:
    before = snapshot(root)
    with pytest.raises(FreezeError, match=match) as info:
        freeze_pocket(project, POCKET)
    assert info.value.exit_code == 3
    assert snapshot(root) == before, "a refused freeze must write nothing"
    return info.value


def test_refuses_when_compile_check_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_tree(tmp_path / "tree", keys=True)

    def stale(project: Project, pocket: str) -> None:
        raise StaleAnchorsError("1 anchors file(s) out of date",
                                [Problem("anchors/demo/case-001.anchors.json", "anchors are stale")])

    monkeypatch.setattr(freezer, "_check_pocket", stale)
    err = _refusal(Project.at(root), root, r"lae compile --check --pocket demo` fails: 1 anchors file")
    assert [p.path for p in err.problems] == ["anchors/demo/case-001.anchors.json"]


def test_compile_check_runs_when_keys_are_present(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_tree(tmp_path / "tree", keys=True)
    calls = []
    monkeypatch.setattr(freezer, "_check_pocket", lambda project, pocket: calls.append(pocket))
    result = freeze_pocket(Project.at(root), POCKET)
    assert calls == [POCKET] and result.compile_check == "passed" and result.compile_check_note is None


def test_compile_check_is_skipped_and_said_so_without_keys(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(freezer, "_check_pocket", lambda *a: pytest.fail("must not run without keys"))
    result = freeze_pocket(project, POCKET)
    assert result.compile_check == "skipped"
    assert "keys_private/demo/ is absent" in (result.compile_check_note or "")


def test_refuses_a_pocket_without_anchors(project: Project, root: Path) -> None:
    for p in (root / "anchors/demo").glob("*.json"):
        p.unlink()
    _refusal(project, root, "cannot be frozen")


def test_refuses_an_anchors_file_without_a_task(project: Project, root: Path) -> None:
    shutil.rmtree(root / "tasks/demo/case-002")
    err = _refusal(project, root, "cannot be frozen")
    assert [p.path for p in err.problems] == ["tasks/demo/case-002/task.json"]


def test_refuses_a_task_without_anchors(project: Project, root: Path) -> None:
    (root / "anchors/demo/case-002.anchors.json").unlink()
    err = _refusal(project, root, "cannot be frozen")
    assert [p.path for p in err.problems] == ["tasks/demo/case-002/"]


def test_refuses_anchors_without_a_scoring_block(project: Project, root: Path) -> None:
    (root / "anchors/demo/case-001.anchors.json").write_text('{"task_id":"case-001"}')
    err = _refusal(project, root, "cannot be frozen")
    assert err.problems[0].field == "scoring"


def test_refuses_a_symlink_in_a_frozen_folder(project: Project, root: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("elsewhere")
    os.symlink(tmp_path / "outside.txt", root / "tasks/demo/case-001/documents/04-link.txt")
    err = _refusal(project, root, "cannot be frozen")
    assert err.problems[0].field == "symlink"


def test_refuses_a_name_sha256sum_would_escape(project: Project, root: Path) -> None:
    (root / "tasks/demo/case-001/documents/bad\\name.txt").write_text("x")
    err = _refusal(project, root, "cannot be frozen")
    assert err.problems[0].field == "name"


@pytest.fixture
def keyed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tree with keys_private/demo/pocket.yaml (the module is named there); the
    compile check is stubbed to pass."""
    monkeypatch.setattr(freezer, "_check_pocket", lambda *a: None)
    return make_tree(tmp_path / "keyed", keys=True)


def test_refuses_a_module_without_markers(keyed: Path) -> None:
    (keyed / "environments" / f"{MODULE}.py").write_text('"""No stamp here."""\n')
    _refusal(Project.at(keyed), keyed, "has no stamp markers")


def test_refuses_a_missing_module(keyed: Path) -> None:
    (keyed / "environments" / f"{MODULE}.py").unlink()
    _refusal(Project.at(keyed), keyed, "environment module of 'demo' is missing")


def test_refuses_broken_markers(keyed: Path) -> None:
    path = keyed / "environments" / f"{MODULE}.py"
    path.write_text(path.read_text().replace("# <<< lae freeze stamp <<<\n", ""))
    _refusal(Project.at(keyed), keyed, "markers .* are broken")


def test_repairs_a_hand_edited_block_between_intact_markers(keyed: Path) -> None:
    path = keyed / "environments" / f"{MODULE}.py"
    path.write_text(path.read_text().replace("# status: NOT FROZEN", "# status: whatever"))
    freeze_pocket(Project.at(keyed), POCKET)
    verify_pocket(Project.at(keyed), POCKET)


def test_refuses_a_module_stamped_for_another_pocket(keyed: Path) -> None:
    (keyed / "environments" / f"{MODULE}.py").write_text(module_text("other"))
    _refusal(Project.at(keyed), keyed, "carries the stamp of pocket 'other', not 'demo'")


def test_refuses_when_no_module_names_the_pocket(project: Project, root: Path) -> None:
    (root / "environments" / f"{MODULE}.py").write_text(module_text("other"))
    err = _refusal(project, root, "cannot find the environment module of 'demo'")
    assert "no module's stamp names pocket 'demo'" in err.report()


def test_refuses_an_unknown_pocket(project: Project) -> None:
    with pytest.raises(LayoutError, match="unknown pocket 'nope'") as info:
        freeze_pocket(project, "nope")
    assert info.value.exit_code == 1


def test_finds_the_module_through_pocket_yaml_when_keys_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_tree(tmp_path / "tree", keys=True)
    # A second module whose stamp also names the pocket: pocket.yaml decides, not the scan.
    (root / "environments" / "decoy.py").write_text(module_text())
    monkeypatch.setattr(freezer, "_check_pocket", lambda *a: None)
    result = freeze_pocket(Project.at(root), POCKET)
    assert result.module_path == f"environments/{MODULE}.py"
    assert (root / "environments" / "decoy.py").read_text() == module_text()


# -- interruption and concurrency -------------------------------------------------------


def test_an_interrupted_freeze_leaves_no_half_stamped_module(project: Project, root: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    before = module_bytes(root)
    real_replace = os.replace

    def crash_on_module(src: str, dst: str) -> None:
        if str(dst).endswith(f"{MODULE}.py"):
            raise KeyboardInterrupt("power cut")
        real_replace(src, dst)

    monkeypatch.setattr(fs.os, "replace", crash_on_module)
    with pytest.raises(KeyboardInterrupt):
        freeze_pocket(project, POCKET)
    assert module_bytes(root) == before
    assert not [p for p in snapshot(root) if ".lae-tmp-" in p], "temp files must be cleaned up"
    monkeypatch.undo()
    freeze_pocket(project, POCKET)  # and the next freeze completes
    verify_pocket(project, POCKET)


def test_a_crash_while_writing_keeps_the_old_bytes(project: Project, root: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    before = module_bytes(root)
    real_fsync = os.fsync
    calls = {"n": 0}

    def die_on_second_file(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == 3:  # SHA256SUMS file, SHA256SUMS dir, then the module's temp file
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(fs.os, "fsync", die_on_second_file)
    with pytest.raises(OSError, match="No space left"):
        freeze_pocket(project, POCKET)
    assert module_bytes(root) == before
    assert not [p for p in snapshot(root) if ".lae-tmp-" in p]


_FREEZE_SCRIPT = """
import sys
from lae.project import Project
from lae.freeze import freeze_pocket
r = freeze_pocket(Project.at(sys.argv[1]), sys.argv[2], lock_timeout=float(sys.argv[3]))
print(r.root)
"""


def _spawn_freeze(root: Path, timeout: float = 60) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", _FREEZE_SCRIPT, str(root), POCKET, str(timeout)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO)


def test_a_second_freeze_waits_for_the_first(project: Project, root: Path) -> None:
    before = module_bytes(root)
    lock = fs.pocket_lock(project.anchors_dir(POCKET), timeout=5)
    with lock:
        waiting = _spawn_freeze(root)
        time.sleep(1.5)
        assert waiting.poll() is None, "the second freeze must wait while the lock is held"
        assert module_bytes(root) == before
    out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    assert out.strip() == verify_pocket(project, POCKET).root


def test_a_second_freeze_fails_cleanly_when_the_wait_times_out(project: Project, root: Path) -> None:
    before = snapshot(root)
    with fs.pocket_lock(project.anchors_dir(POCKET), timeout=5):
        with pytest.raises(FreezeError, match="another freeze of pocket 'demo' is running") as info:
            freeze_pocket(project, POCKET, lock_timeout=0.2)
    assert info.value.exit_code == 3
    assert snapshot(root) == before


def test_concurrent_freezes_both_succeed_with_identical_bytes(tmp_path: Path) -> None:
    root = make_tree(tmp_path / "tree", tasks=20)
    procs = [_spawn_freeze(root) for _ in range(3)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [e for _, e in outs]
    assert len({o.strip() for o, _ in outs}) == 1
    after = snapshot(root)
    single = make_tree(tmp_path / "single", tasks=20)
    freeze_pocket(Project.at(single), POCKET)
    assert after == snapshot(single)


def test_the_lock_lives_outside_the_tree(project: Project, root: Path) -> None:
    lock_file = fs.lock_path_for(project.anchors_dir(POCKET))
    assert root not in lock_file.parents
    freeze_pocket(project, POCKET)
    assert not [p for p in snapshot(root) if p.endswith(".lock")]


# -- strict parsing -------------------------------------------------------------------


def _swap_file_lines(text: str) -> str:
    lines = text.split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith("# files: ")) + 1
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "\n".join(lines)


def _two_task_manifest() -> Manifest:
    m = _manifest()
    return m.model_copy(update={"scoring": {"case-001": {"a": 1}, "case-002": {"a": 2}}})


@pytest.mark.parametrize("edit", [
    pytest.param(lambda t: t.replace("# files: 3", "# files: 4"), id="wrong-file-count"),
    pytest.param(lambda t: t.replace("# status: FROZEN", "# status: FROZEN "), id="trailing-space"),
    pytest.param(lambda t: t.replace("# check:", "#check:"), id="missing-space"),
    pytest.param(lambda t: t.replace("# generator: lae.freeze", "# generator: other.tool"), id="foreign-generator"),
    pytest.param(lambda t: _swap_file_lines(t), id="files-out-of-order"),
    pytest.param(lambda t: t.replace('# scoring: case-001 {"a":1}\n# scoring: case-002 {"a":2}',
                                     '# scoring: case-002 {"a":2}\n# scoring: case-001 {"a":1}'),
                 id="scoring-out-of-order"),
    pytest.param(lambda t: t.replace('{"a":1}', '{"a": 1}'), id="non-canonical-json"),
    pytest.param(lambda t: t.replace("# pocket: demo\n", "# pocket: demo\n# pocket: demo\n"), id="repeated-field"),
])
def test_a_stamp_that_is_not_exactly_canonical_is_malformed(edit) -> None:  # type: ignore[no-untyped-def]
    from lae.freeze import StampFormatError

    text = render_stamp(_two_task_manifest())
    edited = edit(text)
    assert edited != text
    with pytest.raises(StampFormatError):
        read_stamp(edited.encode())


def test_a_crlf_checkout_of_the_stamp_still_parses() -> None:
    manifest = _two_task_manifest()
    stamp = read_stamp(render_stamp(manifest).replace("\n", "\r\n").encode())
    assert stamp is not None and stamp.manifest == manifest
