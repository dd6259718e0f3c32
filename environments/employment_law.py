"""Employment law pocket (``employment-law``) of legal-agent-eval.

The block between the ``lae freeze stamp`` markers below is written by
``lae freeze --pocket employment-law`` and checked by ``lae verify``: it records the root
digest and the SHA-256 of every file this pocket's scores depend on. Do not edit it
by hand; nothing outside it is ever touched by freeze.
"""

# >>> lae freeze stamp >>>
# Written by `lae freeze`, checked by `lae verify`: do not edit by hand.
# generator: lae.freeze 0.1.0
# status: NOT FROZEN
# pocket: employment-law
# This pocket has not been frozen, so no score against it is reportable.
# To freeze it, run from the project root: lae freeze --pocket employment-law
# <<< lae freeze stamp <<<

from typing import Any

POCKET = "employment-law"

__all__ = ["POCKET", "load_environment"]


def load_environment(**kwargs: Any):
    """Load the ``employment-law`` pocket (factory mode) or a LAB tree (``source="lab"``).

    Arguments are the seeds' table: ``source``, ``task_id``, ``max_turns``, ``page_chars``,
    ``false_flag_weight``, ``must_not_say_weight``, ``min_deliverable_chars``, ``judge_model``,
    ``tasks_root``, ``allow_unfrozen``. The freeze gate runs first. With the optional
    ``verifiers`` extra, use ``lae.env.verifiers_adapter.load_environment`` for a verifiers Env.
    """
    from lae.env.environment import load_environment as _load

    return _load(POCKET, **kwargs)
