"""Quote masking: the agent earns nothing for repeating the documents.

Any run of ``min_tokens`` or more consecutive tokens of the deliverable that also
occurs, after the same normalization as matching, in a source document is masked
before any matcher runs. The index is built once per task and reused.
"""

from __future__ import annotations

from typing import Iterable

from lae.match.normalize import TOKEN_RE, NormalizedText, normalize

__all__ = ["SourceIndex"]


class SourceIndex:
    """The set of all ``min_tokens``-grams of a task's documents."""

    def __init__(self, texts: Iterable[str], min_tokens: int = 8) -> None:
        if min_tokens < 3:
            raise ValueError("min_tokens must be at least 3")
        self.min_tokens = min_tokens
        grams: set[tuple[str, ...]] = set()
        count = 0
        for text in texts:
            count += 1
            tokens = TOKEN_RE.findall(normalize(text).text)
            for i in range(len(tokens) - min_tokens + 1):
                grams.add(tuple(tokens[i:i + min_tokens]))
        self._grams = grams
        self._vocabulary = {token for gram in grams for token in gram}
        self.documents = count

    def __len__(self) -> int:
        return len(self._grams)

    def mask(self, norm: NormalizedText) -> list[tuple[int, int]]:
        """Spans (normalized offsets) of ``norm`` that repeat a source run verbatim."""
        n = self.min_tokens
        matches = list(TOKEN_RE.finditer(norm.text))
        tokens = [m.group(0) for m in matches]
        covered_until = -1
        spans: list[tuple[int, int]] = []
        for i in self._candidates(tokens):
            if tuple(tokens[i:i + n]) in self._grams:
                start = matches[i].start()
                end = matches[i + n - 1].end()
                if spans and start <= spans[-1][1] + 1 and i <= covered_until:
                    spans[-1] = (spans[-1][0], max(spans[-1][1], end))
                else:
                    spans.append((start, end))
                covered_until = i + n - 1
        return spans

    def _candidates(self, tokens: list[str]) -> list[int]:
        """Starts of the runs of ``min_tokens`` tokens that all occur in the documents (in order):
        only these can repeat a source run, so only these are looked up."""
        n, known = self.min_tokens, self._vocabulary
        out: list[int] = []
        run = 0  # tokens in the documents' vocabulary ending here
        for j, token in enumerate(tokens):
            run = run + 1 if token in known else 0
            if run >= n:
                out.append(j - n + 1)
        return out
