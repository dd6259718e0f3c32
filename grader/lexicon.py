"""Fixed cue lexicons of the grader (part of the grader's identity, hashed at freeze).

Cues are plain phrases compiled with the same term compiler as key terms.
"""

from __future__ import annotations

__all__ = ["SEVERITY_LEXICON", "SEVERITY_ORDER", "DISMISSAL_CUES", "DISMISSAL_PATTERNS", "ESCALATION_CUES", "CORRECTION_CUES",
           "CORRECTION_CUES_AFTER",
           "FUNCTION_WORDS", "severity_terms_for"]

SEVERITY_ORDER = ("low", "medium", "high", "critical")

SEVERITY_LEXICON: dict[str, tuple[str, ...]] = {
    "critical": ("critical", "severe", "most serious", "gravest", "urgent", "top priority", "highest priority",
                 "highest risk", "immediate attention", "act immediately", "priority one"),
    "high": ("high risk", "high-risk", "high severity", "high priority", "serious", "significant risk",
             "significant exposure", "substantial risk", "substantial exposure", "major risk", "material risk",
             "material exposure", "risk is high", "exposure is high", "high exposure", "likelihood is high"),
    "medium": ("moderate", "medium risk", "medium severity", "medium priority", "elevated risk",
               "meaningful risk", "intermediate risk"),
    "low": ("low risk", "low-risk", "low severity", "low priority", "minor", "limited risk", "modest risk",
            "limited exposure", "risk is low", "exposure is low"),
}


def severity_terms_for(level: str) -> list[str]:
    """Lexicon terms of ``level`` and its adjacent levels (a memo may reasonably
    grade one notch up or down)."""
    idx = SEVERITY_ORDER.index(level)
    levels = SEVERITY_ORDER[max(0, idx - 1): idx + 2]
    out: list[str] = []
    for lvl in levels:
        out.extend(SEVERITY_LEXICON[lvl])
    return list(dict.fromkeys(out))


# A sentence with one of these declines the issue it names.
DISMISSAL_CUES: tuple[str, ...] = (
    "not an issue", "no issue", "non-issue", "not a concern", "no concern", "not a problem", "no problem",
    "poses no", "presents no", "raises no", "does not raise", "no material risk", "no meaningful risk",
    "no real risk", "not material", "immaterial", "not relevant", "irrelevant", "can be disregarded",
    "can be ignored", "may be ignored", "need not be escalated", "does not need to be escalated",
    "need not be addressed", "no action is needed", "no action needed", "no action is required",
    "no further action", "does not warrant", "do not warrant", "not warrant", "we see no", "nothing to flag",
    "not a risk", "no risk", "not worth", "benign", "unproblematic", "no exposure", "not escalate",
    "decline to escalate", "declined to escalate", "not a red flag", "no red flag", "not a finding",
    "not an exposure", "not problematic", "does not present", "we are not concerned", "not of concern",
    "no cause for concern", "not a live issue", "not a current issue", "do not view", "does not view",
    "would not treat", "not treat this as", "no compliance concern", "no export control concern", "no legal concern",
    "no basis for concern", "not an area of concern", "nothing further is required", "no need to",
    "is compliant", "are compliant", "remains compliant", "appears compliant",
)

# Shapes of decline the phrase list cannot enumerate ("is not an export issue",
# "raises no compliance concern"); written by us, never by key authors.
DISMISSAL_PATTERNS: tuple[str, ...] = (
    r"(?<![\p{L}\p{N}])not (?:an? |the )?(?:(?!(?:only|just|merely|least|minor|small|trivial|insignificant|theoretical|hypothetical|remote)\b)[\p{L}-]+ ){0,2}(?:issue|concern|problem|risk)s?(?![\p{L}\p{N}])",
    r"(?<![\p{L}\p{N}])(?:raises|presents|poses|creates) no (?:[\p{L}-]+ ){0,2}(?:issue|concern|problem|risk|exposure)s?(?![\p{L}\p{N}])",
)

# A window with one of these escalates whatever it names.
ESCALATION_CUES: tuple[str, ...] = (
    "risk", "exposure", "violation", "violate", "liability", "liable", "breach", "must", "should",
    "recommend", "urgent", "remediate", "remediation", "non-compliant", "noncompliance", "concern",
    "problem", "unlawful", "illegal", "invalid", "unenforceable", "penalty", "penalties", "escalate",
    "red flag", "critical", "serious", "significant", "issue", "danger", "defect", "deficien",
)

# A prohibited phrasing preceded in its sentence by one of these is being corrected, not made.
CORRECTION_CUES: tuple[str, ...] = (
    "incorrect", "wrong", "mistaken", "erroneous", "not true", "not correct", "no longer", "not the case",
    "contrary to", "rather than", "instead of", "do not assume", "should not assume", "cannot assume",
    "misconception", "misread", "inaccurate", "not accurate", "false", "it is not", "untrue", "would be an error",
)

# ... or followed by one of these ("the view that X is incorrect").
CORRECTION_CUES_AFTER: tuple[str, ...] = (
    "is incorrect", "is wrong", "is mistaken", "is erroneous", "is not correct", "is untrue", "is inaccurate",
    "is not accurate", "is a misreading", "is a misconception", "would be incorrect", "would be wrong",
)

# Words that make a run of terms read as a sentence rather than a keyword list.
FUNCTION_WORDS: frozenset[str] = frozenset(
    "a an the of to in on at by for with from as is are was were be been being that this these those it its "
    "which who whom whose and or but because since although though if unless so than then there their they "
    "we our us you your he she his her has have had do does did will would shall should must may might can "
    "could not no nor any each every all some such into onto under over about against between through during "
    "before after above below upon within without".split()
)
