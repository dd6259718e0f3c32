"""``lae schemas``: regenerate (or check) the JSON Schemas in schemas/."""

from __future__ import annotations

import click

from lae.cli.options import project_from, root_option
from lae.errors import Problem, StaleAnchorsError
from lae.schemas import write_schemas


@click.command("schemas")
@root_option
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if a schema is stale.")
def command(root, check):
    """Regenerate schemas/*.schema.json from the models."""
    project = project_from(root, bundled_ok=False)
    stale = write_schemas(project.schemas_dir, check=check)
    if check and stale:
        raise StaleAnchorsError("schemas are stale", [Problem(f"schemas/{n}", "differs from the models",
                                                               mend="run `lae schemas`") for n in stale])
    click.echo(("stale: " if check else "written: ") + (", ".join(stale) or "none"))
