"""Compile a plain key term into a tolerant regular-expression pattern.

Patterns run over text normalized by :func:`lae.match.normalize.normalize` (case-
folded, quotes and dashes unified, single spaces). Tolerated variants:

* hyphen / space / no space at hyphens and after common prefixes (non-compete,
  noncompete, non compete);
* simple inflection of each word (-s, -es, -ed, -ing, -'s, y→ies/ied, e-drop, doubled
  final consonant);
* money ($58,000 / $58K / 58,000 dollars / $58 thousand; $1.2 million / $1,200,000 / $1.2M);
* percentages (20% / 20 percent / 20 per cent);
* sections (Section 4.2 / § 4.2 / Sec. 4.2 / §4.2; a subsection number also bare, 4.2, where it
  is not part of an amount, a percentage or a measure);
* dates (March 3, 2025 / 3 March 2025 / 2025-03-03 / 3/3/2025 / Mar. 3, 2025), also without
  the year (March 3 / 3/3) unless another year follows, and month-year forms;
* a note's shorthand for common words of legal writing (``SHORTHAND``: "bd resos" for
  "board resolutions", "mgmt", "agmt", "w/o");
* digit grouping (1,200 / 1200).

No generated pattern can match a line break, so no match crosses a paragraph.
Patterns contain no nested quantifiers (no catastrophic backtracking); the grader
still runs every match with a timeout.
"""

from __future__ import annotations

import datetime as _dt
import functools
from decimal import Decimal, InvalidOperation

import regex

from lae.errors import CompileError, Problem
from lae.match.normalize import normalize_term

__all__ = ["compile_term", "compiled_pattern", "term_regex", "required_literals", "PREFIXES"]

PREFIXES = ("non", "anti", "pre", "post", "re", "co", "sub", "over", "under", "cross", "multi", "self",
            "counter", "inter", "intra", "semi", "mis", "out", "cyber")

_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december"]
_MONTH_ABBR = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

_MONTH_NAME = r"(?:" + "|".join(_MONTHS + [a + r"\.?" for a in _MONTH_ABBR] + [r"sept\.?"]) + r")"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"

# Atoms are recognized before word-by-word compilation, longest forms first.
_ATOM_RE = regex.compile(
    r"(?P<money>(?:\$ ?(?:" + _NUM + r")(?: ?(?:k|m|mm|bn|b|thousand|million|billion)\b)?)"
    r"|(?:(?:" + _NUM + r") ?(?:thousand |million |billion )?(?:dollars|usd)\b)"
    r"|(?:usd ?(?:" + _NUM + r")(?: ?(?:k|m|thousand|million|billion)\b)?))"
    r"|(?P<percent>(?:" + _NUM + r") ?(?:%|percent\b|per cent\b))"
    r"|(?P<section>(?:sections?|secs?\.?|§{1,2}) ?\d+[a-z]?(?:\.\d+[a-z]?)*(?:\([a-z0-9]{1,4}\))*)"
    r"|(?P<date>" + _MONTH_NAME + r" \d{1,2}(?:st|nd|rd|th)?,? \d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)? (?:of )?" + _MONTH_NAME + r",? \d{4}"
    r"|\d{4}-\d{2}-\d{2}"
    r"|\d{1,2}/\d{1,2}/\d{4})"
    r"|(?P<monthyear>\b(?:" + "|".join(_MONTHS) + r"),? \d{4}\b)"
    r"|(?P<number>\b\d{1,3}(?:,\d{3})+\b|\b\d{4,}\b)"
)

_SUFFIXES = {"k": 3, "thousand": 3, "m": 6, "mm": 6, "million": 6, "b": 9, "bn": 9, "billion": 9}


def _grouped(digits: str) -> str:
    """Digits with optional thousands separators: 58000 -> 58,?000."""
    head_len = len(digits) % 3 or 3
    parts = [digits[:head_len]] + [digits[i:i + 3] for i in range(head_len, len(digits), 3)]
    return ",?".join(parts)


def _decimal_pattern(value: Decimal) -> str:
    """A pattern for a decimal number, allowing trailing zeros after the point."""
    text = format(value.normalize(), "f")
    if "." in text:
        whole, frac = text.split(".")
        return _grouped(whole) + r"\." + frac + r"0*(?![\d])"
    return _grouped(text) + r"(?:\.0+)?(?!,?\d)"


