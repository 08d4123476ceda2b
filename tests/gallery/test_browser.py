"""Every kind's gallery in a real headless browser: loads from file:// without a console
error, shows every item, sorts, opens the detail view, moves with the keys, is not blank."""

from __future__ import annotations

import io
import json
import shutil

import pytest
from PIL import Image, ImageStat

from epcg_spec.output.gallery import Source, write_gallery, write_merged_gallery

from .conftest import BUILDS

KINDS = sorted(BUILDS)


def _open(browser, page):
    browser.get(page.resolve().as_uri())
    browser.get_log("browser")  # drop what an earlier page left
    browser.refresh()
    browser.execute_script(
        "return Promise.all([...document.images].filter(i => !i.complete)"
        ".map(i => new Promise(r => { i.onload = i.onerror = r; })))"
    )


def _problems(browser) -> list[str]:
    """Console errors and warnings of the page (a missing image is one, too)."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] != "INFO"]


def _shown(browser) -> list[int]:
    return browser.execute_script(
        "return [...document.querySelectorAll('#grid .card:not([hidden])')]"
        ".map(c => Number(c.dataset.i))"
    )


def _not_blank(png: bytes) -> float:
    """The standard deviation of the screenshot's grey levels (0 for a blank page)."""
    return ImageStat.Stat(Image.open(io.BytesIO(png)).convert("L")).stddev[0]


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_shows_every_item_without_a_console_error(kind, built, browser):
    folder = built[kind]
    result = json.loads((folder / "result.json").read_text())
    _open(browser, folder / "index.html")
    assert _problems(browser) == []
    assert browser.title.startswith(result["spec"])
    assert _shown(browser) == list(range(len(result["best"])))
    assert browser.find_element("id", "shown").text == (
        f"{len(result['best'])} of {len(result['best'])} shown"
    )
    pictures = browser.execute_script(
        "return [...document.querySelectorAll('#grid img')].map(i => i.naturalWidth)"
    )
    texts = browser.execute_script(
        "return [...document.querySelectorAll('#grid .pic.text')].map(p => p.textContent)"
    )
    assert len(pictures) + len(texts) == len(result["best"])
    first = browser.execute_script("return document.querySelector('#grid .pic').innerHTML")
    assert first  # a picture or a text card, never an empty tile
    if kind in ("tracery", "nested"):
        assert texts and all(texts)
    else:
        assert pictures and pictures[0] > 0  # the first picture loaded (the others are lazy)
    assert _not_blank(browser.get_screenshot_as_png()) > 20


@pytest.mark.parametrize("kind", KINDS)
def test_the_detail_view_opens_with_the_command_and_moves_with_the_keys(kind, built, browser):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    folder = built[kind]
    result = json.loads((folder / "result.json").read_text())
    _open(browser, folder / "index.html")
    card = browser.find_element("css selector", "#grid .card")
    card.click()
    dialog = browser.find_element("id", "detail")
    assert dialog.get_attribute("open") is not None
    assert browser.find_element("id", "dtitle").text.startswith(result["spec"])
    command = browser.find_element("id", "dcmd").text
    assert command.startswith("epcg-spec ") and BUILDS[kind][0] in command
    shown = json.loads(browser.find_element("id", "djson").get_attribute("textContent"))
    assert shown["state"] == result["best"][0]["state"]
    loaded = (
        "return [...document.querySelectorAll('#dbig img')]"
        ".every(i => i.complete && i.naturalWidth)"
    )
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(loaded))  # images load async
    assert _not_blank(browser.get_screenshot_as_png()) > 20
    browser.find_element("id", "copy").click()  # the clipboard write is asynchronous
    WebDriverWait(browser, 10).until(lambda b: b.find_element("id", "copy").text == "copied")
    body = browser.find_element("tag name", "body")
    if len(result["best"]) > 1:
        body.send_keys(Keys.ARROW_RIGHT)
        shown = json.loads(browser.find_element("id", "djson").get_attribute("textContent"))
        assert shown["state"] == result["best"][1]["state"]
    body.send_keys(Keys.ESCAPE)
    assert dialog.get_attribute("open") is None
    assert _problems(browser) == []


