"""Literals a regular expression's every match must contain, read from its source.

The cue lexicons of :mod:`lae.match.polarity` are hand-written regular expressions searched
sentence by sentence; most sentences hold none of them. :func:`required_any` reads a pattern's
source and names a set of plain strings such that every match of the pattern contains one of
them: a stretch of text holding none of them cannot match, and a ``str.find`` per string rules
it out far faster than the regex engine can. :func:`required_prefix` names strings one of which
every match *starts* with: the pattern then need only be tried where they occur (a big
alternation of cue phrases costs the regex engine some 200 ns a character to scan, and a try
about as much as 30 characters). :func:`never_spans_line` says the pattern can neither match nor
see across a line break, so searching each line alone finds what one search of the whole text
finds. :class:`Gated` uses all three; the occurrences come from one Aho-Corasick pass over the text.

Both read the source conservatively: a construct they do not know (an inline flag, a
conditional, an escape they do not list) gives no literal, or no line safety, and the caller
then searches as before. Their answers are checked against real searches in
tests/match/test_literals.py.
"""

from __future__ import annotations

import bisect
import functools
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterator, Mapping

import ahocorasick
import regex

__all__ = ["required_any", "required_prefix", "never_spans_line", "Gated", "gate_patterns"]

_QUANTIFIER = set("?*+{")
# escapes that never match a line break: word, digit and non-space classes, the letter and
# number properties, word boundaries (the same before a line break as at the end of the text),
# escaped punctuation
_LINE_SAFE_ESCAPE = regex.compile(r"\\(?:[Swdb]|p\{[LN]\}|[ -/:-@\[-`{-~])")
# what is left must hold no other escape, no dot, anchor or negated class, and no control character
_LINE_UNSAFE = regex.compile(r"\\|[.^$\x00-\x1f\x85\u2028\u2029]|\[\^")
_FLAG_GROUP = regex.compile(r"\(\?(?!P<|P=|<[=!]|[:=!>#|])")  # inline flags, conditionals, named forms other than (?P<


def required_any(source: str) -> frozenset[str] | None:
    """Strings one of which every match of ``source`` contains (None: none known)."""
    got = _read(source)
    if got is None or got.need is None or any(not x for x in got.need):
        return None
    return got.need


def required_prefix(source: str) -> frozenset[str] | None:
    """Strings one of which every match of ``source`` starts with (None: none known); none of
    them starts with another."""
    got = _read(source)
    if got is None or got.prefix is None or any(not x for x in got.prefix):
        return None
    return _prefix_free(got.prefix)


@functools.lru_cache(maxsize=256)
def _read(source: str) -> _Read | None:
    """What the whole of ``source`` requires (None: a construct the reader does not handle, or a
    malformed source); read once for :func:`required_any` and :func:`required_prefix` alike."""
    if _FLAG_GROUP.search(source) or "\\Q" in source:
        return None
    try:
        got, end = _alternation(source, 0)
    except (_Unknown, ValueError, IndexError):  # ValueError, IndexError: a malformed source
        return None
    return got if end == len(source) else None


def _prefix_free(strings: frozenset[str]) -> frozenset[str]:
    """Drop each string that starts with another one. In sorted order the strings that start with
    a string follow it directly, so one pass keeping the last string kept finds them all."""
    kept: list[str] = []
    for x in sorted(strings):
        if not (kept and x.startswith(kept[-1])):
            kept.append(x)
    return frozenset(kept)


class _Unknown(Exception):
    """A construct the reader does not handle."""


MAX_STRINGS = 64  # a run of literal pieces is spelt out as at most this many strings
MAX_PREFIXES = 1024  # the alternatives of a cue list start with at most this many strings in all
GOOD_LENGTH = 8  # strings this long are rare enough: prefer fewer of them to longer ones


@dataclass(frozen=True)
class _Read:
    """What a piece of pattern requires: ``need``, strings one of which each match holds (None:
    nothing known), ``exact``, every string the piece can match when they are few (None: not
    spelt out; ``zero``: the piece matches no text at all, an assertion), and ``prefix``, strings
    one of which each match starts with (None: nothing known; ``""`` among them: nothing either)."""

    need: frozenset[str] | None
    exact: frozenset[str] | None
    zero: bool = False
    prefix: frozenset[str] | None = None


_ZERO = _Read(None, frozenset([""]), zero=True, prefix=frozenset([""]))
_NOTHING = _Read(None, None)


def _rank(s: frozenset[str]) -> tuple[int, int, int]:
    return min(GOOD_LENGTH, min(map(len, s))), -len(s), min(map(len, s))


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """The more selective of two requirements (longer shortest string, then fewer strings)."""
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b, key=_rank)


