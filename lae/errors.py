"""The one exception hierarchy of legal-agent-eval.

Every error says what is wrong, where (file:line, field, expected vs observed) and
how to mend it. The CLI catches :class:`LaeError` once and exits with
``exit_code``: 1 invalid input, 3 refusal. Misuse of the API (wrong call order,
bad argument types) raises ``ValueError``/``RuntimeError`` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Problem",
    "LaeError",
    "InvalidInputError",
    "LayoutError",
    "KeyValidationError",
    "CompileError",
    "CalibrationError",
    "StaleAnchorsError",
    "DocumentError",
    "DeliverableError",
    "RefusalError",
    "FreezeError",
    "VerificationError",
    "NotFrozenError",
    "HashMismatchError",
]

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2
EXIT_REFUSAL = 3


@dataclass(frozen=True)
class Problem:
    """One located problem: ``path:line:col: field: message (mend)``."""

    path: str
    message: str
    line: int | None = None
    col: int | None = None
    field: str | None = None
    mend: str | None = None

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        text = f"{where}: "
        if self.field:
            text += f"{self.field}: "
        text += self.message
        if self.mend:
            text += f" ({self.mend})"
        return text

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line or 0, self.col or 0, self.field or "", self.message)


class LaeError(Exception):
    """Root of every error this project raises on bad data or refusals."""

    exit_code = EXIT_INVALID

    def __init__(self, message: str, problems: list[Problem] | None = None) -> None:
        self.problems: list[Problem] = sorted(problems or [], key=Problem.sort_key)
        super().__init__(message)

    def __reduce__(self):  # keep the problems when an error crosses a process boundary
        return (self.__class__, (self.args[0], self.problems))

    def report(self) -> str:
        """The message followed by one line per problem."""
        lines = [str(self.args[0])]
        lines.extend(str(p) for p in self.problems)
        return "\n".join(lines)


class InvalidInputError(LaeError):
    """Input files are malformed or inconsistent (exit 1)."""


class LayoutError(InvalidInputError):
    """The project tree (``--root``) is missing or lacks the expected layout."""


class KeyValidationError(InvalidInputError):
    """A private answer key failed schema or semantic validation."""


class CompileError(InvalidInputError):
    """A key could not be compiled into anchors."""


class CalibrationError(CompileError):
    """A calibration sentence credited when it must not, or failed to credit."""


class StaleAnchorsError(InvalidInputError):
    """``lae compile --check``: anchors are stale, missing or orphaned."""


class DocumentError(InvalidInputError):
    """A matter document could not be read."""


class DeliverableError(InvalidInputError):
    """A deliverable could not be read (the grader turns this into a reason)."""


class RefusalError(LaeError):
    """The tool refuses to go on because a safety gate failed (exit 3)."""

    exit_code = EXIT_REFUSAL


class FreezeError(RefusalError):
    """A pocket cannot be frozen in its present state."""


class VerificationError(RefusalError):
    """A frozen release does not verify."""


class NotFrozenError(VerificationError):
    """The pocket has no (well-formed) freeze stamp."""


class HashMismatchError(VerificationError):
    """A frozen file changed, vanished or was added since the freeze."""
