import json,sys
from pathlib import Path
M=[("ai-law",t) for t in ["ai-cloud-training-004","ai-frontier-weights-002","ai-gpu-reseller-003","ai-model-export-005","ai-orion-compute-001"]]+[("corporate-governance",t) for t in ["evergreen-controller-002","northstar-stockholder-001","pioneer-resignation-003","ridgeway-books-004","solstice-committee-005"]]+[("employment-law",t) for t in ["atlas-noncompete-001","brightline-overtime-002","cobalt-pwfa-003","delta-warn-004","ember-contractor-005"]]
d=Path('/work/scratch/b48')
for p,t in M:
    ins=json.load(open(f'/work/main/tasks/{p}/{t}/task.json'))['instructions']
    for k in ('drafter','labeller'):
        s=(d/f'{k}48.tmpl').read_text().replace('{pocket}',p).replace('{task}',t).replace('{instructions}',ins)
        assert '{' not in s.replace('{label','').replace('{kind','') , (k, [x for x in s.split() if '{' in x][:5])
        (d/f'{k}-{t}.md').write_text(s)
