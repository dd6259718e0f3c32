"""Check a batch labels fragment: [BATCH=29] [DRAFTS=/work/drafts<BATCH>] python check_labels29.py <pocket> <task-id>

Reads /work/drafts<BATCH>/<pocket>/<task-id>/labels<BATCH>.yaml (the seven entries A27..G27 that go
under `memos:` of the task's labels.yaml, indented two spaces) and the seven .md files next to
it; prints every problem (YAML, unknown field, wrong label for an id, missing id, sentence not
found in the memo) or "OK". It never scores anything.
"""
import sys
from pathlib import Path

import yaml
from pydantic import ValidationError

sys.path.insert(0, "/work/main")
from compiler.labels import LabelsFile, MatterIds, markup_free, sentence_parts  # noqa: E402
from compiler.load import load_key  # noqa: E402

pocket, task = sys.argv[1], sys.argv[2]
import os
B = os.environ.get("BATCH", "47")
folder = Path(os.environ.get("DRAFTS", f"/work/drafts{B}")) / pocket / task
frag = (folder / f"labels{B}.yaml").read_text(encoding="utf-8")
doc = f"schema_version: 1\npocket: {pocket}\ntask_id: {task}\nmemos:\n{frag}"
problems = []
try:
    data = yaml.safe_load(doc)
    labels = LabelsFile.model_validate(data)
except (yaml.YAMLError, ValidationError) as exc:
    print("INVALID:", exc)
    sys.exit(1)
key = load_key(Path("/work/main/keys_private") / pocket / f"{task}.yaml")
ids = MatterIds.of_key(key)
want = {f"{k}{B}" for k in "ABCDEFG"}
if set(labels.memos) != want:
    problems.append(f"memos are {sorted(labels.memos)}; expected {sorted(want)}")
for memo_id, memo in labels.memos.items():
    if memo.kind != memo_id[0]:
        problems.append(f"{memo_id}: kind {memo.kind} should be {memo_id[0]}")
    for item_id, kind in ids.kinds.items():
        if item_id not in memo.labels:
            problems.append(f"{memo_id}: {kind} {item_id} not labelled")
    md = folder / f"{memo_id}.md"
    if not md.is_file():
        problems.append(f"{memo_id}: {md} missing")
        continue
    text = markup_free(md.read_text(encoding="utf-8"))
    for item_id, entry in memo.labels.items():
        kind = ids.kinds.get(item_id)
        if kind is None:
            problems.append(f"{memo_id}: {item_id} is not an id of the key")
        elif entry.item_kind != kind:
            problems.append(f"{memo_id}: {item_id} is a {kind}; {entry.label} is a {entry.item_kind} label")
        for part in sentence_parts(getattr(entry, "sentence", "") or ""):
            if part not in text:
                problems.append(f"{memo_id}: {item_id}: sentence part not found verbatim: {part[:80]!r}")
print("\n".join(problems) if problems else "OK")
sys.exit(1 if problems else 0)
