"""`lae demo`, the README's main job: compile check, verify, score the bundled memos."""

from __future__ import annotations

from tests.conftest import REPO, run_lae


def _reportable(pocket: str) -> str:
    """What the pocket's freeze stamp says of its fidelity: met (reportable) or NOT MET (frozen with
    --allow-low-fidelity, not reportable)."""
    stamp = (REPO / "environments" / f"{pocket.replace('-', '_')}.py").read_text(encoding="utf-8")
    summary = next(line for line in stamp.splitlines() if line.startswith("# fidelity-summary: "))
    return "no" if ": NOT MET" in summary else "yes"


def test_lae_demo_runs_the_whole_pipeline_on_the_bundled_pockets():
    proc = run_lae("demo", cwd=REPO, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    for pocket in ("employment-law", "ai-law", "corporate-governance"):
        assert f"[{pocket}] compile --check: ok" in out
        assert f"[{pocket}] verify: ok (verified, freeze root " in out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) == 30
    strong = [r for r in rows if "| strong |" in r]
    generic = [r for r in rows if "| generic |" in r]
    assert len(strong) == len(generic) == 15
    # a release is reportable exactly when its freeze stamp says its fidelity met the thresholds
    expected = {p: _reportable(p) for p in ("employment-law", "ai-law", "corporate-governance")}
    for r in strong:
        assert f"| 1.000 | 1.000 | 1 | 0.000 | 0.000 | {expected[r.split('|')[1].strip()]} |" in r, r
    assert all(float(r.split("|")[5]) <= 1 / 7 + 1e-3 and "| 1 |" in r for r in generic)  # at most 1 of 7
    assert all(r.rstrip().endswith(f"| {expected[r.split('|')[1].strip()]} |") for r in generic)
    if "no" in expected.values():
        assert "not reportable: fidelity below its thresholds" in out
