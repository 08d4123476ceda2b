"""The PDF booklet of Sudoku puzzles: pages, text, a rendered page that is not blank."""

from __future__ import annotations

import io
import json
import os
import shutil

import pytest
from PIL import Image, ImageStat

from epcg_spec.cli.main import main
from epcg_spec.output.booklet import booklet_pdf

pypdf = pytest.importorskip("pypdf")
pdfium = pytest.importorskip("pypdfium2")
pytest.importorskip("fpdf")


def _result(built) -> dict:
    return json.loads((built["sudoku"] / "result.json").read_text())


def test_puzzles_come_first_then_solutions_with_the_grade(built, tmp_path):
    result = _result(built)
    many = {**result, "puzzles": result["puzzles"] * 3}  # 9 puzzles: 3 pages of each part
    path = tmp_path / "many.pdf"
    path.write_bytes(booklet_pdf(many, built["sudoku"]))
    pages = pypdf.PdfReader(path).pages
    assert len(pages) == 6
    texts = [page.extract_text() for page in pages]
    assert all(f"{result['spec']}: puzzles" in t for t in texts[:3])
    assert all(f"{result['spec']}: solutions" in t for t in texts[3:])
    first = result["puzzles"][0]
    assert f"Puzzle 1 · {first['clues']} clues · grade {first['grade']}" in texts[0]
    assert "Puzzle 5 " in texts[1] and "Puzzle 9 " in texts[2] and "Solution 9 " in texts[5]
    # the captions hold the same numbers; the grids differ: clues only, then every cell
    clues = sum(p["clues"] for p in many["puzzles"][:4])
    cells = 4 * len(first["solution"]) ** 2
    digits = [sum(c.isdigit() for c in text) for text in (texts[0], texts[3])]
    assert digits[1] - digits[0] == cells - clues


def test_the_command_writes_the_booklet_and_the_page_links_it(built, capsys, tmp_path):
    folder = tmp_path / "sudoku"
    shutil.copytree(built["sudoku"], folder)  # the shared build keeps its own page
    assert main(["gallery", str(folder), "--print"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"booklet: {folder / 'puzzles.pdf'}"
    reader = pypdf.PdfReader(folder / "puzzles.pdf")
    assert len(reader.pages) == 2  # three puzzles fit one page, their solutions another
    assert "puzzles.pdf" in (folder / "index.html").read_text()
    first = (folder / "puzzles.pdf").read_bytes()
    assert main(["gallery", str(folder), "--print"]) == 0
    assert (folder / "puzzles.pdf").read_bytes() == first  # no date, no random id


def test_a_rendered_page_is_not_blank(built):
    document = pdfium.PdfDocument(booklet_pdf(_result(built), built["sudoku"]))
    image = document[0].render(scale=1).to_pil().convert("L")
    document.close()
    assert abs(image.width - 595) <= 1 and abs(image.height - 842) <= 1  # A4 at 72 dpi
    assert ImageStat.Stat(image).stddev[0] > 20
    dark = sum(image.histogram()[:128])
    assert 0.005 < dark / (image.width * image.height) < 0.5  # ink, but not a black page


@pytest.mark.parametrize("kind", ["witness", "fling"])
def test_panels_and_boards_print_from_their_pictures(kind, built):
    folder = built[kind]
    result = json.loads((folder / "result.json").read_text())
    pdf = booklet_pdf(result, folder)
    assert booklet_pdf(result, folder) == pdf
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == 2  # at most four pictures each: one page of puzzles, one of solutions
    puzzles, solutions = (page.extract_text() for page in pages)
    assert f"{result['spec']}: puzzles" in puzzles and f"{result['spec']}: solutions" in solutions
    best = result["best"]
    assert all(f"Solution {k}" in solutions for k in range(1, len(best) + 1))
    if kind == "fling":
        first = best[0]
        assert f"Board 1 · {first['state']['pieces']} pieces · rank {first['rank']}" in puzzles
        assert f"1. {first['solution'][0]}" in solutions  # the moves are printed with it
    document = pdfium.PdfDocument(pdf)
    for k in range(2):  # both pages carry pictures, not only their captions
        image = document[k].render(scale=1).to_pil().convert("L")
        dark = sum(image.histogram()[:128]) / (image.width * image.height)
        assert dark > 0.02 and ImageStat.Stat(image).stddev[0] > 20
    document.close()


EDITED = {  # kind -> an edit of its result.json that the booklet could not print
    "sudoku": lambda r: {**r, "puzzles": [{**p, "puzzle": p["puzzle"][:-1]} for p in r["puzzles"]]},
    "fling": lambda r: {**r, "board": {"width": 10**7, "height": 5}},  # filled the memory
    "witness": lambda r: {k: v for k, v in r.items() if k != "spec"},
}


@pytest.mark.parametrize("kind", sorted(EDITED))
def test_an_edited_result_is_named_in_one_line_not_printed(kind, built, tmp_path, capsys):
    folder = tmp_path / kind
    shutil.copytree(built[kind], folder)
    result = folder / "result.json"
    result.write_text(json.dumps(EDITED[kind](json.loads(result.read_text()))))
    assert main(["gallery", str(folder), "--print"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {result}: not a result.json written by epcg-spec (")
    assert len(err.splitlines()) == 1
    assert not (folder / "puzzles.pdf").exists()


def test_a_fling_picture_that_is_a_pipe_is_refused_not_read(built, tmp_path, capsys):
    """A pipe in the place of a picture the booklet copies was read forever."""
    folder = tmp_path / "fling"
    shutil.copytree(built["fling"], folder)
    picture = folder / "board-0.svg"
    picture.unlink()
    os.mkfifo(picture)
    assert main(["gallery", str(folder), "--print"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {picture}: cannot read this picture (")


def test_a_fling_picture_that_is_a_link_is_refused_not_read(built, tmp_path, capsys):
    """A link in the place of a picture put a picture from elsewhere into the PDF."""
    folder = tmp_path / "fling"
    shutil.copytree(built["fling"], folder)
    picture = folder / "board-0.svg"
    (tmp_path / "private.svg").write_bytes(picture.read_bytes())
    picture.unlink()
    picture.symlink_to(tmp_path / "private.svg")
    assert main(["gallery", str(folder), "--print"]) == 1
    assert capsys.readouterr().err == (
        f"error: {picture}: cannot read this picture (a symbolic link; a build writes none)\n"
    )
    assert not (folder / "puzzles.pdf").exists()


PICTURES = {  # what the booklet refused to draw, or drew with a file from elsewhere
    "not XML": "<svg garbage",
    "a size fpdf2 cannot read": '<svg xmlns="http://www.w3.org/2000/svg" width="1e9"/>',
    "an image from elsewhere": (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="9" height="9"><image xlink:href="OTHER" width="9" height="9"/></svg>'
    ),
}


@pytest.mark.parametrize("picture", sorted(PICTURES))
def test_a_fling_picture_the_booklet_cannot_draw_is_named(picture, built, tmp_path, capsys):
    other = tmp_path / "other.png"
    Image.new("RGB", (4, 4), (255, 0, 0)).save(other)
    folder = tmp_path / "fling"
    shutil.copytree(built["fling"], folder)
    drawn = folder / "board-0.svg"
    drawn.write_text(PICTURES[picture].replace("OTHER", str(other)))
    assert main(["gallery", str(folder), "--print"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {drawn}: cannot draw this picture (")
    assert len(err.splitlines()) == 1
    assert not (folder / "puzzles.pdf").exists()
