"""The escape hatch: constraints and objectives written as Python functions (module:function)."""

import hashlib
import json

from epcg_spec.cli.main import main
from epcg_spec.spec.load import load_spec

MODULE = """
def ascending_pair(x):
    return x[0] < x[1]


def weight(x):
    return x[0] * 10 + x[3]
"""

SPEC = """kind: space
space: {type: permutation, n: 4}
constraints:
  - {name: ascending, python: "user_rules:ascending_pair"}
  - x[2] != 0
objective: {python: "user_rules:weight", sense: maximize}
search: {top: 2}
"""


def test_python_constraint_and_objective_are_compiled_and_used(tmp_path, capsys):
    (tmp_path / "user_rules.py").write_text(MODULE)
    (tmp_path / "spec.yaml").write_text(SPEC)
    out = tmp_path / "out"
    build = ["build", str(tmp_path / "spec.yaml"), "--out", str(out), "-q", "--allow-python"]
    assert main(build) == 0
    result = json.loads((out / "result.json").read_text())
    assert result["count"] == 9  # 12 with x[0] < x[1], of which 3 have x[2] == 0
    best = [(b["score"], b["state"]["x"]) for b in result["best"]]
    assert best == [(20.0, [2, 3, 1, 0]), (10.0, [1, 2, 3, 0])]  # a tie goes to the lower rank
    capsys.readouterr()


def test_the_module_beside_the_spec_is_one_of_its_inputs(tmp_path, capsys):
    """Its digest keys checkpoints and shards as any file a spec names does: a resume after
    editing it is refused, not continued with counts of the old rules."""
    (tmp_path / "user_rules.py").write_text(MODULE)
    (tmp_path / "spec.yaml").write_text(SPEC)
    out = tmp_path / "out"
    build = ["build", str(tmp_path / "spec.yaml"), "--out", str(out), "-q", "--allow-python"]
    assert main(build) == 0
    digest = "sha256:" + hashlib.sha256(MODULE.encode()).hexdigest()
    assert json.loads((out / "result.json").read_text())["inputs"] == {"user_rules.py": digest}
    (tmp_path / "user_rules.py").write_text(MODULE.replace("<", "<="))
    assert load_spec(tmp_path / "spec.yaml").inputs["user_rules.py"] not in (digest, "absent")
    (tmp_path / "user_rules.py").unlink()  # then the import would find another, or none
    assert load_spec(tmp_path / "spec.yaml").inputs == {"user_rules.py": "absent"}
    capsys.readouterr()


def test_a_missing_module_is_a_located_error_when_the_build_imports_it(tmp_path, capsys):
    (tmp_path / "spec.yaml").write_text(SPEC)
    assert main(["validate", str(tmp_path / "spec.yaml")]) == 0  # validate imports nothing
    capsys.readouterr()
    build = ["build", str(tmp_path / "spec.yaml"), "--out", str(tmp_path / "out"), "-q"]
    assert main([*build, "--allow-python"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / 'spec.yaml'}:4:") and "cannot import 'user_rules'" in err


def test_a_function_numba_cannot_compile_is_a_located_error_naming_it(tmp_path, capsys):
    listy = "\n\ndef listy(x):\n    return x.tolist() == [0]\n"  # its return is line 11
    (tmp_path / "user_rules.py").write_text(MODULE + listy)
    (tmp_path / "spec.yaml").write_text(SPEC.replace("ascending_pair", "listy"))
    build = ["build", str(tmp_path / "spec.yaml"), "--out", str(tmp_path / "out"), "-q"]
    assert main([*build, "--allow-python"]) == 1
    out, err = capsys.readouterr()
    (line,) = (out + err).strip().splitlines()
    assert line.startswith(
        f"{tmp_path / 'spec.yaml'}:4:31: numba cannot compile the Python function "
        f"user_rules:listy ({tmp_path / 'user_rules.py'}:11): Unknown attribute 'tolist' of type "
        "array(int64, 1d, C); "
    )
    assert not (tmp_path / "out").exists()