def _minimal(strings: frozenset[str]) -> frozenset[str]:
    """Drop each string that holds another one (finding the shorter one is enough)."""
    return frozenset(x for x in strings if not any(y != x and y in x for y in strings))


def _alternation(src: str, i: int) -> tuple[_Read, int]:
    """Read alternatives from ``i`` to the closing parenthesis (or the end)."""
    needs: set[str] = set()
    exact: set[str] | None = set()
    prefix: set[str] | None = set()
    known = True
    while True:
        got, i = _sequence(src, i)
        if got.need is None:
            known = False
        else:
            needs |= got.need
        exact = None if exact is None or got.exact is None else exact | got.exact
        prefix = None if prefix is None or got.prefix is None else prefix | got.prefix
        if i < len(src) and src[i] == "|":
            i += 1
            continue
        if exact is not None and len(exact) > MAX_STRINGS:
            exact = None
        if prefix is not None and len(prefix) > MAX_PREFIXES:
            prefix = _shortened(prefix)
        return _Read(_minimal(frozenset(needs)) if known else None, None if exact is None else frozenset(exact),
                     prefix=None if prefix is None else frozenset(prefix)), i


def _shortened(prefixes: set[str]) -> set[str]:
    """At most MAX_PREFIXES strings every one of ``prefixes`` starts with: each cut to the longest
    length that leaves that few (a match starting with a string starts with its every prefix)."""
    for length in range(max(map(len, prefixes)) - 1, 0, -1):
        cut = {x[:length] for x in prefixes}
        if len(cut) <= MAX_PREFIXES:
            return cut
    return {""}  # nothing known


def _product(chain: list[frozenset[str]]) -> frozenset[str] | None:
    out = frozenset([""])
    for piece in chain:
        out = frozenset(a + b for a in out for b in piece)
        if len(out) > MAX_STRINGS:
            return None
    return out


