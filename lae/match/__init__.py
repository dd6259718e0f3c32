"""The matching kernel (``lae.match``): what both the compiler and the grader use to decide
whether a text credits a finding, flags a distractor or makes a prohibited claim.

It imports neither ``lae.compiler`` nor ``lae.grader`` (both import it):

* :mod:`~lae.match.normalize` -- text normalization with a map back to original offsets;
* :mod:`~lae.match.terms` -- a plain term compiled to a tolerant pattern;
* :mod:`~lae.match.phrases` -- the phrase syntax (``part + part``), citation forms;
* :mod:`~lae.match.spec` -- the compiled matchers (what anchors carry);
* :mod:`~lae.match.blocks` / :mod:`~lae.match.segment` -- structure: blocks, discussions, sentences;
* :mod:`~lae.match.cues` / :mod:`~lae.match.polarity` -- assertion: negated, dismissed, hedged, reported...;
* :mod:`~lae.match.masking` -- quote masking;
* :mod:`~lae.match.evidence` -- typed evidence;
* :mod:`~lae.match.assertion` -- the learned assertion layer (pinned weights in ``_assertion_weights``);
* :mod:`~lae.match.engine` -- the credit rule over all of the above.
"""
