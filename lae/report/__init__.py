"""The results layer (``lae report``, ``lae judge``): aggregate rollouts, write an audit report.

* ``lae.report.aggregate`` -- read ``lae run``/``lae score --runs`` folders and verifiers
  JSONL, aggregate by model × task × rollout with the spread across rollouts, refuse to
  mix freeze roots, keep LAB ``lab_`` metrics apart, render the Markdown table;
* ``lae.report.html`` -- the static audit report (jinja2, inline CSS, no scripts);
* ``lae.report.judge`` -- optional weight-0 rubric-judge telemetry over an
  OpenAI-compatible chat API (nothing touches the network unless a judge model is set);
* ``lae.report.models`` -- the typed report summary (``schemas/report.schema.json``)
  and ``judge.json``.
"""

from lae.report.aggregate import (
           LoadedRuns,
           aggregate,
           cohen_kappa,
           load_runs,
           render_markdown,
           spread,
)
from lae.report.models import JudgeRecord, ReportSummary, report_json_schema

__all__ = [
           "JudgeRecord",
           "LoadedRuns",
           "ReportSummary",
           "aggregate",
           "cohen_kappa",
           "load_runs",
           "render_markdown",
           "report_json_schema",
           "spread",
]
