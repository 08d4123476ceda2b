"""The seeded random family: SplitMix64 as published, one stream for kernels and Python, and
the numbers every kind's pinned content was made from."""

import numpy as np

from epcg_spec.core import rng
from epcg_spec.core.rng import SplitMix64, item_seed, mersenne, numpy_stream, stream_state
from epcg_spec.search.backtrack import attempt_seed
from epcg_spec.search.splitmix import mix64, next_unit


def test_splitmix64_matches_the_published_sequence():
    rng = SplitMix64(0)
    rng.state = 1234567  # the reference implementation's test seed
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_kernel_stream_is_the_python_stream():
    python = SplitMix64(7, 3)
    state = np.array([python.state], dtype=np.uint64)
    for _ in range(100):
        assert next_unit(state) == (python.next64() >> 11) * 2.0**-53
    assert int(state[0]) == python.state


def test_the_python_finaliser_is_the_kernel():
    values = np.random.default_rng(3).integers(0, 2**64, 1000, dtype=np.uint64)
    for x in [0, 1, 2**64 - 1, *values.tolist()]:
        assert rng.mix64(x) == int(mix64(np.uint64(x)))


def test_derivations_give_the_numbers_content_was_pinned_with():
    # values from the code before these streams were gathered in one module (SplitMix64's:
    # since its start is finalised)
    assert [attempt_seed(7, 0), attempt_seed(7, 3), attempt_seed(2**62, 5)] == [
        6018027440424182932,
        5234364376659667869,
        6380038257771454736,
    ]
    assert attempt_seed(7, 3) == stream_state(7, 3) & (2**63 - 1)
    assert SplitMix64(7, 3).below(1000) == 278
    assert SplitMix64(7, 3).next64() == 5018695333439590259
    state = np.array([mix64(np.uint64(attempt_seed(7, 0)))], dtype=np.uint64)
    assert [next_unit(state) for _ in range(3)] == [
        0.957535142838457,
        0.45267859602657434,
        0.3144969544676741,
    ]
    assert mersenne(7, 3).randrange(10**9) == 482331406
    assert numpy_stream(5).integers(0, 10**9) == np.random.default_rng(5).integers(0, 10**9)
    assert [item_seed(10, i) for i in range(3)] == [10, 11, 12]


def test_neighbouring_seeds_and_streams_share_no_draws():
    # the raw keys of seeds s and s + 1 lie one SplitMix64 step apart: unfinalised, seed
    # s + 1 drew what seed s drew one draw later (a nested universe named the same galaxy
    # "Tortortor Spiral" for seeds 3, 4 and 5)
    def draws(seed: int, stream: int) -> set[int]:
        stream_rng = SplitMix64(seed, stream)
        return {stream_rng.next64() for _ in range(256)}

    for seed, stream in [(0, 0), (3, 0), (4, 7), (2**40, 2**63 + 5)]:
        mine = draws(seed, stream)
        assert not mine & draws(seed + 1, stream)
        assert not mine & draws(seed, stream + 1)
    assert SplitMix64(7, 3).state == rng.mix64(stream_state(7, 3))
