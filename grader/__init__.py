"""The grader: deliverables in, explained scores out (``lae.grader``)."""
