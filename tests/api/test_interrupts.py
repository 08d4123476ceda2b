"""Ctrl-C in a build of several driver runs (Fling's layers) is never lost."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

import epcg_spec
from tests.recording import RecordedProgress

SPECS = Path(__file__).resolve().parents[2] / "specs"


class CtrlCAtTheEnd(RecordedProgress):
    """Presses Ctrl-C as the first run's last chunk is done: too late for that run to stop."""

    def start(self, label: str, total: int) -> None:
        super().start(label, total)
        self.left = total

    def advance(self, units: int) -> None:
        super().advance(units)
        self.left -= units
        if self.left == 0 and not any(call[0] == "pressed" for call in self.calls):
            self.calls.append(("pressed",))
            os.kill(os.getpid(), signal.SIGINT)


def test_ctrl_c_in_the_last_chunk_of_a_fling_layer_stops_the_build(tmp_path):
    # the layer's run ended complete and cleared the Ctrl-C: the next layers were computed
    # and the build returned a whole result, seconds later, as if no key had been pressed
    spec = epcg_spec.load(SPECS / "fling-5x5.yaml", options={"layers_dir": str(tmp_path)})
    progress = CtrlCAtTheEnd()
    with pytest.raises(epcg_spec.Interrupted, match="run the same command again to go on"):
        spec.build(progress=progress)
    assert [call[0] for call in progress.calls].count("start") == 1


def test_ctrl_c_as_a_witness_joint_search_ends_its_layouts_stops_the_search():
    # the layouts' run ended complete and cleared the Ctrl-C: the branch and bound that
    # follows ran to its end
    spec = epcg_spec.load(SPECS / "witness-joint-3x3.epcg")
    with pytest.raises(epcg_spec.Interrupted, match="while collecting candidate panels"):
        spec.build(progress=CtrlCAtTheEnd())


class CtrlCAtTheFirstChunk(RecordedProgress):
    def advance(self, units: int) -> None:
        super().advance(units)
        if len([call for call in self.calls if call[0] == "advance"]) == 1:
            os.kill(os.getpid(), signal.SIGINT)


def test_ctrl_c_returns_the_partial_result_and_resume_finishes_it(tmp_path):
    spec = epcg_spec.load(SPECS / "n-queens.yaml", params={"n": 14})
    stopped = spec.build(tmp_path, threads=2, progress=CtrlCAtTheFirstChunk())
    assert (stopped.stopped, stopped.complete) == ("interrupted", False)
    assert stopped.count < 365_596 and (tmp_path / ".checkpoint.json").exists()
    resumed = spec.build(tmp_path, threads=2, resume=True)
    assert (resumed.stopped, resumed.count) == (None, 365_596)
