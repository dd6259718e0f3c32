"""The comma-list attack on every bundled matter: one paragraph listing every subject, problem,
citation, remediation and record term of the key (the red team's must-not variant), scored as a
.docx memo by the real grader. Prints finding recall per matter (the target is 0 everywhere).

    python bench/comma_list_attack.py [--root DIR]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from lae.compiler.load import load_key
from lae.compiler.redteam import comma_list
from lae.grader.score import score_files
from lae.project import Project
from lae.render import markdown_to_docx

from fidelity_dev import _context  # noqa: E402  (bench scripts share the in-memory compile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default=None)
    args = parser.parse_args()
    project = Project.at(args.root)
    worst = 0.0
    with tempfile.TemporaryDirectory(prefix="lae-attack-") as tmp:
        for pocket in project.pockets():
            for path in project.key_files(pocket):
                key = load_key(path, project=project)
                ctx = _context(project, pocket, key.task_id)
                memo = Path(tmp) / key.task_id / key.deliverable
                memo.parent.mkdir(parents=True)
                markdown_to_docx("# Risk memo\n\n" + comma_list(key) + "\n", memo)
                result = score_files(ctx, [memo])
                worst = max(worst, result.metrics.finding_recall)
                print(f"{pocket:22} {key.task_id:28} finding_recall {result.metrics.finding_recall:.3f}  "
                      f"reward {result.metrics.reward:.3f}")
    print(f"worst finding_recall over every matter: {worst:.3f}")


if __name__ == "__main__":
    main()
