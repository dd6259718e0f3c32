"""Copy finished batch matters into a tree: [BATCH=29] python land29.py TREE [DRAFTS] (DRAFTS: /work/drafts<BATCH>)
A matter is finished when its folder holds A<B>..G<B>.md and labels<B>.yaml. Prints the pockets touched."""
import os, sys, shutil
B = os.environ.get("BATCH", "29")
from pathlib import Path
tree = Path(sys.argv[1]); drafts = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(f"/work/drafts{B}")
pockets = set()
for d in sorted(drafts.glob("*/*")):
    files = [d / f"{k}{B}.md" for k in "ABCDEFG"] + [d / f"labels{B}.yaml"]
    if not all(f.is_file() for f in files):
        continue
    dst = tree / "keys_private" / d.parent.name / "validation" / d.name
    for f in files[:-1]:
        shutil.copy(f, dst / f.name)
    labels = dst / "labels.yaml"
    text = labels.read_text(encoding="utf-8")
    if f"\n  A{B}:" not in text:
        labels.write_text(text.rstrip("\n") + "\n" + (d / f"labels{B}.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    pockets.add(d.parent.name)
    print("landed", d.parent.name, d.name, file=sys.stderr)
print(" ".join(sorted(pockets)))
