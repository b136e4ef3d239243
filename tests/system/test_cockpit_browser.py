"""The cockpit in a real browser: Debian's headless Chromium driven through its chromedriver (Selenium). The
owner opens the link `taak cockpit --link` prints, sees the board, watches a new log row appear without a
reload, answers a question, and the board fits a phone's width in one column. Every page is read at a phone's
size (390x844, as the owner reads it from the sofa) and a desktop's: none is wider than its screen, every field
has its label, and no picture's label is smaller than 11 px (issue 41: tables 866 px wide on a phone, IDs over
three lines, labels of 4 px, answer and reason fields without a name)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from tests.helpers import ledger_on, run_taak

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
pytestmark = pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)),
    reason="Chromium is not installed (Debian: apt-get install chromium chromium-driver; .ci/run does)",
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(db_url: str, tmp_path: Path, known_bots: None) -> Iterator[tuple[str, dict[str, str]]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAAK_")}
    env.update(
        TAAK_DATABASE_URL=db_url,
        TAAK_DATA_DIR=str(tmp_path / "data"),
        TAAK_LANGUAGE="nl",
        TAAK_TIMEZONE="UTC",
        TAAK_OWNER="jamal",
    )
    port = free_port()
    command = [sys.executable, "-m", "worker.cli.taak", "cockpit", "--port", str(port)]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        link = subprocess.run([*command, "--link"], env=env, capture_output=True, text=True, check=True).stdout.strip()
        yield link, env
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture
def browser() -> Iterator[object]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(1200, 900)
    try:
        yield driver
    finally:
        driver.quit()


async def test_the_owner_watches_the_log_live_answers_and_reads_the_board_on_a_phone(
    served: tuple[str, dict[str, str]], browser: object, db_url: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.support.ui import WebDriverWait

    assert isinstance(browser, WebDriver)
    link, _env = served
    conn = await asyncpg.connect(db_url)
    try:
        task_id = await conn.fetchval("select taak_nieuw('Zet de foto''s online', 'jamal', 'paco')")
        await conn.execute("update agent_taken set status = 'wacht_op_mens' where id = $1", task_id)
        await conn.execute(
            "insert into agent_taak_log (taak_id, bot, soort, tekst) values ($1, 'paco', 'vraag', 'welk album?')",
            task_id,
        )
        browser.get(link)
        bots = browser.find_element(By.ID, "bots")
        assert "paco" in bots.text
        assert "token" not in browser.current_url  # the link's token went into a cookie
        browser.find_element(By.LINK_TEXT, task_id).click()
        assert "welk album?" in browser.find_element(By.ID, "answer").text
        await conn.execute(
            "insert into agent_taak_log (taak_id, bot, soort, tekst) values ($1, 'jamal', 'notitie', 'net binnen')",
            task_id,
        )
        WebDriverWait(browser, 15).until(lambda b: "net binnen" in b.find_element(By.ID, "log-rows").text)
        browser.find_element(By.CSS_SELECTOR, "#answer textarea").send_keys("album Zomer")
        browser.find_element(By.ID, "send-answer").click()
        WebDriverWait(browser, 15).until(lambda b: b.find_elements(By.ID, "message"))
        assert await conn.fetchval("select status from agent_taken where id = $1", task_id) == "wachtend"
        row = await conn.fetchrow(
            "select bot, soort, tekst from agent_taak_log where taak_id = $1 order by id desc limit 1", task_id
        )
        assert (row["bot"], row["soort"], row["tekst"]) == ("jamal", "antwoord", "album Zomer")
        browser.get(link.split("?")[0])
        wide = [browser.find_element(By.ID, f"pictures-{n}").location["x"] for n in (1, 2)]
        browser.set_window_size(390, 844)
        browser.get(link.split("?")[0])
        narrow = [browser.find_element(By.ID, f"pictures-{n}").location["x"] for n in (1, 2)]
        assert wide[0] != wide[1]  # side by side on a wide screen
        assert narrow[0] == narrow[1]  # one column on a phone
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        shot = Path(os.environ.get("TAAK_COCKPIT_SCREENSHOT") or tmp_path / "board.png")
        assert browser.save_screenshot(str(shot))
        assert shot.stat().st_size > 10_000
    finally:
        await conn.close()


PHONE, DESKTOP = (390, 844, True), (1280, 900, False)

# What a page must never be: wider than its screen (anything that scrolls sideways counts), a field without a label
# (label[for], a wrapping label, or aria-label), a picture's label under 11 px, an ID broken over lines, or anything
# reaching past its card (a row on a phone, else its section).
PAGE_FAULTS = """
const faults = [];
const width = window.innerWidth;
if (document.documentElement.scrollWidth > width) {
  faults.push('page ' + document.documentElement.scrollWidth + ' px wide on a screen of ' + width);
}
document.querySelectorAll('body *').forEach(function (e) {
  const style = getComputedStyle(e);
  if (['auto', 'scroll'].includes(style.overflowX) && e.scrollWidth > e.clientWidth + 1) {
    faults.push('scrolls sideways: ' + e.tagName + '#' + e.id + ' ' + e.scrollWidth + ' > ' + e.clientWidth);
  }
  if (e.getBoundingClientRect().right > width + 1 && style.position !== 'fixed') {
    faults.push('beyond the screen: ' + e.tagName + ' ' + (e.textContent || '').slice(0, 30));
  }
});
document.querySelectorAll('section *').forEach(function (e) {
  const card = e.closest('tr') || e.closest('section');
  const r = e.getBoundingClientRect();
  if (card !== e && r.width > 0 && r.right > card.getBoundingClientRect().right + 1) {
    faults.push('beyond its card: ' + e.tagName + ' ' + (e.textContent || '').slice(0, 30));
  }
});
document.querySelectorAll('input, textarea, select').forEach(function (e) {
  if (e.type === 'hidden') { return; }
  if (!(e.labels && e.labels.length) && !e.getAttribute('aria-label')) {
    faults.push('no label: ' + e.outerHTML);
  }
});
document.querySelectorAll('svg.chart text').forEach(function (t) {
  const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
  if (px < 11) { faults.push('picture label of ' + px.toFixed(1) + ' px: ' + t.textContent); }
});
document.querySelectorAll('a.id').forEach(function (a) {
  if (a.getClientRects().length > 1) { faults.push('ID over lines: ' + a.textContent); }
});
return faults;
"""


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
async def test_every_page_fits_its_screen_labels_every_field_and_draws_readable_pictures(
    served: tuple[str, dict[str, str]], browser: object, db_url: str, screen: tuple[int, int, bool]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver

    assert isinstance(browser, WebDriver)
    width, height, mobile = screen
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 3 if mobile else 1, "mobile": mobile},
    )
    link, env = served
    conn = await asyncpg.connect(db_url)
    try:
        await conn.execute("update agent_bots set actief = true")
        await conn.execute(
            "update agent_bots set machine = 'McMini-Veranda-keukenhof.local', versie = '0.1.0', laatst_gezien = now()"
        )
        await conn.execute("update agent_bots set versie = '0.0.9' where bot = 'coco'")
        ledger = ledger_on(conn, machine="McMini-Veranda-keukenhof.local")
        for bot, sessions in (("paco", 1), ("coco", 2), ("sjakie", 1)):  # ratios 1, 2 and 1 on one day
            task_id = await conn.fetchval("select taak_nieuw($1, 'jamal', $2)", f"Klus van {bot}", bot)
            for n in range(sessions):
                claimed = await ledger.claim([bot])
                assert claimed is not None
                token = claimed.task.lease_token or ""
                if n < sessions - 1:
                    assert await ledger.vrijgeven_poging_terug(task_id, token, reden="x", sessie=None)
            await ledger.klaar(task_id, "/tmp/bewijs", "klaar", token=token)
        asked = await conn.fetchval("select taak_nieuw('Zet de foto''s van de veranda online', 'jamal', 'paco')")
        claimed = await ledger.claim(["paco"])
        assert claimed is not None
        await ledger.blokkeer(asked, "Welk album, Zomer of Winter?", token=claimed.task.lease_token or "")
        # A long owner's name in the log and a long word in a title (the outside try: 425 and 549 px on a phone).
        assert run_taak(env, "eigenaar", "zet", "Marieke van den Berg-Oosterhout").code == 0
        assert run_taak(env, "log", asked, "notitie", "ok, dank je").code == 0
        long_word = "Donaudampfschifffahrtsgesellschaftskapitänswitwenrentenauszahlungsstelle"
        held = await conn.fetchval("select taak_nieuw($1, 'jamal', 'kimi')", f"Een lange klus: {long_word}")
        assert await ledger.claim(["kimi"]) is not None
        await conn.fetchval("select taak_nieuw('Een tweede klus', 'jamal', 'kimi')")
        assert await ledger.claim(["kimi"]) is not None  # a bot holding two tasks: two IDs on its card
        browser.get(link)
        for page in ("/", f"/taak/{asked}", f"/taak/{held}"):
            browser.get(link.split("?")[0].rstrip("/") + page)
            assert browser.execute_script("return window.innerWidth") == width
            assert browser.execute_script(PAGE_FAULTS) == [], page
        browser.get(link.split("?")[0])
        bot_row = browser.find_element(By.CSS_SELECTOR, 'tr.bot[data-bot="coco"]')
        shown_as = browser.execute_script("return getComputedStyle(arguments[0]).display", bot_row)
        assert shown_as == ("block" if mobile else "table-row")  # a card per bot on a phone, a table row beside
        assert "0.0.9" in bot_row.text  # its daemon's version, flagged as not the newest
        assert "0.1.0" in bot_row.text
    finally:
        await conn.close()


async def test_the_owner_reviews_the_backlog_on_a_phone_and_takes_in_a_checked_card(
    served: tuple[str, dict[str, str]], browser: object, db_url: str, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.support.ui import WebDriverWait

    assert isinstance(browser, WebDriver)
    link, _env = served
    conn = await asyncpg.connect(db_url)
    try:
        await conn.execute(
            "create table agent_messages (id serial primary key, sender text, recipient text, content text, "
            "status text, created_at timestamptz, task_id text, parent_id text)"
        )
        await conn.execute(
            "insert into agent_messages (sender, recipient, content, status, created_at) values "
            "('conductor', 'paco', $1, 'pending', now() - interval '90 days'), "
            "('kimi', 'sjakie', 'Oude vraag', 'pending', now() - interval '60 days')",
            "Zet de foto's van de veranda online, met een lange regel die op een telefoon moet afbreken " * 3,
        )
        width, height, _ = PHONE
        metrics = {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True}
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        browser.get(link)
        browser.find_element(By.CSS_SELECTOR, "#backlog-link a").click()
        cards = browser.find_elements(By.CSS_SELECTOR, "li.card")
        assert len(cards) == 2
        assert browser.execute_script(PAGE_FAULTS) == []  # as narrow as the phone, every box labelled
        cards[0].find_element(By.TAG_NAME, "label").click()  # the label checks its box
        assert cards[0].find_element(By.CSS_SELECTOR, "input[type=checkbox]").is_selected()
        shot = Path(os.environ.get("TAAK_BACKLOG_SCREENSHOT") or tmp_path / "backlog.png")
        assert browser.save_screenshot(str(shot))
        browser.find_element(By.ID, "take-in").click()
        WebDriverWait(browser, 15).until(lambda b: b.find_elements(By.ID, "message"))
        assert "1 bericht binnengehaald" in browser.find_element(By.ID, "message").text
        assert len(browser.find_elements(By.CSS_SELECTOR, "li.card")) == 1
        assert await conn.fetchval("select toegewezen_aan from agent_taken") == "paco"
    finally:
        await conn.close()
