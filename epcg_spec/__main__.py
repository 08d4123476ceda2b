"""`python -m epcg_spec` runs the command line."""

from .cli.main import entry_point

entry_point()