def _money_pattern(atom: str) -> str:
    num = regex.search(_NUM, atom)
    assert num is not None
    try:
        value = Decimal(num.group(0).replace(",", ""))
    except InvalidOperation as exc:  # pragma: no cover - regex guarantees digits
        raise ValueError(atom) from exc
    suffix = regex.search(r"(k|mm|m|bn|b|thousand|million|billion)\b", atom[num.end():])
    if suffix:
        value *= Decimal(10) ** _SUFFIXES[suffix.group(1)]
    forms = [
        r"\$ ?" + _decimal_pattern(value),
        r"usd ?" + _decimal_pattern(value),
        _decimal_pattern(value) + r" ?(?:dollars|usd)",
    ]
    for exponent, words in ((3, r"(?: ?k\b| thousand)"), (6, r"(?: ?m\b| ?mm\b| million)"),
                            (9, r"(?: ?bn?\b| billion)")):
        scaled = value / (Decimal(10) ** exponent)
        if scaled >= 1 and scaled == scaled.quantize(Decimal("0.01")):
            forms.append(r"\$ ?" + _decimal_pattern(scaled) + words)
            forms.append(_decimal_pattern(scaled) + words + r" (?:dollars|usd)")
    return "(?:" + "|".join(forms) + ")"


def _percent_pattern(atom: str) -> str:
    num = regex.search(_NUM, atom)
    assert num is not None
    value = Decimal(num.group(0).replace(",", ""))
    return "(?:" + _decimal_pattern(value) + r" ?(?:%|percent\b|per cent\b|per-cent\b))"


_NOT_A_QUANTITY = (r"(?! ?(?:%|percent\b|per ?cent\b|x\b|times\b|million\b|billion\b|bn\b|m\b|k\b|mm\b|"
                   r"hours?\b|hrs?\b|days?\b|weeks?\b|months?\b|years?\b|miles?\b|km\b|kg\b|lbs?\b|points?\b|"
                   r"pts?\b|bps\b|shares?\b|sh\b|per\b))")


def _section_pattern(atom: str) -> str:
    m = regex.search(r"\d", atom)
    assert m is not None
    number = atom[m.start():]
    body = regex.escape(number).replace(r"\(", r" ?\(")
    # "s.4.3" and "ss. 3-4" as notes and English drafting write them (not the "S." of "U.S.")
    prefixed = r"(?:sections?|secs?\.?|(?<!u\.)ss?\.|§{1,2}) ?" + body + r"(?![\d.]\d)"
    if not regex.match(r"\d+[a-z]?\.\d", number):
        return prefixed
    # a subsection number stands alone in a note or a table ("3.4 has to go", "SHA 6.2 needs ..."):
    # not inside another number, an amount, a percentage, a multiple or a measure
    return r"(?:" + prefixed + r"|(?<![\p{L}\p{N}$€£.,/:-])" + body + r"(?![\d.]\d)" + _NOT_A_QUANTITY + r")"


def _month_alternatives(month: int) -> str:
    name = _MONTHS[month - 1]
    abbr = _MONTH_ABBR[month - 1]
    alts = [name, abbr + r"\.?"]
    if month == 9:
        alts.append(r"sept\.?")
    return "(?:" + "|".join(dict.fromkeys(alts)) + ")"


def _parse_date(atom: str) -> _dt.date:
    atom = atom.replace(",", "")
    m = regex.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", atom)
    if m:
        return _dt.date(int(m[1]), int(m[2]), int(m[3]))
    m = regex.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", atom)
    if m:  # US order: month/day/year
        return _dt.date(int(m[3]), int(m[1]), int(m[2]))
    words = atom.replace(".", "").replace(" of ", " ").split()
    month = day = year = None
    for w in words:
        w2 = regex.sub(r"(st|nd|rd|th)$", "", w) if w[0].isdigit() else w
        if w2.isdigit():
            if len(w2) == 4:
                year = int(w2)
            else:
                day = int(w2)
        else:
            key = w2[:3]
            if key in _MONTH_ABBR:
                month = _MONTH_ABBR.index(key) + 1
    if month is None or day is None or year is None:
        raise ValueError(f"not a date: {atom!r}")
    return _dt.date(year, month, day)


