"""The phrase syntax of key format v2, and citation forms.

A *phrase* is one or more *parts* joined by `` + ``; each part is a plain term compiled by
:func:`lae.match.terms.term_regex`. A phrase matches a sentence (or a table row) when every
part occurs in it, in any order. No regular expressions and no ``|`` are accepted from
authors: alternatives are separate phrases.

A *citation* is written once in a canonical form (``Cal. Bus. & Prof. Code § 16600.5``,
``29 U.S.C. § 2102``, ``15 C.F.R. § 734.13``); :func:`citation_forms` gives the forms a memo
uses for it, each a plain term: the section number alone when it is distinctive
(``16600.5``, ``734.13``, ``2102``), else ``§ N``/``section N`` and the code's short forms.
"""

from __future__ import annotations

import functools

import regex

from lae.match.normalize import normalize_term

__all__ = ["PHRASE_JOINER", "split_phrase", "phrase_problem", "is_generic_phrase", "citation_forms", "GENERIC_WORDS",
           "initialism"]

PHRASE_JOINER = " + "

# Words that say "something is wrong" without saying what: a problem phrase made only of these
# (and function words) would credit any memo that names the subject beside risk language.
GENERIC_WORDS: frozenset[str] = frozenset(
    "risk risks risky issue issues concern concerns concerning problem problems problematic exposure exposures "
    "exposed liability liabilities liable significant serious material major potential potentially legal "
    "compliance high critical important key red flag flags violation violations violate violates breach "
    "breaches illegal unlawful noncompliance noncompliant non-compliance non-compliant improper inappropriate "
    "wrong defect defects deficiency deficient flaw gap gaps weakness penalty penalties fine fines sanction "
    "sanctions enforcement litigation lawsuit claim claims damages regulatory problematic adverse danger "
    "dangerous trouble vulnerable vulnerability".split()
)
_FUNCTION = frozenset("a an the of to in on at by for with from as is are was were be been being this that it "
                      "its and or could may might can would will has have had there".split())


@functools.lru_cache(maxsize=16384)
def _split(phrase: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in regex.split(r"(?:^|\s)\+(?:\s|$)", phrase.strip()))


def split_phrase(phrase: str) -> list[str]:
    """The parts of a phrase (whitespace around ``+`` tolerated; empty parts kept for the check)."""
    return list(_split(phrase))


def phrase_problem(phrase: str) -> str | None:
    """Why ``phrase`` is not a valid phrase, or None."""
    if "|" in phrase:
        return "`|` is not phrase syntax (list each alternative as its own phrase)"
    parts = split_phrase(phrase)
    if any(not p for p in parts):
        return "a `+` needs a term on each side (write `part + part`)"
    if len(parts) > 6:
        return "more than 6 parts (a phrase should read as one short claim)"
    for p in parts:
        if not regex.search(r"[\p{L}\p{N}]", p):
            return f"part {p!r} has no letters or digits"
        if p.startswith("+") or p.endswith("+"):
            return f"part {p!r} has a stray `+` (write `part + part` with spaces)"
    return None


@functools.lru_cache(maxsize=8192)
def is_generic_phrase(phrase: str) -> bool:
    """True when every word of every part is generic risk language or a function word."""
    words = regex.findall(r"[\p{L}\p{N}-]+", normalize_term(phrase.replace(" + ", " ")))
    return bool(words) and all(w in GENERIC_WORDS or w in _FUNCTION for w in words)


# Canonical citation: optional title number, a code name, optional §, the section number.
_SECTION_NUMBER = regex.compile(r"(\d+[A-Za-z]?(?:[.-]\d+[A-Za-z]?)*)((?:\([A-Za-z0-9]{1,4}\))*)\s*$")
_SHORT_CODES = {
    "u.s.c.": ("U.S.C.", "USC"),
    "c.f.r.": ("C.F.R.", "CFR"),
}


def _distinctive(number: str) -> bool:
    """A bare section number that cannot be mistaken for a count, a year or a list number."""
    if regex.fullmatch(r"\d{4}", number) and 1900 <= int(number) <= 2100:
        return False
    return bool(regex.search(r"[.\-]|[A-Za-z]", number)) or len(number) >= 4


def citation_forms(citation: str) -> list[str]:
    """Plain-term forms a memo uses for ``citation`` (the canonical form first)."""
    text = " ".join(citation.split())
    forms = [text]
    m = _SECTION_NUMBER.search(text)
    if not m:
        return forms
    number = m.group(1)
    head = text[: m.start()].rstrip(" §").strip()
    forms += [f"§ {number}", f"section {number}"]
    if _distinctive(number):
        forms.append(number)
    title = regex.match(r"(\d+)\s+(.*)$", head)
    if title:
        code = title.group(2).strip().lower()
        for short in _SHORT_CODES.get(code, ()):
            forms.append(f"{title.group(1)} {short} {number}")
            forms.append(f"{title.group(1)} {short} § {number}")
    return list(dict.fromkeys(forms))


# Initials that spell a common word or a usual abbreviation of something else are no alias: a courtesy title
# ("Ms. Siddiqui", "Dr. Nasser") is in every memo that names a person ("Marwa Siddiqui" is no "MS").
_INITIALISM_STOP = frozenset("an as at be by do go he if in is it me my no of on or so to up us we am pm id ok tv hr "
                             "ai ip pr qa vp ceo cfo coo cto gc llc inc ltd usa eu uk "
                             "mr ms mrs dr mx st jr sr".split())
_MINOR_WORDS = frozenset("of the and for & de du la a an in on at to".split())
_NAME_WORD = regex.compile(r"\p{Lu}\p{Ll}")  # a capitalised word, not an acronym ("NY WARN" has initials already)
_MONTHS = frozenset("january february march april may june july august september october november december".split())


def initialism(phrase: str) -> str | None:
    """The initials a memo abbreviates a multi-word name to ("Harlow Falls" -> "HF", "Special
    Committee" -> "SC", "Key Holders" -> "KH"), or None: the phrase is one part of two to five
    capitalised words (minor words skipped; no acronym, no month), and the initials are no common
    word."""
    if PHRASE_JOINER in phrase:
        return None
    words = [w for w in regex.findall(r"[\p{L}][\p{L}'-]*", phrase) if w.lower() not in _MINOR_WORDS]
    if not 2 <= len(words) <= 5 or not all(_NAME_WORD.match(w) and w.lower() not in _MONTHS for w in words):
        return None
    got = "".join(w[0] for w in words).upper()
    return None if got.lower() in _INITIALISM_STOP else got
