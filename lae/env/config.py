"""Environment arguments (the seeds' table), validated at load time."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lae.errors import InvalidInputError, Problem

__all__ = ["EnvArgs", "parse_env_args"]


class EnvArgs(BaseModel):
    """Arguments of ``load_environment``; unknown names are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: Literal["factory", "lab"] = Field("factory", description="factory: bundled anchored tasks; lab: LAB tasks from tasks_root.")
    task_id: str = Field("all", description='"all", a task id or a scenario slug.')
    max_turns: int = Field(30, ge=1, le=500, description="Tool-use turn budget.")
    page_chars: int = Field(6000, ge=200, le=200_000, description="Page size returned by read_document.")
    false_flag_weight: float | None = Field(None, ge=0.0, le=1.0, description="Default: the pocket's.")
    must_not_say_weight: float | None = Field(None, ge=0.0, le=1.0, description="Default: the pocket's.")
    min_deliverable_chars: int | None = Field(None, ge=0, description="Default: the pocket's (200).")
    judge_model: str | None = Field(None, description="Optional weight-0 judge telemetry (results layer).")
    judge_api_key_var: str = Field("JUDGE_API_KEY", description="Environment variable holding the judge's key.")
    tasks_root: Path | None = Field(None, description="factory: override the bundled tasks; lab: required.")
    allow_unfrozen: bool = Field(False, description="Load a pocket that does not verify (results not reportable).")


def parse_env_args(**kwargs: object) -> EnvArgs:
    """Validate keyword arguments, naming the argument and the allowed values on error."""
    try:
        args = EnvArgs(**kwargs)
    except ValidationError as exc:
        problems = []
        for err in exc.errors(include_url=False):
            name = ".".join(str(p) for p in err["loc"]) or "(arguments)"
            allowed = ""
            if err["type"] == "literal_error":
                allowed = "allowed: " + err.get("ctx", {}).get("expected", "")
            elif err["type"] == "extra_forbidden":
                allowed = "allowed arguments: " + ", ".join(EnvArgs.model_fields)
            problems.append(Problem("load_environment", f"{err['msg']} (got {err.get('input')!r})", field=name,
                                    mend=allowed or "see the environment-argument table in the pocket README"))
        raise InvalidInputError("invalid environment arguments", problems) from None
    if args.source == "lab" and args.tasks_root is None:
        raise InvalidInputError("invalid environment arguments", [Problem(
            "load_environment", "LAB mode needs tasks_root", field="tasks_root",
            mend="pass tasks_root=<your LAB checkout's tasks folder>")])
    return args
