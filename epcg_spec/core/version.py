"""The engine's version: in result.json, checkpoint keys and the kernel cache."""

__version__ = "0.1.0"
