"""Pocket environments (``lae.environments``): one module per pocket.

Each module's header carries the pocket's freeze stamp (see SPEC section 6); the
environment entry points (``load_environment``) are added beside it.
"""
