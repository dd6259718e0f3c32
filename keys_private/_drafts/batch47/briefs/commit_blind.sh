#!/bin/bash
# commit_blind.sh pocket task : commit the five blind drafts of one matter before its labeller starts
set -e
p=$1; t=$2; src=/work/drafts47/$p/$t; dst=/work/d59/keys_private/_drafts/batch47/$p/$t
for k in A B C F G; do test -s $src/${k}47.md || { echo "missing $src/${k}47.md"; exit 1; }; done
mkdir -p $dst && cp $src/{A,B,C,F,G}47.md $dst/
cd /work/d59 && git add keys_private/_drafts/batch47/$p/$t && git commit -q -m "Batch 47 blind drafts: $p/$t (before its labeller started)" && git log --oneline -1