def _chain_need(chain: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective requirement of a run of spelt-out pieces: the strings of some stretch of it."""
    best: frozenset[str] | None = None
    for a in range(len(chain)):
        got = frozenset([""])
        for piece in chain[a:]:  # the strings of chain[a:b], each from those of chain[a:b - 1]
            got = frozenset(x + y for x in got for y in piece)
            if len(got) > MAX_STRINGS:
                break
            if "" not in got:
                best = _better(best, _minimal(got))
    return best


def _sequence(src: str, i: int) -> tuple[_Read, int]:
    """Read one alternative (up to ``|``, ``)`` or the end)."""
    best: frozenset[str] | None = None
    chain: list[frozenset[str]] = []
    whole: list[frozenset[str]] | None = []  # every piece, while all are spelt out
    prefix: frozenset[str] | None = None  # set at the first piece not spelt out

    def add(piece: _Read) -> None:
        nonlocal best, whole, prefix
        if piece.zero:
            return  # an assertion matches no text: the pieces around it stay adjacent
        best = _better(best, piece.need)
        if piece.exact is not None:
            chain.append(piece.exact)
            if whole is not None:
                whole.append(piece.exact)
            return
        best = _better(best, _chain_need(chain))
        chain.clear()
        if whole is not None:  # a match starts with the spelt-out pieces so far, then with this one's prefix
            prefix = _leading(whole if piece.prefix is None else [*whole, piece.prefix])
        whole = None

    while i < len(src) and src[i] not in "|)":
        piece, i = _atom(src, i)
        if i < len(src) and src[i] in _QUANTIFIER:
            optional = src[i] == "?"
            least = _least(src, i)
            i = _skip_quantifier(src, i)
            if piece.zero:
                pass
            elif optional and piece.exact is not None and len(piece.exact) < MAX_STRINGS:
                piece = _Read(None, piece.exact | {""}, prefix=piece.exact | {""})
            elif least >= 1:
                piece = _Read(None, None, prefix=piece.prefix)  # repeated: starts as the piece does
            else:
                piece = _NOTHING  # optional or repeated: nothing known for sure
        add(piece)
    best = _better(best, _chain_need(chain))
    exact = _product(whole) if whole is not None else None
    return _Read(best, exact, prefix=_leading(whole) if whole is not None else prefix), i


def _leading(pieces: list[frozenset[str]]) -> frozenset[str]:
    """The strings of the longest leading run of ``pieces`` that spells out in MAX_PREFIXES strings."""
    out = frozenset([""])
    for piece in pieces:
        longer = frozenset(a + b for a in out for b in piece)
        if len(longer) > MAX_PREFIXES:
            break
        out = longer
    return out


def _least(src: str, i: int) -> int:
    """The fewest repeats the quantifier at ``i`` allows."""
    if src[i] == "+":
        return 1
    if src[i] == "{":
        low = src[i + 1:src.find("}", i)].split(",")[0]
        return int(low) if low.isdigit() else 0
    return 0


def _atom(src: str, i: int) -> tuple[_Read, int]:
    """Read one atom at ``i``: a character, an escape, a class or a group."""
    c = src[i]
    if c == "\\":
        if i + 1 >= len(src):
            raise _Unknown
        nxt = src[i + 1]
        if nxt in _CHARACTER_ESCAPES:  # a line break or a tab: that one character
            ch = frozenset([_CHARACTER_ESCAPES[nxt]])
            return _Read(ch, ch, prefix=ch), i + 2
        code = _HEX_ESCAPE.match(src, i)
        if code:  # \xhh, \uhhhh, \Uhhhhhhhh: that one character ("\u2192" in an arrow cue)
            ch = frozenset([_hex_char(code)])
            return _Read(ch, ch, prefix=ch), code.end()
        if nxt.isascii() and nxt.isalnum():
            j = _skip_escape(src, i)
            return (_ZERO if nxt in "bBAZzGmM" else _NOTHING), j
        if " " <= nxt <= "~":
            return _Read(frozenset([nxt]), frozenset([nxt]), prefix=frozenset([nxt])), i + 2  # escaped punctuation (or space) is itself
        raise _Unknown
    if c == "[":
        return _NOTHING, _skip_class(src, i)
    if c == "(":
        return _group(src, i)
    if c in "^$":
        return _ZERO, i + 1
    if c == ".":
        return _NOTHING, i + 1
    if c in "{*+?":
        raise _Unknown  # a quantifier with nothing to repeat
    return _Read(frozenset([c]), frozenset([c]), prefix=frozenset([c])), i + 1


_CHARACTER_ESCAPES = {"n": "\n", "t": "\t"}
_HEX_ESCAPE = regex.compile(r"\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))")


def _hex_char(code: regex.Match) -> str:
    """The character a hexadecimal escape (a :data:`_HEX_ESCAPE` match) stands for."""
    return chr(int(next(g for g in code.groups() if g is not None), 16))


def _group(src: str, i: int) -> tuple[_Read, int]:
    """Read the group at ``src[i] == "("`` (a lookaround matches no text) and the index after its ``)``."""
    look = src.startswith(("(?=", "(?!", "(?<=", "(?<!"), i)
    if src.startswith(("(?:", "(?>", "(?=", "(?!"), i):
        start = i + 3
    elif src.startswith(("(?<=", "(?<!"), i):
        start = i + 4
    elif src.startswith("(?P<", i):
        start = src.index(">", i) + 1
    elif src.startswith("(?", i):
        raise _Unknown
    else:
        start = i + 1
    got, j = _alternation(src, start)
    if j >= len(src) or src[j] != ")":
        raise _Unknown
    return (_ZERO if look else got), j + 1


def _skip_escape(src: str, i: int) -> int:
    """The index after a letter escape: a class, an assertion or a named property or character
    (any other, such as a back-reference, an octal code or a named list, is not read)."""
    if src[i + 1] in "pPN" and i + 2 < len(src) and src[i + 2] == "{":
        return src.index("}", i) + 1
    if src[i + 1] not in "bBdDwWsSAZzGmM":
        raise _Unknown
    return i + 2


def _skip_class(src: str, i: int) -> int:
    """The index after the character class opening at ``src[i] == "["``."""
    j = i + 1
    if j < len(src) and src[j] == "^":
        j += 1
    if j < len(src) and src[j] == "]":
        j += 1
    while j < len(src):
        if src[j] == "\\":
            j += 2
            continue
        if src[j] == "[":
            raise _Unknown  # a nested set (regex VERSION1) or a POSIX class
        if src[j] == "]":
            return j + 1
        j += 1
    raise _Unknown


def _skip_quantifier(src: str, i: int) -> int:
    if src[i] == "{":
        close = src.find("}", i)
        if close < 0 or not regex.fullmatch(r"\d*(?:,\d*)?", src[i + 1:close]):
            raise _Unknown
        i = close + 1
    else:
        i += 1
    while i < len(src) and src[i] in "?+":
        i += 1  # lazy or possessive
    return i


def never_spans_line(source: str) -> bool:
    """Can no match of ``source`` hold a line break, nor any assertion in it tell a line break
    from the end of the text? Then a search of each line alone (bounded at the line's ends)
    finds exactly what a search of the whole text finds on that line."""
    if _FLAG_GROUP.search(source):
        return False
    rest = _HEX_ESCAPE.sub(lambda m: "" if _hex_char(m).isprintable() else m.group(0), source)  # not a break: safe
    rest = _LINE_SAFE_ESCAPE.sub("", rest)
    return not _LINE_UNSAFE.search(rest)


_DEFAULT_FLAGS = regex.compile("").flags


class _Occurrences:
    """Where the literals of several gates occur in a text: one Aho-Corasick pass (pyahocorasick)
    finds every occurrence of every literal, kept per slot for the last few texts seen (by
    identity: the engine searches one memo's text many times).

    A *need* slot holds a gate's required literals, which are minimal (none contains another), so
    an occurrence that starts later also ends later: the first occurrence at or after ``start`` is
    the one that ends first, and ``text[start:end]`` holds a literal exactly when it ends by ``end``.
    A *start* slot holds the strings a gate's matches start with: its starts are where a match can
    start, sorted and each once (its ends are not kept)."""

    TEXTS = 4  # texts kept: the memo's, and the short discussion texts searched between its searches

    def __init__(self, literal_sets: list[frozenset[str]], starts_only: list[bool]) -> None:
        owners: dict[str, list[int]] = {}
        for slot, literals in enumerate(literal_sets):
            for literal in literals:
                owners.setdefault(literal, []).append(slot)
        self._starts_only = starts_only
        self._automaton = ahocorasick.Automaton()
        for literal, slots in owners.items():
            self._automaton.add_word(literal, (len(literal), tuple(slots)))
        self._automaton.make_automaton()
        self._seen: OrderedDict[int, tuple[str, list[tuple[list[int], list[int]]]]] = OrderedDict()

    def of(self, text: str, slot: int) -> tuple[list[int], list[int]]:
        """Sorted starts and ends of the occurrences in ``text`` of slot ``slot``'s literals."""
        got = self._seen.get(id(text))
        if got is None or got[0] is not text:
            got = (text, self._scan(text))
            self._seen[id(text)] = got  # the text is held, so its id is not reused while kept
            if len(self._seen) > self.TEXTS:
                self._seen.popitem(last=False)
        else:
            self._seen.move_to_end(id(text))
        return got[1][slot]

    def _scan(self, text: str) -> list[tuple[list[int], list[int]]]:
        found: list[tuple[list[int], list[int]]] = [([], []) for _ in self._starts_only]
        for last, (length, slots) in self._automaton.iter(text):
            for slot in slots:
                starts, ends = found[slot]
                starts.append(last + 1 - length)
                ends.append(last + 1)
        for slot, only in enumerate(self._starts_only):
            if only:
                found[slot] = (sorted(set(found[slot][0])), [])
        return found


MIN_INDEXED = 2  # a set holding a one-character string ("i") occurs everywhere: found with str.find, not indexed
MATCH_CALL_CHARS = 32  # a match tried at one place costs about as much as scanning this many characters


class Gated:
    """A compiled pattern searched only where it can match: the same matches as the pattern's
    own ``finditer``/``search`` over ``text[start:end]``. Where every match starts with one of a
    few strings (:func:`required_prefix`), the pattern is tried only where they occur (when they
    are few); else it is searched where one of its required literals occurs. Gates made together
    by :func:`gate_patterns` find their literals in one pass over a text."""

    __slots__ = ("pattern", "literals", "by_line", "_minimal", "_prefixes", "_occurrences", "_slot", "_start_slot")

    def __init__(self, pattern: regex.Pattern) -> None:
        self.pattern = pattern
        plain = pattern.flags == _DEFAULT_FLAGS
        need = required_any(pattern.pattern) if plain else None
        self.literals = tuple(sorted(need, key=lambda x: (-len(x), x))) if need else None
        self.by_line = bool(need) and never_spans_line(pattern.pattern)
        self._minimal = _minimal(need) if need else None  # as good a gate, and what _Occurrences needs
        self._prefixes = required_prefix(pattern.pattern) if plain else None
        self._occurrences: _Occurrences | None = None
        self._slot: int | None = None
        self._start_slot: int | None = None
        _share([self])

    def possible(self, text: str, start: int, end: int) -> bool:
        """Could the pattern match inside ``text[start:end]``?"""
        if self.literals is None:
            return True
        if start < 0 or end < 0 or self._occurrences is None or self._slot is None:
            return self._possible_by_find(text, start, end)
        starts, ends = self._occurrences.of(text, self._slot)
        i = bisect.bisect_left(starts, start)
        return i < len(starts) and ends[i] <= end

    def _possible_by_find(self, text: str, start: int, end: int) -> bool:
        find = text.find
        for literal in self.literals or ():
            if find(literal, start, end) >= 0:
                return True
        return False

    def _match_starts(self, text: str, start: int, end: int) -> list[int] | None:
        """Where a match in ``text[start:end]`` can start, or None when they are too many to try one by one."""
        if self._start_slot is None or self._occurrences is None or start < 0 or end < 0:
            return None
        starts = self._occurrences.of(text, self._start_slot)[0]
        i, j = bisect.bisect_left(starts, start), bisect.bisect_left(starts, end)
        return starts[i:j] if (j - i) * MATCH_CALL_CHARS <= end - start else None

    def _tried(self, text: str, places: list[int], end: int) -> Iterator[regex.Match]:
        """``finditer`` over ``text[..:end]`` when its matches can start only at ``places``: the
        pattern tried at each place not inside the previous match (it sees the text before the
        place, as ``finditer`` does; no match is empty, as each starts with a non-empty string)."""
        match, after = self.pattern.match, 0
        for place in places:
            if place >= after:
                m = match(text, place, end)
                if m is not None:
                    yield m
                    after = m.end()

    def search(self, text: str, start: int = 0, end: int | None = None) -> regex.Match | None:
        """The first match of ``search(text, start, end)``."""
        places = self._match_starts(text, start, len(text) if end is None else end)
        if places is not None or self.by_line:
            return next(self.finditer(text, start, end), None)
        end = len(text) if end is None else end
        return self.pattern.search(text, start, end) if self.possible(text, start, end) else None

    def count(self, text: str) -> int:
        """How many matches ``finditer(text)`` finds (``len(pattern.findall(text))``), without a
        generator where the places a match can start are few enough to try each."""
        end = len(text)
        places = self._match_starts(text, 0, end)
        if places is None:
            return sum(1 for _ in self.finditer(text))
        found, after, match = 0, 0, self.pattern.match
        for place in places:
            if place >= after:
                m = match(text, place, end)
                if m is not None:
                    found += 1
                    after = m.end()
        return found

    def finditer(self, text: str, start: int = 0, end: int | None = None) -> Iterator[regex.Match]:
        """The matches of ``finditer(text, start, end)``, in order; a pattern that never spans a
        line is searched on the lines holding a literal only."""
        end = len(text) if end is None else min(end, len(text))
        places = self._match_starts(text, start, end)
        if places is not None:
            yield from self._tried(text, places, end)
            return
        if not self.by_line:
            if self.possible(text, start, end):
                yield from self.pattern.finditer(text, start, end)
            return
        if start < 0 or end < 0 or self._occurrences is None or self._slot is None:
            yield from self._lines_by_find(text, start, end)
            return
        starts, ends = self._occurrences.of(text, self._slot)
        i = bisect.bisect_left(starts, start)
        while i < len(starts) and ends[i] <= end:
            # the line (bounded by start and end) holding this occurrence: a literal holds no line break
            line_start = max(start, text.rfind("\n", start, starts[i]) + 1)
            nl = text.find("\n", ends[i], end)
            stop = end if nl < 0 else nl
            yield from self.pattern.finditer(text, line_start, stop)
            if nl < 0:
                return
            i = bisect.bisect_left(starts, nl + 1, i)

    def _lines_by_find(self, text: str, start: int, end: int) -> Iterator[regex.Match]:
        while start <= end:
            nl = text.find("\n", start, end)
            stop = end if nl < 0 else nl
            if self._possible_by_find(text, start, stop):
                yield from self.pattern.finditer(text, start, stop)
            if nl < 0:
                return
            start = nl + 1


def _share(gates: list[Gated]) -> None:
    """Give ``gates`` one automaton over all their literals and match starts."""
    sets: list[frozenset[str]] = []
    starts_only: list[bool] = []
    for gate in gates:
        gate._slot = gate._start_slot = None
        if gate._minimal and min(map(len, gate._minimal)) >= MIN_INDEXED:
            gate._slot = len(sets)
            sets.append(gate._minimal)
            starts_only.append(False)
        if gate._prefixes and min(map(len, gate._prefixes)) >= MIN_INDEXED:
            gate._start_slot = len(sets)
            sets.append(gate._prefixes)
            starts_only.append(True)
    occurrences = _Occurrences(sets, starts_only) if sets else None
    for gate in gates:
        gate._occurrences = occurrences


def gate_patterns(patterns: Mapping[str, regex.Pattern]) -> dict[str, Gated]:
    """A :class:`Gated` for each pattern, all finding their literals in one pass over a text."""
    gates = {name: Gated(p) for name, p in patterns.items()}
    _share(list(gates.values()))
    return gates