@pytest.mark.parametrize("kind", ["space", "sudoku", "fling", "ppg", "tracery"])
def test_sorting_by_a_score_reorders_the_items(kind, built, browser):
    from selenium.webdriver.support.ui import Select

    folder = built[kind]
    page = folder / "index.html"
    _open(browser, page)
    data = json.loads(
        page.read_text()
        .split('<script type="application/json" id="data">')[1]
        .split("</script>")[0]
    )
    varying = [
        name
        for name in data["scores"]
        if len({item["scores"].get(name) for item in data["items"]}) > 1
    ]
    assert varying, "a build with items that differ in some score"
    name = varying[0]
    values = [item["scores"][name] for item in data["items"]]
    high_first = sorted(range(len(values)), key=lambda i: (-values[i], i))
    Select(browser.find_element("id", "sort")).select_by_value(name)
    low_first = sorted(range(len(values)), key=lambda i: (values[i], i))
    built_order = list(range(len(values)))
    assert high_first != built_order or low_first != built_order  # the order really changes
    assert _shown(browser) == high_first
    browser.find_element("id", "dir").click()
    assert _shown(browser) == low_first
    # a filter on the same score keeps only the items in range
    low = sorted(values)[len(values) // 2]
    browser.execute_script(
        "const f = document.getElementById('field'); f.value = arguments[0];"
        "f.dispatchEvent(new Event('input'));"
        "const lo = document.getElementById('lo'); lo.value = arguments[1];"
        "lo.dispatchEvent(new Event('input'));",
        name,
        low,
    )
    assert sorted(_shown(browser)) == [i for i, v in enumerate(values) if v >= low]
    assert _problems(browser) == []


def test_the_arrow_keys_move_between_cards_and_enter_opens_one(built, browser):
    from selenium.webdriver.common.keys import Keys

    _open(browser, built["tracery"] / "index.html")
    cards = browser.find_elements("css selector", "#grid .card")
    tops = [card.rect["y"] for card in cards]
    per_row = tops.count(tops[0])
    assert 1 < per_row < len(cards)  # the test needs a second row
    cards[0].send_keys(Keys.ARROW_DOWN)
    assert browser.switch_to.active_element.get_attribute("data-i") == str(per_row)
    browser.switch_to.active_element.send_keys(Keys.ARROW_UP)
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-i") == "1"
    focused.send_keys(Keys.END)
    assert browser.switch_to.active_element.get_attribute("data-i") == str(len(cards) - 1)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert browser.find_element("id", "detail").get_attribute("open") is not None
    assert browser.find_element("id", "dtitle").text.endswith(cards[-1].text.split("\n")[-1])


def test_a_merged_page_shows_the_items_of_every_folder(built, browser, tmp_path):
    folders = [built["space"], built["sudoku"]]
    page = write_merged_gallery([Source(f) for f in folders], tmp_path / "both.html")
    _open(browser, page)
    total = sum(len(json.loads((f / "result.json").read_text())["best"]) for f in folders)
    assert len(_shown(browser)) == total
    assert len(browser.find_elements("css selector", "header.run")) == 2
    images = browser.execute_script(
        "return [...document.querySelectorAll('#grid img')].map(i => i.getAttribute('src'))"
    )
    assert all(src.startswith("../") for src in images)  # relative to the page's own folder
    assert _problems(browser) == []


def test_the_console_check_catches_a_missing_picture(built, browser, tmp_path):
    folder = tmp_path / "copy"
    shutil.copytree(built["sudoku"], folder)
    (folder / "puzzle-0.svg").unlink()  # the page still refers to it
    _open(browser, folder / "index.html")
    assert any("puzzle-0.svg" in problem for problem in _problems(browser))


def test_a_range_typed_before_choosing_a_score_filters_by_the_sorted_score(built, browser):
    from selenium.webdriver.support.ui import Select

    result = json.loads((built["fling"] / "result.json").read_text())
    _open(browser, built["fling"] / "index.html")
    Select(browser.find_element("id", "sort")).select_by_value("solutions")
    browser.find_element("id", "lo").send_keys("5")
    assert browser.find_element("id", "field").get_attribute("value") == "solutions"
    assert _shown(browser) == [i for i, b in enumerate(result["best"]) if b["solutions"] >= 5]


def test_a_build_without_items_says_so(built, browser, tmp_path):
    folder = tmp_path / "empty"
    shutil.copytree(built["rooms"], folder)
    result = json.loads((folder / "result.json").read_text())
    (folder / "result.json").write_text(json.dumps({**result, "best": [], "count": 0}))
    _open(browser, write_gallery(folder))
    assert _shown(browser) == []
    assert browser.find_element("id", "none").text == "This build has no items."
    assert _problems(browser) == []


def test_the_page_follows_the_systems_light_or_dark_setting(built, browser):
    _open(browser, built["sudoku"] / "index.html")
    colours = {}
    for scheme in ("dark", "light"):
        browser.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
        )
        colours[scheme] = browser.execute_script(
            "return [getComputedStyle(document.documentElement).backgroundColor,"
            " getComputedStyle(document.body).color]"
        )
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    def brightness(css: str) -> int:
        return sum(int(v) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])

    assert brightness(colours["dark"][0]) < 150 < brightness(colours["dark"][1])
    assert brightness(colours["light"][0]) > 600 > brightness(colours["light"][1])


def test_a_large_build_is_drawn_a_page_at_a_time(built, browser, tmp_path, monkeypatch):
    """The page draws CARDS_AT_ONCE cards, and as many more at each "show more"; a key or
    the detail view reaching past them draws the rest up to the item; sorting starts over."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from epcg_spec.output import gallery

    monkeypatch.setattr(gallery, "CARDS_AT_ONCE", 3)
    folder = tmp_path / "tracery"
    shutil.copytree(built["tracery"], folder)
    result = json.loads((folder / "result.json").read_text())
    total = len(result["best"])
    assert total > 6  # the test needs three pages
    _open(browser, write_gallery(folder))
    more = browser.find_element("id", "more")
    assert _shown(browser) == [0, 1, 2]
    assert more.text == f"show 3 more of the {total - 3} not drawn yet"
    assert browser.find_element("id", "shown").text == f"{total} of {total} shown"
    more.click()
    assert _shown(browser) == [0, 1, 2, 3, 4, 5]
    browser.find_elements("css selector", "#grid .card")[0].send_keys(Keys.END)
    assert _shown(browser) == list(range(total)) and not more.is_displayed()
    assert browser.switch_to.active_element.get_attribute("data-i") == str(total - 1)
    Select(browser.find_element("id", "sort")).select_by_value("rank")
    high_first = sorted(range(total), key=lambda i: (-result["best"][i]["rank"], i))
    assert _shown(browser) == high_first[:3]
    browser.find_elements("css selector", "#grid .card")[2].click()
    for _ in range(3):  # on to the sixth item of the order, two past the cards drawn
        browser.find_element("id", "next").click()
    browser.find_element("id", "close").click()
    focused = str(high_first[5])  # once the dialog's close event has come

    def on_it(b) -> bool:
        return b.switch_to.active_element.get_attribute("data-i") == focused

    WebDriverWait(browser, 5).until(on_it)
    assert _shown(browser) == high_first[:6]
    assert _problems(browser) == []
