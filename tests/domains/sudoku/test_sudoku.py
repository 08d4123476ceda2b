"""Sudoku through the CLI: unique and minimal puzzles, grades, known puzzles, known counts."""

from __future__ import annotations

import json

import pytest
import yaml

from epcg_spec.cli.main import main
from epcg_spec.domains.sudoku.model import DIGITS
from tests.oracles.sudoku_oracle import (
    HARD,
    count_solutions,
    is_valid_solution,
    parse,
    solved_by_singles,
)


@pytest.fixture
def run(tmp_path, capsys):
    def run(command: str, **fields) -> tuple[int, dict | None, str]:
        spec = tmp_path / "sudoku.yaml"
        spec.write_text(yaml.safe_dump({"kind": "sudoku", "name": "s", **fields}))
        out = tmp_path / "out"
        args = [command, str(spec), "--json"] + (["--out", str(out)] if command == "build" else [])
        code = main(args)
        captured = capsys.readouterr()
        result = json.loads(captured.out) if code == 0 else None
        return code, result, captured.err

    return run


def grid(rows: list[str]) -> list[int]:
    return [-1 if ch == "." else DIGITS.index(ch) for row in rows for ch in row]


@pytest.mark.parametrize("box,known", [(2, 288)])
def test_complete_grids_are_counted(run, box, known):
    code, result, _ = run("count", box=box)
    assert code == 0 and result["count"] == known and result["complete"]


