"""Copy finished batch-28 matters into a tree: python land28.py TREE [--drafts /work/drafts28]
A matter is finished when its folder holds A28..G28.md and labels28.yaml. Prints the pockets touched."""
import sys, shutil
from pathlib import Path
tree = Path(sys.argv[1]); drafts = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/work/drafts28")
pockets = set()
for d in sorted(drafts.glob("*/*")):
    files = [d / f"{k}28.md" for k in "ABCDEFG"] + [d / "labels28.yaml"]
    if not all(f.is_file() for f in files):
        continue
    dst = tree / "keys_private" / d.parent.name / "validation" / d.name
    for f in files[:-1]:
        shutil.copy(f, dst / f.name)
    labels = dst / "labels.yaml"
    text = labels.read_text(encoding="utf-8")
    if "\n  A28:" not in text:
        labels.write_text(text.rstrip("\n") + "\n" + (d / "labels28.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    pockets.add(d.parent.name)
    print("landed", d.parent.name, d.name, file=sys.stderr)
print(" ".join(sorted(pockets)))