def _date_pattern(atom: str) -> str:
    """A date in its written forms; the year may be left out (a matter's dates fall within a
    year or so of each other), but not replaced by another year."""
    date = _parse_date(atom)
    mon = _month_alternatives(date.month)
    day = r"0?" + str(date.day) if date.day < 10 else str(date.day)
    ordinal = r"(?:st|nd|rd|th)?"
    year = rf"(?:,? {date.year}(?!\d)|(?!,? ?\d))"
    forms = [
        rf"{mon} {day}{ordinal}{year}",
        rf"{day}{ordinal} (?:of )?{mon}{year}",
        rf"{date.year}-{date.month:02d}-{date.day:02d}",
        rf"(?<![\d/.])0?{date.month}/{day}(?:/(?:{date.year}|{date.year % 100:02d})\b|(?![/\d]))",
    ]
    return "(?:" + "|".join(forms) + ")"


def _monthyear_pattern(atom: str) -> str:
    name, year = atom.replace(",", "").split()
    month = _MONTHS.index(name) + 1
    return rf"{_month_alternatives(month)},? {year}"


def _inflect(word: str) -> str:
    """Pattern for one lower-case word with simple inflection."""
    if not word.isalpha() or len(word) < 3:
        return regex.escape(word)
    vowels = "aeiou"
    if word.endswith("y") and word[-2] not in vowels:
        return regex.escape(word[:-1]) + r"(?:y|ies|ied|ying|y's)"
    if word.endswith("e"):
        return regex.escape(word[:-1]) + r"(?:e|es|ed|ing|e's|er|ers)"
    if word.endswith("ed") and len(word) >= 6:
        # a past-tense term also matches the other forms: "placed" ~ "placing", "walked" ~ "walks"
        return "(?:" + regex.escape(word) + "|" + _inflect(word[:-1]) + "|" + _inflect(word[:-2]) + ")"
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) >= 4:
        # a plural term also matches its singular: "24 months" ~ "24-month"
        return "(?:" + regex.escape(word) + "'?|" + _inflect(word[:-1]) + ")"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return regex.escape(word) + r"(?:es|ed|ing|'s|')?"
    double = ""
    if word[-1] not in vowels + "wy" and word[-2] in vowels and (len(word) < 3 or word[-3] not in vowels):
        double = "|" + regex.escape(word[-1]) + r"(?:ed|ing|er)"
    return regex.escape(word) + r"(?:s|es|ed|ing|'s|s'|er|ers" + double + r")?"


# Shorthand a busy writer uses for common words of legal writing, each matched beside the word.
SHORTHAND: dict[str, tuple[str, ...]] = {
    "agreement": ("agmt", "agrmt"), "approximately": ("approx",), "board": ("bd",), "committee": ("cttee", "cmte"),
    "company": ("co",), "corporation": ("corp",), "department": ("dept",), "director": ("dir",),
    "directors": ("dirs",), "document": ("doc",), "documents": ("docs",), "employee": ("ee",), "employees": ("ees",),
    "government": ("govt",), "independent": ("indep",), "information": ("info",), "license": ("lic",),
    "licence": ("lic",), "management": ("mgmt", "mgt"), "number": ("no",), "requirement": ("req't", "reqt", "reqmt"),
    "representation": ("rep",), "representations": ("reps",), "resolution": ("reso", "res"),
    "resolutions": ("resos", "res"), "stockholder": ("s/h",), "stockholders": ("s/hs", "s/h"),
    "shareholder": ("s/h",), "shareholders": ("s/hs", "s/h"), "transaction": ("txn",), "without": ("w/o",),
    "because": ("b/c",),
}


_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()


def _number_words() -> dict[str, str]:
    """Cardinal numbers 0-99 both ways: "90" <-> "ninety", "45" <-> "forty-five"."""
    spelled = dict(enumerate(_UNITS))
    for t, tens in enumerate(_TENS, start=2):
        spelled[10 * t] = tens
        spelled.update({10 * t + u: f"{tens}-{_UNITS[u]}" for u in range(1, 10)})
    return {**{str(n): w for n, w in spelled.items()}, **{w: str(n) for n, w in spelled.items()}}


# A number a writer spells out, or writes in digits, matched either way ("ninety days" for "90 days").
NUMBER_WORDS: dict[str, str] = _number_words()


