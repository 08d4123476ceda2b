"""epcg-spec: procedural content generation from declarative spec files."""

__version__ = "0.1.0"
