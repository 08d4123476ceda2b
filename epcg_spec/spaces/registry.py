"""Space types by name, as a spec names them."""

from __future__ import annotations

from typing import Any

from epcg_spec.spaces.base import RankedSpace
from epcg_spec.spaces.combination import CombinationSpace
from epcg_spec.spaces.kpermutation import KPermutationSpace
from epcg_spec.spaces.multiset import MultisetSpace
from epcg_spec.spaces.permutation import ORDERS, PermutationSpace
from epcg_spec.spaces.power import PowerSpace, RadixSpace

# type name -> (class, required parameters, optional parameters)
SPACE_TYPES: dict[str, tuple[type[RankedSpace], tuple[str, ...], tuple[str, ...]]] = {
    "combination": (CombinationSpace, ("n", "k"), ()),
    "permutation": (PermutationSpace, ("n",), ("order",)),
    "k-permutation": (KPermutationSpace, ("n", "k"), ()),
    "multiset": (MultisetSpace, ("n", "k"), ()),
    "power": (PowerSpace, ("p", "k"), ()),
    "radix": (RadixSpace, ("radices",), ()),
}


def _signature(type_name: str) -> str:
    _, required, optional = SPACE_TYPES[type_name]
    hints = {"order": f"order={'|'.join(ORDERS)}"}
    return f"{type_name}({', '.join([*required, *(hints[p] for p in optional)])})"


def make_space(type_name: str, **params: Any) -> RankedSpace:
    """A lone space from its type name and parameters: make_space("combination", n=5, k=2)."""
    if not isinstance(type_name, str) or type_name not in SPACE_TYPES:
        valid = "; ".join(_signature(name) for name in SPACE_TYPES)
        raise ValueError(f"unknown space type {type_name!r}; valid types: {valid}")
    cls, required, optional = SPACE_TYPES[type_name]
    missing = [p for p in required if p not in params]
    unknown = sorted(p for p in params if p not in required + optional)
    if missing or unknown:
        problems = [f"missing {', '.join(missing)}"] if missing else []
        problems += [f"unknown {', '.join(unknown)}"] if unknown else []
        raise ValueError(f"{'; '.join(problems)}: expected {_signature(type_name)}")
    return cls(**params)
