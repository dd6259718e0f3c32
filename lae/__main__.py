"""``python -m lae`` runs the CLI."""

from lae.cli import main

main()