def _word_pattern(word: str) -> str:
    other = NUMBER_WORDS.get(word)
    if other:
        spelled = r"[ -]?".join(regex.escape(w) for w in other.split("-"))
        # "ninety" is not the start of "ninety-five"
        whole = r"(?![\p{L}\p{N}]|[ -](?:" + "|".join(_UNITS[1:10]) + r")\b)"
        return "(?:(?:" + _prefixed(word) + "|" + spelled + ")" + whole + ")"
    short = SHORTHAND.get(word)
    if short:
        return "(?:" + "|".join([_prefixed(word), *(regex.escape(w) for w in short)]) + ")"
    return _prefixed(word)


def _prefixed(word: str) -> str:
    for prefix in PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 4 and word.isalpha():
            return regex.escape(prefix) + r"[ -]?" + _inflect(word[len(prefix):])
    return _inflect(word)


def _plain_pattern(text: str) -> str:
    """Word-by-word pattern for text containing no atom."""
    out: list[str] = []
    for piece in regex.findall(r"[\p{L}\p{N}]+|\s+|.", text):
        if piece[0].isspace():
            out.append(r"[ -]")
        elif regex.match(r"[\p{L}\p{N}]", piece):
            out.append(_word_pattern(piece))
        elif piece == "-":
            out.append(r"[ -]?")
        elif piece in "'\"":
            out.append(r"['\"]?")
        elif piece == ".":
            out.append(r"\.?")
        elif piece == "(":
            out.append(r" ?\(")
        elif piece in ",;:":
            out.append(regex.escape(piece) + "?")
        else:
            out.append(regex.escape(piece))
    # "x -y" style joins: an optional separator next to a required one is redundant
    return "".join(out).replace(r"[ -][ -]?", r"[ -]").replace(r"[ -]?[ -]", r"[ -]")


@functools.lru_cache(maxsize=16384)
def term_regex(term: str) -> str:
    """The pattern for one term (over normalized text). Raises ``ValueError`` if empty."""
    text = normalize_term(term)
    if not regex.search(r"[\p{L}\p{N}]", text):
        raise ValueError("term has no letters or digits")
    parts: list[str] = []
    pos = 0
    for m in _ATOM_RE.finditer(text):
        parts.append(_plain_pattern(text[pos:m.start()]))
        kind = m.lastgroup
        atom = m.group(0)
        if kind == "money":
            parts.append(_money_pattern(atom))
        elif kind == "percent":
            parts.append(_percent_pattern(atom))
        elif kind == "section":
            parts.append(_section_pattern(atom))
        elif kind == "date":
            try:
                parts.append(_date_pattern(atom))
            except ValueError:
                parts.append(_plain_pattern(atom))
        elif kind == "monthyear":
            parts.append(_monthyear_pattern(atom))
        else:  # number
            parts.append(_grouped(atom.replace(",", "")) + r"(?!,?\d)")
        pos = m.end()
    parts.append(_plain_pattern(text[pos:]))
    body = "".join(parts)
    left = r"(?<![\p{L}\p{N}])" if regex.match(r"[\p{L}\p{N}]", text) else ""
    right = r"(?![\p{L}\p{N}])" if regex.search(r"[\p{L}\p{N}]$", text) else ""
    return left + "(?:" + body + ")" + right


@functools.lru_cache(maxsize=16384)
def compiled_pattern(pattern: str) -> regex.Pattern:
    """The compiled form of a generated pattern, compiled once per process (the
    compiler's validity check and the grader's matching share this cache)."""
    return regex.compile(pattern)


def compile_term(term: str, *, where: str, field: str) -> str:
    """Compile a term, turning failure into a located :class:`CompileError`."""
    try:
        pattern = term_regex(term)
        compiled_pattern(pattern)
    except (ValueError, regex.error) as exc:
        raise CompileError(f"cannot compile term {term!r}",
                           [Problem(where, f"term {term!r} does not compile: {exc}", field=field,
                                    mend="write the term as plain words")]) from exc
    return pattern


# -- literals every match contains, for the token prefilter (lae.match.prefilter) -------------
# Each function below mirrors the generator above: what it returns is a run of letters or of
# digits that every string the generated pattern matches contains inside one token (a run of
# letters and digits). tests/match/test_prefilter.py holds them to the patterns.


