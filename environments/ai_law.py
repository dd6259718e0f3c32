"""AI law and export controls pocket (``ai-law``) of legal-agent-eval.

The block between the ``lae freeze stamp`` markers below is written by
``lae freeze --pocket ai-law`` and checked by ``lae verify``: it records the root
digest and the SHA-256 of every file this pocket's scores depend on. Do not edit it
by hand; nothing outside it is ever touched by freeze.
"""

# >>> lae freeze stamp >>>
# Written by `lae freeze`, checked by `lae verify`: do not edit by hand.
# generator: lae.freeze 0.1.0
# status: NOT FROZEN
# pocket: ai-law
# This pocket has not been frozen, so no score against it is reportable.
# To freeze it, run from the project root: lae freeze --pocket ai-law
# <<< lae freeze stamp <<<
