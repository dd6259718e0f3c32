"""The four agent tools over one task's documents and one rollout's workspace.

Every tool returns a message string and never raises on agent input: bad names, pages
and patterns get a clear reply. The agent can only name documents that
``list_documents`` shows: no paths, no ``..``, no symlinks, nothing outside the
documents folder, and never keys or anchors.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import regex

from lae.errors import LaeError
from lae.fsio import atomic_write

__all__ = ["DocumentStore", "Workspace", "TaskTools", "TOOL_SCHEMAS", "paginate", "is_safe_filename",
           "GREP_TIMEOUT_SECONDS", "MAX_PATTERN_CHARS", "MAX_DELIVERABLE_BYTES"]

GREP_TIMEOUT_SECONDS = 1.0
MAX_PATTERN_CHARS = 500
MAX_GREP_RESULTS = 200
MAX_DELIVERABLE_BYTES = 2 * 1024 * 1024
# Used with fullmatch: `$` would also match before a final newline ("x\n").
_SAFE_FILENAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._ -]{0,150}")


def is_safe_filename(name: object) -> bool:
    """A plain file name (letters, digits, ``. _ -`` and spaces; no path, no ``..``, no newline)."""
    return isinstance(name, str) and _SAFE_FILENAME.fullmatch(name) is not None and ".." not in name


def paginate(text: str, page_chars: int) -> list[str]:
    """Split ``text`` into pages of at most ``page_chars``, preferring line breaks."""
    if not text:
        return [""]
    pages = []
    pos = 0
    while pos < len(text):
        end = min(len(text), pos + page_chars)
        if end < len(text):
            cut = text.rfind("\n", pos + page_chars // 2, end)
            if cut > pos:
                end = cut + 1
        pages.append(text[pos:end])
        pos = end
    return pages


@dataclass
class DocumentStore:
    """One task's documents, read-only. Text is extracted once and cached."""

    folder: Path
    page_chars: int = 6000
    _pages: dict[str, list[str]] = field(default_factory=dict)
    _formats: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.folder = Path(self.folder).resolve()
        if self.page_chars < 200:
            raise ValueError("page_chars must be at least 200")

    def names(self) -> list[str]:
        """Regular files directly in the folder (symlinks and hidden files never listed)."""
        if not self.folder.is_dir():
            return []
        return sorted(p.name for p in self.folder.iterdir()
                      if not p.name.startswith(".") and not p.is_symlink() and p.is_file())

    def _resolve(self, name: object) -> tuple[Path | None, str | None]:
        if not isinstance(name, str) or not name:
            return None, "Error: give a document name from list_documents()."
        if "/" in name or "\\" in name or name in (".", "..") or "\x00" in name:
            return None, f"Error: {name!r} is not a document name (no paths); use a name from list_documents()."
        if name not in self.names():
            close = [n for n in self.names() if n.lower() == name.lower() or Path(n).stem == Path(name).stem]
            hint = f" Did you mean {close[0]!r}?" if close else ""
            return None, f"Error: no document named {name!r}.{hint} Call list_documents() for the names."
        path = self.folder / name
        if path.is_symlink() or path.resolve().parent != self.folder:
            return None, f"Error: {name!r} cannot be read."
        return path, None

    def pages(self, name: str) -> list[str]:
        if name not in self._pages:
            from lae.grader.documents import read_document

            doc = read_document(self.folder / name)
            self._formats[name] = doc.format
            self._pages[name] = paginate(doc.text, self.page_chars)
        return self._pages[name]


@dataclass
class Workspace:
    """One rollout's own folder for deliverables."""

    folder: Path
    declared: tuple[str, ...]
    saved: dict[str, int] = field(default_factory=dict)
    max_files: int = 8
    """Distinct files one rollout may create (``--max-saved-files``)."""
    max_bytes: int = 16 * 1024 * 1024
    """Total bytes one rollout may keep (``--max-saved-bytes``)."""

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def refusal(self, filename: str, size: int) -> str | None:
        """Why saving ``size`` bytes as ``filename`` would break a limit, or None."""
        if filename not in self.saved and len(self.saved) >= self.max_files:
            return (f"Error: {self.max_files} files are already saved (--max-saved-files); nothing was saved. "
                    "Overwrite a declared deliverable instead.")
        total = sum(self.saved.values()) - self.saved.get(filename, 0) + size
        if total > self.max_bytes:
            return (f"Error: saving this would keep {total:,} bytes, over the limit of {self.max_bytes:,} bytes per "
                    "rollout (--max-saved-bytes); nothing was saved.")
        return None


