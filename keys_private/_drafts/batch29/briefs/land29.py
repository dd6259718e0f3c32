"""Copy finished batch-29 matters into a tree: python land29.py TREE [--drafts /work/drafts29]
A matter is finished when its folder holds A29..G29.md and labels29.yaml. Prints the pockets touched."""
import sys, shutil
from pathlib import Path
tree = Path(sys.argv[1]); drafts = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("/work/drafts29")
pockets = set()
for d in sorted(drafts.glob("*/*")):
    files = [d / f"{k}29.md" for k in "ABCDEFG"] + [d / "labels29.yaml"]
    if not all(f.is_file() for f in files):
        continue
    dst = tree / "keys_private" / d.parent.name / "validation" / d.name
    for f in files[:-1]:
        shutil.copy(f, dst / f.name)
    labels = dst / "labels.yaml"
    text = labels.read_text(encoding="utf-8")
    if "\n  A29:" not in text:
        labels.write_text(text.rstrip("\n") + "\n" + (d / "labels29.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    pockets.add(d.parent.name)
    print("landed", d.parent.name, d.name, file=sys.stderr)
print(" ".join(sorted(pockets)))
