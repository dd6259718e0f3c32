#!/bin/bash
# commit_blind.sh pocket task : commit the five blind drafts of one matter before its labeller starts
set -e
p=$1; t=$2; src=/work/drafts48/$p/$t; dst=/work/d60/keys_private/_drafts/batch48/$p/$t
for k in A B C F G; do test -s $src/${k}48.md || { echo "missing $src/${k}48.md"; exit 1; }; done
mkdir -p $dst && cp $src/{A,B,C,F,G}48.md $dst/
cd /work/d60 && git add keys_private/_drafts/batch48/$p/$t && git commit -q -m "Batch 48 blind drafts: $p/$t (before its labeller started)" && git log --oneline -1
