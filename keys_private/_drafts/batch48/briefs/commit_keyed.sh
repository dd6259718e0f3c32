#!/bin/bash
# commit_keyed.sh pocket task : commit D, E and the labels of one matter before anything is scored
set -e
p=$1; t=$2; src=/work/drafts48/$p/$t; dst=/work/d60/keys_private/_drafts/batch48/$p/$t
BATCH=48 /work/main/.venv/bin/python /work/scratch/b48/check_labels48.py $p $t
for k in A B C F G; do cmp -s $src/${k}48.md $dst/${k}48.md || { echo "blind memo ${k}48 changed"; exit 1; }; done
cp $src/{D,E}48.md $src/labels48.yaml $dst/
cd /work/d60 && git add keys_private/_drafts/batch48/$p/$t && git commit -q -m "Batch 48 keyed memos and labels: $p/$t (before scoring)" && git log --oneline -1