TOOL_SCHEMAS: list[dict] = [
    {"type": "function", "function": {
        "name": "list_documents",
        "description": "List the matter's documents: name, format, size and number of pages.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "read_document",
        "description": "Read one page of a document's extracted text (pages are numbered from 1).",
        "parameters": {"type": "object", "properties": {
            "name": {"type": "string", "description": "Document name from list_documents."},
            "page": {"type": "integer", "minimum": 1, "default": 1}},
            "required": ["name"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "grep_documents",
        "description": "Search every document for a regular expression; returns matching lines with document and page.",
        "parameters": {"type": "object", "properties": {
            "pattern": {"type": "string"},
            "case_sensitive": {"type": "boolean", "default": False},
            "max_results": {"type": "integer", "minimum": 1, "maximum": MAX_GREP_RESULTS, "default": 50},
            "document": {"type": "string", "description": "Limit to one document (optional)."}},
            "required": ["pattern"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "save_deliverable",
        "description": "Save a deliverable file. For a .docx, write Markdown-style text (# headings, - lists, paragraphs); it is rendered to a Word document.",
        "parameters": {"type": "object", "properties": {
            "filename": {"type": "string", "description": "Exactly the declared deliverable filename."},
            "content": {"type": "string"}},
            "required": ["filename", "content"], "additionalProperties": False}}},
]


class TaskTools:
    """The four tools, bound to one task's documents and one rollout's workspace."""

    def __init__(self, store: DocumentStore, workspace: Workspace) -> None:
        self.store = store
        self.workspace = workspace

    # -- list ----------------------------------------------------------------
    def list_documents(self) -> str:
        names = self.store.names()
        if not names:
            return "No documents."
        lines = [f"{len(names)} documents:"]
        for name in names:
            size = (self.store.folder / name).stat().st_size
            try:
                pages = len(self.store.pages(name))
                pages_text = f"{pages} page{'s' if pages != 1 else ''}"
            except LaeError:
                pages_text = "unreadable"
            lines.append(f"- {name} ({Path(name).suffix.lstrip('.')}, {size:,} bytes, {pages_text})")
        return "\n".join(lines)

    # -- read ----------------------------------------------------------------
    def read_document(self, name: str, page: int = 1) -> str:
        path, error = self.store._resolve(name)
        if error:
            return error
        try:
            pages = self.store.pages(name)
        except LaeError as exc:
            return f"Error: {name} cannot be read: {exc.problems[0].message if exc.problems else exc}"
        if isinstance(page, bool) or not isinstance(page, int):
            try:
                page = int(page)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                return f"Error: page must be a whole number from 1 to {len(pages)}."
        if page < 1 or page > len(pages):
            return f"Error: {name} has {len(pages)} page{'s' if len(pages) != 1 else ''}; page {page} does not exist."
        more = f" (next: read_document({name!r}, page={page + 1}))" if page < len(pages) else " (last page)"
        return f"{name}, page {page} of {len(pages)}{more}\n\n{pages[page - 1]}"

    # -- grep ----------------------------------------------------------------
    def grep_documents(self, pattern: str, case_sensitive: bool = False, max_results: int = 50,
                       document: str | None = None) -> str:
        if not isinstance(pattern, str) or not pattern:
            return "Error: give a non-empty pattern."
        if len(pattern) > MAX_PATTERN_CHARS:
            return f"Error: pattern is longer than {MAX_PATTERN_CHARS} characters."
        try:
            max_results = max(1, min(MAX_GREP_RESULTS, int(max_results)))
        except (TypeError, ValueError):
            max_results = 50
        try:
            compiled = regex.compile(pattern, 0 if case_sensitive else regex.IGNORECASE)
        except (regex.error, OverflowError, RecursionError) as exc:
            return f"Error: invalid regular expression: {exc}"
        names = self.store.names()
        if document is not None:
            _, error = self.store._resolve(document)
            if error:
                return error
            names = [document]
        hits: list[str] = []
        total = 0
        # One budget for the whole call (not per line): a pattern that backtracks on every line
        # of a long document must still answer within GREP_TIMEOUT_SECONDS.
        deadline = time.monotonic() + GREP_TIMEOUT_SECONDS
        for name in names:
            try:
                pages = self.store.pages(name)
            except LaeError:
                continue
            for page_no, page in enumerate(pages, 1):
                for line in page.split("\n"):
                    try:
                        found = compiled.search(line, timeout=max(deadline - time.monotonic(), 0.001))
                    except TimeoutError:
                        return f"Error: the pattern took longer than {GREP_TIMEOUT_SECONDS}s on {name}; simplify it."
                    if found:
                        total += 1
                        if len(hits) < max_results:
                            shown = line.strip()
                            if len(shown) > 300:
                                s = max(0, found.start() - 100)
                                shown = ("…" if s else "") + line[s:s + 300].strip() + "…"
                            hits.append(f"{name} p.{page_no}: {shown}")
        if not hits:
            return f"No matches for {pattern!r}."
        tail = f"\n({total - len(hits)} more matches not shown; narrow the pattern.)" if total > len(hits) else ""
        return f"{total} match{'es' if total != 1 else ''}:\n" + "\n".join(hits) + tail

    # -- save ----------------------------------------------------------------
    def save_deliverable(self, filename: str, content: str) -> str:
        if not is_safe_filename(filename):
            return "Error: filename must be a plain file name such as 'memo.docx' (letters, digits, . _ - and spaces; no folders)."
        if not isinstance(content, str) or not content.strip():
            return "Error: content is empty; nothing was saved."
        data = content.encode("utf-8")
        if len(data) > MAX_DELIVERABLE_BYTES:
            return f"Error: content is over {MAX_DELIVERABLE_BYTES:,} bytes; nothing was saved."
        target = self.workspace.folder / filename
        declared = self.workspace.declared
        if filename in declared and filename.lower().endswith(".docx"):
            from lae.render import docx_bytes

            payload = docx_bytes(content)
        else:
            payload = data
        refusal = self.workspace.refusal(filename, len(payload))
        if refusal:
            return refusal
        atomic_write(target, payload)
        self.workspace.saved[filename] = len(payload)
        if filename in declared:
            kind = "rendered to a Word document" if filename.lower().endswith(".docx") else "saved as text"
            return f"Saved {filename} ({len(content):,} characters, {kind}). This is a declared deliverable."
        same_stem = [d for d in declared if Path(d).stem == Path(filename).stem]
        if same_stem:
            return (f"Saved {filename}, but it does NOT satisfy the declared deliverable {same_stem[0]}: "
                    f"a {Path(filename).suffix or 'file'} never counts for a declared {Path(same_stem[0]).suffix}. "
                    f"Save it again as {same_stem[0]}.")
        return (f"Saved {filename}, but it is not a declared deliverable and will not be graded. "
                f"Declared: {', '.join(declared)}.")

    # -- dispatch ------------------------------------------------------------
    def call(self, name: str, arguments: object) -> str:
        """Run a tool by name with JSON-decoded arguments; never raises."""
        if not isinstance(arguments, dict):
            return "Error: tool arguments must be a JSON object."
        funcs = {"list_documents": self.list_documents, "read_document": self.read_document,
                 "grep_documents": self.grep_documents, "save_deliverable": self.save_deliverable}
        func = funcs.get(name)
        if func is None:
            return f"Error: unknown tool {name!r}; tools: {', '.join(funcs)}."
        try:
            return func(**arguments)
        except TypeError as exc:
            return f"Error: bad arguments for {name}: {exc}"
        except Exception as exc:  # the environment must never crash on agent input
            return f"Error: {name} failed: {type(exc).__name__}"
