"""The engine's version: in result.json, checkpoint keys and the kernel cache (and, read by
setuptools, the package's). It changes whenever the same spec and seed give other content,
so that no run resumes from a checkpoint of other content."""

__version__ = "0.2.0"
