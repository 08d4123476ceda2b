"""Ranked state spaces: every state has a rank; numba kernels unrank, rank, skip and count."""

from epcg_spec.spaces.base import INT64_MAX, RankedSpace
from epcg_spec.spaces.codegen import space_kernel_args, space_kernel_source
from epcg_spec.spaces.combination import CombinationSpace
from epcg_spec.spaces.kpermutation import KPermutationSpace
from epcg_spec.spaces.multiset import MultisetSpace
from epcg_spec.spaces.permutation import PermutationSpace
from epcg_spec.spaces.power import PowerSpace, RadixSpace
from epcg_spec.spaces.product import ProductSpace
from epcg_spec.spaces.registry import SPACE_TYPES, make_space

__all__ = [
    "INT64_MAX",
    "SPACE_TYPES",
    "CombinationSpace",
    "KPermutationSpace",
    "MultisetSpace",
    "PermutationSpace",
    "PowerSpace",
    "ProductSpace",
    "RadixSpace",
    "RankedSpace",
    "make_space",
    "space_kernel_args",
    "space_kernel_source",
]
