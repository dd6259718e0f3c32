"""Grader fidelity (``lae.fidelity``): how often the grader agrees with a careful reader.

Labelled validation memos (SPEC section 11) are scored by the real grader and compared
with their labels: over-credit, under-credit, distractor and prohibited-claim
disagreements, mean reward per memo kind, and every disagreement with both sides' words.
"""

from __future__ import annotations

from .measure import MEASUREMENT_RELEASE, MemoOutcome, compare, measure, outcome_from_result, score_memos
from .models import FIDELITY_SCHEMA_ID, FidelityReport, Tally, fidelity_json_schema
from .sets import LabelledMemo, MemoSet, folder_set, project_set

__all__ = [
    "FIDELITY_SCHEMA_ID",
    "MEASUREMENT_RELEASE",
    "FidelityReport",
    "LabelledMemo",
    "MemoOutcome",
    "MemoSet",
    "Tally",
    "compare",
    "fidelity_json_schema",
    "folder_set",
    "measure",
    "outcome_from_result",
    "project_set",
    "score_memos",
]
