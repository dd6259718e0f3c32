"""Text normalization shared by the compiler and the grader.

Both sides of every match see the same normalized text: Unicode NFKC (ligatures,
full-width forms), case-folded, typographic quotes and dashes unified, every kind of
horizontal space collapsed to one ASCII space, soft hyphens and zero-width characters
removed, line breaks kept as ``\\n`` (paragraph and line boundaries matter), and a
contraction typed without its apostrophe given it back ("dont" -> "don't", "thats" ->
"that's": a hurried note's negation is a negation). The
normalized text keeps a map back to offsets in the original, so evidence can quote
the agent's exact words.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

import regex

__all__ = ["NormalizedText", "normalize", "normalize_term", "TOKEN_RE"]

_QUOTES = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'", "`": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
}
_DASHES = set("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\ufe58\ufe63\uff0d")
_DROP = set("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_LINE_BREAKS = set("\n\r\u2028\u2029\x0b\x0c\x85")

# A token for quote masking: a run of letters/digits (Unicode-aware).
TOKEN_RE = regex.compile(r"[\p{L}\p{N}]+")


@dataclass(frozen=True)
class NormalizedText:
    """Normalized text plus, for each of its characters, the offset it came from."""

    text: str
    origin: tuple[int, ...]  # len(text) + 1 entries; the last is len(original)

    def span_in_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a [start, end) span of the normalized text back to the original."""
        if end <= start:
            o = self.origin[start]
            return o, o
        return self.origin[start], self.origin[end - 1] + 1


@functools.lru_cache(maxsize=65536)
def _map_char(ch: str) -> str:
    if ch in _DROP:
        return ""
    if ch in _LINE_BREAKS:
        return "\n"
    if ch in _QUOTES:
        return _QUOTES[ch]
    if ch in _DASHES:
        return "-"
    if ch == "\t" or (ch != " " and unicodedata.category(ch) == "Zs"):
        return " "
    out = unicodedata.normalize("NFKC", ch).casefold()
    # NFKC can produce typographic characters again (e.g. from compatibility forms).
    return "".join(_QUOTES.get(c, "-" if c in _DASHES else c) for c in out)


# Runs of plain ASCII (no backtick, tab or control characters) joined by single spaces map to
# their lower case character for character: the fast path (most of a memo).
_PLAIN_RUN = regex.compile(r"[!-_a-~]+(?: [!-_a-~]+)*")


def _slow(text: str, start: int, end: int, out: list[str], origin: list[int], prev: str) -> str:
    """Normalize ``text[start:end]`` character by character; returns the last character written."""
    n = len(text)
    for i in range(start, end):
        ch = text[i]
        if ch == "\r" and i + 1 < n and text[i + 1] == "\n":
            continue
        for c in _map_char(ch):
            if c == " " and prev in (" ", "\n"):
                continue
            if c == "\n" and prev == " " and out:
                # strip trailing space before a line break
                out.pop()
                origin.pop()
            out.append(c)
            origin.append(i)
            prev = c
    return prev


def normalize(text: str) -> NormalizedText:
    """Normalize ``text`` for matching; see the module docstring."""
    out: list[str] = []
    origin: list[int] = []
    prev = "\n"  # collapse leading spaces
    pos = 0
    for m in _PLAIN_RUN.finditer(text):
        if m.start() > pos:
            prev = _slow(text, pos, m.start(), out, origin, prev)
        run = m.group(0)
        out.append(run.lower())
        origin.extend(range(m.start(), m.end()))
        prev = run[-1]
        pos = m.end()
    if pos < len(text):
        _slow(text, pos, len(text), out, origin, prev)
    origin.append(len(text))
    return _restore_apostrophes("".join(out), origin)


# A negative contraction or "that's" typed without its apostrophe ("dont", "isnt", "cant", "thats").
_BARE_CONTRACTION = regex.compile(r"(?<![\p{L}\p{N}'])(?:(?:do|does|did|is|are|was|were|has|have|had|could|would|"
                                  r"should|must|need|ca|wo|ai)n(?=t)|that(?=s))(?![\p{L}\p{N}']{2})")


def _restore_apostrophes(text: str, origin: list[int]) -> NormalizedText:
    """Insert the apostrophe a bare contraction lacks; it maps to the offset of the letter after it."""
    cuts = [m.end() for m in _BARE_CONTRACTION.finditer(text)]
    if not cuts:
        return NormalizedText(text, tuple(origin))
    parts: list[str] = []
    mapped: list[int] = []
    pos = 0
    for cut in cuts:
        parts += (text[pos:cut], "'")
        mapped += origin[pos:cut]
        mapped.append(origin[cut])
        pos = cut
    parts.append(text[pos:])
    mapped += origin[pos:]
    return NormalizedText("".join(parts), tuple(mapped))


def normalize_term(term: str) -> str:
    """Normalized form of a key term (single line, trimmed)."""
    return normalize(term.replace("\n", " ")).text.strip()
