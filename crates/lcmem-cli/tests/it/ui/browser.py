"""Drives `lcmem ui` in headless Chromium as a person would (see browser.rs).

usage: browser.py URL CHROMEDRIVER CHROMIUM SHOTS_DIR WRONG_FACT POISON CONVENTION PIN_SESSION FORGET_SESSION

Prints one JSON line last: {"ok": true, "hits": N, "steps": [...]}. Any failed
expectation raises, which exits non-zero with the traceback on stderr.
"""

import json
import os
import sys

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

url, driver_path, browser_path, shots, wrong, poison, convention, pin_session, forget_session = sys.argv[1:10]
origin = url.split("/?")[0]
steps = []


def step(text):
    steps.append(text)
    print(text, file=sys.stderr)


def shot(name):
    if shots:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1200, max(700, min(height + 160, 2400)))
        driver.save_screenshot(os.path.join(shots, name + ".png"))
        driver.set_window_size(1200, 900)


def shot_phone(name):
    """The page at a phone's width (390 px): nothing may stick out sideways."""
    driver.set_window_size(390, 844)
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, "%s is %d px wider than a phone's screen" % (name, overflow)
    if shots:
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(390, max(844, min(height + 160, 2400)))
        driver.save_screenshot(os.path.join(shots, name + ".png"))
    driver.set_window_size(1200, 900)


def go(path):
    driver.get(origin + path)
    no_script_ran()


def no_script_ran():
    try:
        alert = driver.switch_to.alert
        raise AssertionError("an alert opened: " + alert.text)
    except NoAlertPresentException:
        pass
    assert driver.execute_script("return window.__pwned === undefined"), "a script from memory ran"


def replaced(old):
    """Whether the page that held `old` has been replaced. Asked while the next
    page loads, chromedriver may answer that the node no longer belongs to the
    document instead of calling it stale: both say the page is gone."""

    def check(_driver):
        try:
            old.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as e:
            if "does not belong to the document" in str(e):
                return True
            raise

    return check


def navigate_by(element):
    """Clicks `element` and waits until the page it leads to has replaced this one."""
    old = driver.find_element(By.TAG_NAME, "html")
    element.click()
    WebDriverWait(driver, 10).until(replaced(old))
    no_script_ran()


def click(scope, label):
    buttons = [b for b in scope.find_elements(By.TAG_NAME, "button") if b.text.strip() == label]
    assert buttons, "no button %r in %s" % (label, scope.text[:300])
    navigate_by(buttons[0])


def card(text):
    """The first fact card whose text is `text`."""
    for article in driver.find_elements(By.CSS_SELECTOR, "article.fact"):
        if article.find_element(By.CSS_SELECTOR, ".text").text == text:
            return article
    raise AssertionError("no fact card %r on %s" % (text, driver.current_url))


def flash():
    found = WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".flash"), driver.page_source)
    return found[0].text


options = webdriver.ChromeOptions()
options.binary_location = browser_path
for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900", "--disable-gpu"]:
    options.add_argument(arg)
driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
try:
    # The printed URL: the token becomes a cookie and leaves the address bar.
    driver.get(url)
    assert driver.current_url == origin + "/", driver.current_url
    assert wrong in driver.find_element(By.ID, "digest").text, "the fact starts in the digest"
    assert driver.find_elements(By.CSS_SELECTOR, "#digest h3"), "the digest reads as a document, with its sections"
    sent = driver.find_element(By.ID, "digest-text").get_attribute("textContent")
    assert "<project-memory" in sent and "<!--" not in sent, "the plain text is what a session is given, no comment"
    no_script_ran()
    step("opened the printed URL: the digest as a document, with the fact to correct in it")
    shot("digest")
    shot_phone("digest-phone")

    # The poisoned fact is shown as text; no element came of it.
    go("/facts")
    poisoned = card(poison)
    assert not poisoned.find_elements(By.CSS_SELECTOR, "img, script"), "markup from memory became elements"
    assert driver.find_elements(By.CSS_SELECTOR, "main img, main script") == []
    step("facts: the poisoned fact reads as text, no script ran, no image element")
    # Sources are named by their session's title and day, linked to the session.
    sources = driver.find_elements(By.CSS_SELECTOR, "article.fact .sources a")
    assert sources, "no fact names a session"
    source = sources[0]
    session_id = source.get_attribute("href").rsplit("/", 1)[1]
    assert session_id not in source.text and "(" in source.text, "a source shows its id: %r" % source.text
    # The new wording opens on demand.
    wording = card(wrong).find_element(By.CSS_SELECTOR, "details.edit input[name=text]")
    assert not wording.is_displayed(), "the edit box is open before it is asked for"
    card(wrong).find_element(By.CSS_SELECTOR, "details.edit summary").click()
    assert card(wrong).find_element(By.CSS_SELECTOR, "details.edit input[name=text]").is_displayed()
    step("facts: sources named by session title and day (%r); the edit box opens on demand" % source.text)
    go("/facts")
    shot("facts")
    shot_phone("facts-phone")

    # Not true: it leaves the digest preview.
    click(card(wrong), "Not true")
    assert "marked not true" in flash(), flash()
    assert "gone" in card(wrong).get_attribute("class")
    go("/")
    assert wrong not in driver.find_element(By.ID, "digest").text, "it left the digest"
    step("clicked Not true on the fact: it faded on Facts and left the digest preview")

    # Waiting for you: confirm the withheld convention.
    go("/waiting")
    shot("waiting")
    waiting = [w for w in driver.find_elements(By.CSS_SELECTOR, ".waiting") if convention in w.text]
    assert waiting, "the convention waits"
    assert "line" in waiting[0].find_element(By.CSS_SELECTOR, ".origin").text, "it names the line it came from"
    click(waiting[0], "Confirm")
    assert "confirmed" in flash(), flash()
    assert not [w for w in driver.find_elements(By.CSS_SELECTOR, ".waiting") if convention in w.text], "still waiting"
    go("/facts")
    assert "confirmed" in card(convention).find_element(By.CSS_SELECTOR, ".badge").text
    step("waiting: confirmed the withheld convention; it left the list and is confirmed on Facts")

    # Journal: pin a session.
    go("/journal")
    entry = driver.find_element(By.CSS_SELECTOR, "li.entry[data-session='%s']" % pin_session)
    click(entry, "Pin")
    assert "pinned " + pin_session in flash(), flash()
    entry = driver.find_element(By.CSS_SELECTOR, "li.entry[data-session='%s']" % pin_session)
    assert "pinned" in entry.get_attribute("class"), entry.get_attribute("class")
    assert [b for b in entry.find_elements(By.TAG_NAME, "button") if b.text == "Unpin"]
    step("journal: pinned a session; it shows pinned with an Unpin button")
    shot("journal")

    # Sessions: open one, then forget it after reading what goes.
    go("/sessions")
    shot("sessions")
    navigate_by(driver.find_element(By.CSS_SELECTOR, "tr[data-session='%s'] a" % forget_session))
    labels = [p.text for p in driver.find_elements(By.CSS_SELECTOR, ".turn .label")]
    assert any(l.startswith("User") for l in labels) and any(l.startswith("Assistant") for l in labels), labels
    assert driver.find_elements(By.ID, "journal-line"), "the session's page shows its journal line"
    shot("session")
    navigate_by(driver.find_element(By.LINK_TEXT, "Forget…"))
    plan = driver.find_element(By.ID, "forget-plan").text
    assert "journal line(s)" in plan and "the transcript" in plan, plan
    shot("forget")
    click(driver.find_element(By.TAG_NAME, "main"), "Forget this session for good")
    assert "forgot " + forget_session in flash(), flash()
    assert not driver.find_elements(By.CSS_SELECTOR, "tr[data-session='%s']" % forget_session)
    step("sessions: opened a transcript, read the forget listing, forgot it; it left the list")

    # Recall: type a query, read cited hits.
    go("/recall")
    box = driver.find_element(By.NAME, "q")
    box.send_keys("webhooks")
    click(driver.find_element(By.CSS_SELECTOR, "form.search"), "Search")
    hits = driver.find_elements(By.CSS_SELECTOR, "ol.hits li.hit")
    assert hits, "no hits"
    assert hits[0].find_elements(By.TAG_NAME, "mark"), "the match is highlighted"
    assert ".jsonl:" in hits[0].find_element(By.TAG_NAME, "code").text, "a hit is cited"
    step("recall: searched 'webhooks', %d cited hits with their state" % len(hits))
    shot("recall")

    go("/settings")
    assert "on" in driver.find_element(By.ID, "memory-state").text
    shot("settings")
    step("settings: memory on, consolidate and undo offered")
    print(json.dumps({"ok": True, "hits": len(hits), "steps": steps}))
finally:
    driver.quit()