def test_the_count_line_names_one_solution_in_the_singular(tmp_path, capsys):
    spec = tmp_path / "s.yaml"
    spec.write_text(yaml.safe_dump({"kind": "sudoku", "name": "s", "puzzle": HARD["ai-escargot"]}))
    assert main(["count", str(spec)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "s: 1 solution"


def test_one_puzzle_and_one_attempt_are_said_in_the_singular(tmp_path, capsys):
    spec = tmp_path / "s.yaml"
    spec.write_text(yaml.safe_dump({"kind": "sudoku", "name": "s", "box": 2, "seed": 1}))
    assert main(["explain", str(spec)]) == 0
    assert "generate 1 puzzle, removing clues while any clue can go" in capsys.readouterr().out
    assert main(["build", str(spec), "--out", str(tmp_path / "out"), "-q"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(" checks, 1 attempt)")


def test_counting_stops_at_the_limit(run):
    _, result, _ = run("count", box=3, limit=5)
    assert result["count"] == 5 and not result["complete"]


@pytest.mark.parametrize("name", sorted(HARD))
def test_hard_puzzles_are_solved_and_proved_unique(run, name):
    code, result, _ = run("build", puzzle=HARD[name])
    record = result["puzzles"][0]
    assert code == 0 and record["unique"] and record["grade"] == "search"
    puzzle, solution = parse(HARD[name]), grid(record["solution"])
    assert is_valid_solution(puzzle, solution, 3)
    assert count_solutions(puzzle, 3, 2) == 1


def test_a_puzzle_with_two_solutions_is_reported_not_unique(run):
    puzzle = list(HARD["ai-escargot"])
    puzzle[0] = "."
    code, result, _ = run("build", puzzle="".join(puzzle))
    assert code == 0 and not result["puzzles"][0]["unique"]


@pytest.mark.parametrize("box,puzzles", [(2, 6), (3, 4)])
def test_generated_puzzles_are_unique_and_minimal(run, box, puzzles):
    code, result, _ = run("build", box=box, seed=3, generate={"puzzles": puzzles})
    assert code == 0
    for record in result["puzzles"]:
        puzzle, solution = grid(record["puzzle"]), grid(record["solution"])
        assert record["clues"] == sum(v >= 0 for v in puzzle)
        assert is_valid_solution(puzzle, solution, box)
        assert count_solutions(puzzle, box, 2) == 1
        for cell in (c for c, v in enumerate(puzzle) if v >= 0):
            fewer = list(puzzle)
            fewer[cell] = -1
            assert count_solutions(fewer, box, 2) == 2


def test_generation_repeats_with_the_seed(run):
    first = run("build", seed=8, generate={"puzzles": 2})[1]["puzzles"]
    again = run("build", seed=8, generate={"puzzles": 2})[1]["puzzles"]
    assert [r["puzzle"] for r in first] == [r["puzzle"] for r in again]


def test_a_clue_target_and_symmetric_removal(run):
    _, result, _ = run("build", seed=1, generate={"clues": 36, "symmetric": True, "puzzles": 2})
    for record in result["puzzles"]:
        puzzle = grid(record["puzzle"])
        assert record["clues"] in (36, 37)
        assert all((puzzle[c] >= 0) == (puzzle[80 - c] >= 0) for c in range(81))
        assert count_solutions(puzzle, 3, 2) == 1


@pytest.mark.parametrize("difficulty,hidden", [("naked", False), ("hidden", True)])
def test_difficulty_grades_match_what_singles_solve(run, difficulty, hidden):
    _, result, _ = run("build", seed=2, generate={"difficulty": difficulty, "puzzles": 2})
    for record in result["puzzles"]:
        puzzle = grid(record["puzzle"])
        assert record["grade"] == difficulty
        assert solved_by_singles(puzzle, 3, hidden)
        assert hidden or solved_by_singles(puzzle, 3, False)
        assert count_solutions(puzzle, 3, 2) == 1


def test_search_difficulty_needs_a_guess(run):
    _, result, _ = run("build", seed=4, generate={"difficulty": "search"})
    puzzle = grid(result["puzzles"][0]["puzzle"])
    assert not solved_by_singles(puzzle, 3, True)
    assert count_solutions(puzzle, 3, 2) == 1


def test_a_sixteen_by_sixteen_puzzle(run):
    _, result, _ = run("build", box=4, seed=1, generate={"clues": 150})
    record = result["puzzles"][0]
    puzzle, solution = grid(record["puzzle"]), grid(record["solution"])
    assert record["clues"] == 150
    assert is_valid_solution(puzzle, solution, 4)
    assert count_solutions(puzzle, 4, 2) == 1


@pytest.mark.parametrize(
    "fields,message",
    [
        ({"puzzle": "12x"}, "'x' is not a digit of a 9 x 9 grid"),
        ({"puzzle": "123"}, "the puzzle has 3 cells, a 9 x 9 grid has 81"),
        (
            {"box": 2, "puzzle": "1" * 81},
            "the puzzle has 81 cells, a 4 x 4 grid has 16; give 16 cells or box: 3",
        ),
        (
            {"puzzle": ["12 34", "34 12", "21 43", "43 21"]},
            "the puzzle has 4 rows but box: 3 (the default) makes a 9 x 9 grid; "
            "give 9 rows of 9 cells or box: 2",
        ),
        (
            {"puzzle": ["1" + "." * 8] + ["." * 9] * 7 + ["1" + "." * 8]},
            "the puzzle has two 1s in column 1 (r1c1 and r9c1)",
        ),
        (
            {"box": 2, "puzzle": ["...2", "..2.", "....", "...."]},
            "the puzzle has two 2s in box 2 (r1c4 and r2c3)",
        ),
        ({"generate": {"minimal": True, "symmetric": True}}, "minimal only clue pair by clue pair"),
        ({"box": 5}, "box is 5, out of range: it must be <= 4"),
        ({"generate": {"puzzle": 1}}, "unknown key 'puzzle'"),
    ],
)
def test_bad_specs_give_one_located_line(run, fields, message):
    code, _, err = run("build", **fields)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and message in lines[0]
    assert "sudoku.yaml:" in lines[0] and "Traceback" not in err


def test_a_cell_of_a_dsl_puzzle_is_located_past_its_escapes(tmp_path, capsys):
    """The DSL writes a puzzle's lines in one string, `\\n` between them: a problem in it
    was placed at the string's start."""
    spec = tmp_path / "dup.epcg"
    spec.write_text('kind: sudoku\nbox: 2\npuzzle: "12..\\n..1.\\n.2..\\n...."\n')
    assert main(["validate", "--quiet", str(spec)]) == 1
    assert capsys.readouterr().out.startswith(f"{spec}:3:23: the puzzle has two 2s in column 2")
