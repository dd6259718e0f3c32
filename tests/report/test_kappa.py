"""Cohen's kappa of judge vs proxy, against values computed by hand (not by the code under test)."""

from __future__ import annotations

import pytest

from lae.report.aggregate import cohen_kappa

YES, NO = True, False


def table(both_yes: int, judge_only: int, proxy_only: int, both_no: int) -> list[tuple[bool, bool]]:
    return [(YES, YES)] * both_yes + [(YES, NO)] * judge_only + [(NO, YES)] * proxy_only + [(NO, NO)] * both_no


@pytest.mark.parametrize("cells, expected", [
    # p_o = 0.7; judge yes 0.6, proxy yes 0.5; p_e = 0.6*0.5 + 0.4*0.5 = 0.5; (0.7-0.5)/(1-0.5) = 0.4
    ((4, 2, 1, 3), 0.4),
    # p_o = 0.5; judge yes 0.5, proxy yes 0.5; p_e = 0.5; kappa 0
    ((1, 1, 1, 1), 0.0),
    # perfect agreement with both verdicts present
    ((3, 0, 0, 2), 1.0),
    # p_o = 0; judge yes 0.5, proxy yes 0.5; p_e = 0.5; (0-0.5)/0.5 = -1
    ((0, 2, 2, 0), -1.0),
    # p_o = 0.8; judge yes 0.4, proxy yes 0.6; p_e = 0.24 + 0.24 = 0.48; 0.32/0.52 = 0.615385
    ((4, 0, 2, 4), 0.615385),
], ids=["fleiss-style", "chance", "perfect", "opposite", "asymmetric"])
def test_kappa_matches_the_hand_computed_value(cells, expected):
    kappa, note = cohen_kappa(table(*cells))
    assert note is None
    assert kappa == pytest.approx(expected, abs=1e-6)


def test_kappa_is_undefined_when_both_raters_never_vary():
    kappa, note = cohen_kappa(table(5, 0, 0, 0))
    assert kappa is None and "chance agreement is 1" in note


def test_kappa_is_undefined_without_pairs():
    kappa, note = cohen_kappa([])
    assert kappa is None and "no criterion" in note
