"""The grader (``lae.grader``): deliverable readers, quote masking, matching, scoring.

:data:`SCORING_CONTRACT_VERSION` is bumped by hand whenever the meaning of a score
changes (metrics, reward formula, matching rules), even if no file moved. The freeze
records it in the grader identity (``lae.freeze.identity``), which reads it from this
file's source: keep it a plain ``SCORING_CONTRACT_VERSION = <int>`` line.
"""

SCORING_CONTRACT_VERSION = 2
"""Version of the scoring contract (what a score means). Bump on any semantic change."""