def _kept(word: str) -> str:
    """The prefix of one lower-case word that every form :func:`_inflect` allows keeps."""
    if not word.isalpha() or len(word) < 3:
        return word
    if word.endswith("y") and word[-2] not in "aeiou" or word.endswith("e"):
        return word[:-1]
    if word.endswith("ed") and len(word) >= 6:
        return min(word, _kept(word[:-1]), _kept(word[:-2]), key=len)
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) >= 4:
        return min(word, _kept(word[:-1]), key=len)
    return word


def _word_literals(word: str) -> list[str]:
    """Literals of one word of a term, as :func:`_word_pattern` compiles it."""
    if word in NUMBER_WORDS:  # digits or letters: nothing in common
        return []
    short = SHORTHAND.get(word)
    if short:  # a run every form starts with, inside one token
        head = _common_prefix([_prefixed_literals(word)[0], *(regex.match(r"[\p{L}\p{N}]*", w).group(0) for w in short)])
        return [head] if head else []
    return _prefixed_literals(word)


def _prefixed_literals(word: str) -> list[str]:
    for prefix in PREFIXES:
        if word.startswith(prefix) and len(word) - len(prefix) >= 4 and word.isalpha():
            return [prefix, _kept(word[len(prefix):])]
    return [_kept(word)]


def _head(value: Decimal) -> str:
    """The leading digits :func:`_decimal_pattern` writes without an optional separator."""
    whole = format(value.normalize(), "f").split(".")[0]
    return whole[:len(whole) % 3 or 3]


def _money_values(atom: str) -> list[Decimal]:
    """The value and every scaled value :func:`_money_pattern` writes a form for."""
    num = regex.search(_NUM, atom)
    assert num is not None
    value = Decimal(num.group(0).replace(",", ""))
    suffix = regex.search(r"(k|mm|m|bn|b|thousand|million|billion)\b", atom[num.end():])
    if suffix:
        value *= Decimal(10) ** _SUFFIXES[suffix.group(1)]
    out = [value]
    for exponent in (3, 6, 9):
        scaled = value / (Decimal(10) ** exponent)
        if scaled >= 1 and scaled == scaled.quantize(Decimal("0.01")):
            out.append(scaled)
    return out


def _common_prefix(texts: list[str]) -> str:
    first, last = min(texts), max(texts)
    n = 0
    while n < min(len(first), len(last)) and first[n] == last[n]:
        n += 1
    return first[:n]


def _atom_literals(kind: str | None, atom: str) -> list[str]:
    """Literals of one atom, as :func:`term_regex` compiles it."""
    if kind == "money":
        return [_common_prefix([_head(v) for v in _money_values(atom)])]
    if kind == "percent":
        num = regex.search(_NUM, atom)
        assert num is not None
        return [_head(Decimal(num.group(0).replace(",", "")))]
    if kind == "section":
        m = regex.search(r"\d", atom)
        assert m is not None
        return regex.findall(r"\p{L}+|\p{N}+", atom[m.start():])
    if kind == "date":
        try:
            date = _parse_date(atom)
        except ValueError:  # compiled word by word
            return [x for w in regex.findall(r"\p{L}+|\p{N}+", atom) for x in _word_literals(w)]
        return [str(date.day)]
    if kind == "monthyear":
        name, year = atom.replace(",", "").split()
        return [year, _MONTH_ABBR[_MONTHS.index(name)]]
    return [_grouped(atom.replace(",", "")).split(",?")[0]]  # number


@functools.lru_cache(maxsize=16384)
def required_literals(term: str) -> tuple[str, ...]:
    """Runs of letters or digits every match of ``term``'s pattern contains, each inside one
    token of the matched text, longest first (empty if none is known)."""
    text = normalize_term(term)
    found: list[str] = []
    pos = 0
    for m in _ATOM_RE.finditer(text):
        found += [x for w in regex.findall(r"\p{L}+|\p{N}+", text[pos:m.start()]) for x in _word_literals(w)]
        found += _atom_literals(m.lastgroup, m.group(0))
        pos = m.end()
    found += [x for w in regex.findall(r"\p{L}+|\p{N}+", text[pos:]) for x in _word_literals(w)]
    return tuple(sorted({x for x in found if x}, key=lambda x: (-len(x), x)))
