"""`python -m epcg_spec` runs the command line."""

from .cli.start import entry_point

entry_point()
