"""The floor every other layer stands on, importing nothing above it: the run context and
output, errors, atomic and contained writes, the cache location, result.json's base fields,
and the version."""
