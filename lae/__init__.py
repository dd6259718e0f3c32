"""legal-agent-eval: deterministically graded legal-agent evaluations.

Stages, each a plain function over typed models:

* ``lae.compiler`` -- private answer keys in, public anchor specs out;
* ``lae.freeze``   -- hash everything a score depends on, stamp it, verify it;
* ``lae.grader``   -- read deliverables, mask quoted text, credit findings;
* ``lae.cli``      -- the thin ``lae`` command shell over them.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
