#!/bin/bash
# commit_keyed.sh pocket task : commit D, E and the labels of one matter before anything is scored
set -e
p=$1; t=$2; src=/work/drafts47/$p/$t; dst=/work/d59/keys_private/_drafts/batch47/$p/$t
BATCH=47 /work/main/.venv/bin/python /work/scratch/b47/check_labels47.py $p $t
for k in A B C F G; do cmp -s $src/${k}47.md $dst/${k}47.md || { echo "blind memo $k47 changed"; exit 1; }; done
cp $src/{D,E}47.md $src/labels47.yaml $dst/
cd /work/d59 && git add keys_private/_drafts/batch47/$p/$t && git commit -q -m "Batch 47 keyed memos and labels: $p/$t (before scoring)" && git log --oneline -1
