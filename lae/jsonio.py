"""Bounded JSON parsing for every file and reply the project reads.

``json.loads`` raises ``RecursionError`` (not ``ValueError``) on input nested a few
thousand levels deep, and a structure that parses but is nested hundreds deep makes
later recursive code (``json.dumps``, pydantic, our own walkers) fail far from the
read. So every reader parses through :func:`loads`: it turns both cases into a
:class:`JSONDepthError`, a ``ValueError``, which every reader already catches and
reports as one located line.
"""

from __future__ import annotations

import json

__all__ = ["MAX_JSON_DEPTH", "JSONDepthError", "depth", "loads"]

MAX_JSON_DEPTH = 64
"""Deepest nesting accepted by default (our own formats nest at most about 8 levels)."""


class JSONDepthError(ValueError):
    """The JSON text nests deeper than the limit."""


def depth(value: object) -> int:
    """Nesting depth of a parsed JSON value (a scalar is 0), computed without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            deepest = max(deepest, level)
            continue
        deepest = max(deepest, level + 1)
        stack.extend((child, level + 1) for child in children)
    return deepest


def loads(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH) -> object:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` with a ``JSONDepthError``."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JSONDepthError(f"JSON nested deeper than {max_depth} levels (limit {max_depth})") from None
    found = depth(value)
    if found > max_depth:
        raise JSONDepthError(f"JSON nested {found} levels deep (limit {max_depth})")
    return value
