"""The page of `foldcheck web` in a real browser: headless Chromium types queries key by key (fast,
and with backspaces), and this reads what the page shows.

    test_search_page.py --foldcheck .build/release/foldcheck --out .build-wasm/test-output

It writes a page for the lines below plus the english test corpus's lines (up to 20,000; so a
search has some work), and checks: `creme bru` finds and highlights "Crème brûlée", `lodz` finds
"Łódź", `がいど` finds "ガイド", substring mode, Enter searching before the quiet period ends, no
stale result after the last keystroke, a file that is not UTF-8 named with its line and byte
offset; and saves a screenshot (search-page.png) in the output folder. Exit 0 when all pass."""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

LINES = [
    "Crème brûlée with salted caramel",
    "Straße in Łódź",
    "ガイドブック: 東京",
    "Green Doors",
    "Doors of green",
    "Smørrebrød and æbleskiver",
    "Ἀθῆναι, Athens",
    "İstanbul'da bir gün",
]

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def wait_idle(driver, query, timeout=10.0):
    """Waits until the page shows results for `query` and has nothing pending."""
    end = time.time() + timeout
    while time.time() < end:
        shown = driver.execute_script("return document.getElementById('results').dataset.query")
        if shown == query:
            time.sleep(0.4)  # longer than the longest quiet period: anything pending would show
            if driver.execute_script("return document.getElementById('results').dataset.query") == query:
                return True
        time.sleep(0.02)
    return False


def results(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#results .result')].map(li => ({
            text: li.textContent, marks: [...li.querySelectorAll('mark')].map(m => m.textContent)}));""")


def type_keys(driver, box, keys, delay):
    for key in keys:
        box.send_keys(key)
        if delay:
            time.sleep(delay)
    return driver.execute_script("return performance.now()")


def clear(driver, box):
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    wait_idle(driver, "")


def stale_after(driver, since, query):
    renders = driver.execute_script("return window.foldPage.renders")
    return [r for r in renders if r["at"] >= since and r["query"] != query]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--foldcheck", required=True)
    parser.add_argument("--corpus", default=None, help="more lines (default: .build-wasm/corpora/english.txt)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    lines_path = os.path.join(args.out, "lines.txt")
    corpus = args.corpus or os.path.join(os.path.dirname(args.out), "corpora", "english.txt")
    with open(lines_path, "w", encoding="utf-8") as f:
        f.write("\n".join(LINES) + "\n")
        with open(corpus, encoding="utf-8") as c:
            for k, line in enumerate(c):
                if k >= 20000:
                    break
                f.write(line)
    site = os.path.join(args.out, "site")
    subprocess.run([args.foldcheck, "web", site, lines_path, "--title", "Fold search: a test page"], check=True)
    bad = os.path.join(args.out, "not-utf8.txt")
    with open(bad, "wb") as f:
        f.write(b"fine\nCaf\xe9 au lait\n")

    driver = chromium.start()
    try:
        driver.get(chromium.file_url(os.path.join(site, "index.html")))
        end = time.time() + 30
        while time.time() < end and not driver.execute_script("return window.foldPage && window.foldPage.ready"):
            time.sleep(0.05)
        check(driver.execute_script("return window.foldPage.ready"), "the page loads fold.wasm and indexes its lines from file://")
        build_ms = driver.execute_script("return window.foldPage.buildMs")
        count = driver.execute_script("return window.foldPage.lines.length")
        print(f"     index of {count} lines built in {build_ms:.0f} ms")
        box = driver.find_element(By.ID, "query")

        # creme bru, typed at a fast typist's pace: Crème brûlée, both words highlighted.
        last = type_keys(driver, box, "creme bru", 0.03)
        check(wait_idle(driver, "creme bru"), "results for 'creme bru' appear")
        found = [r for r in results(driver) if r["text"] == "Crème brûlée with salted caramel"]
        check(len(found) == 1, "'creme bru' finds 'Crème brûlée with salted caramel'")
        check(found and found[0]["marks"] == ["Crème", "brû"], f"the original text is highlighted: {found[0]['marks'] if found else None}")
        check(not stale_after(driver, last, "creme bru"), "no stale result after the last keystroke of 'creme bru'")
        driver.save_screenshot(os.path.join(args.out, "search-page.png"))

        clear(driver, box)
        last = type_keys(driver, box, "lodz", 0.03)
        check(wait_idle(driver, "lodz"), "results for 'lodz' appear")
        found = [r for r in results(driver) if r["text"] == "Straße in Łódź"]
        check(found and found[0]["marks"] == ["Łódź"], f"'lodz' finds and highlights Łódź: {found}")
        check(not stale_after(driver, last, "lodz"), "no stale result after 'lodz'")

        clear(driver, box)
        last = type_keys(driver, box, "がいど", 0.03)
        check(wait_idle(driver, "がいど"), "results for 'がいど' appear")
        found = [r for r in results(driver) if r["text"].startswith("ガイドブック")]
        check(found and found[0]["marks"] == ["ガイド"], f"'がいど' finds and highlights ガイド: {found}")

        # Fast typing with backspaces: only the last query's results, ever, after the last key.
        clear(driver, box)
        last = type_keys(driver, box, ["g", "r", "e", "n", "n", Keys.BACKSPACE, Keys.BACKSPACE, "e", "n", " ", "d", "o"], 0)
        check(wait_idle(driver, "green do"), "results for 'green do' after fast typing with backspaces")
        texts = [r["text"] for r in results(driver)]
        check("Green Doors" in texts and "Doors of green" not in texts, f"word prefixes in order: {texts[:5]}")
        stale = stale_after(driver, last, "green do")
        check(not stale, f"no stale result after the last keystroke (renders after it: {stale})")

        # Many fast keystrokes at once, over 20,000 lines, with backspaces in the middle.
        clear(driver, box)
        last = type_keys(driver, box, list("the quick brown") + [Keys.BACKSPACE] * 6 + list("smørrebrød"), 0)
        final = driver.execute_script("return document.getElementById('query').value")
        check(wait_idle(driver, final), f"results for {final!r} after 31 fast keystrokes")
        check(not stale_after(driver, last, final), "no stale result after the last of 31 fast keystrokes")

        # Substring mode.
        clear(driver, box)
        driver.find_element(By.ID, "mode-substring").click()
        type_keys(driver, box, "rûl", 0.03)
        check(wait_idle(driver, "rûl"), "results for 'rûl' in substring mode")
        found = [r for r in results(driver) if r["text"].startswith("Crème")]
        check(found and found[0]["marks"] == ["rûl"], f"substring 'rûl' highlights 'rûl' in brûlée: {found}")
        driver.find_element(By.ID, "mode-words").click()

        # Enter searches at once: a one-letter query waits 250 ms without it.
        clear(driver, box)
        start = driver.execute_script("return performance.now()")
        box.send_keys("ł")
        box.send_keys(Keys.ENTER)
        wait_idle(driver, "ł")
        renders = [r for r in driver.execute_script("return window.foldPage.renders") if r["query"] == "ł" and r["at"] >= start]
        check(renders and renders[0]["at"] - start < 200, f"Enter searches before the 250 ms quiet period ends ({renders[0]['at'] - start:.0f} ms)" if renders else "Enter searches")
        check(driver.execute_script("return document.getElementById('spinner').hidden"), "no spinner once results are shown")

        # A file that is not UTF-8, added from disk: a clear message with line and byte offset.
        driver.find_element(By.ID, "file").send_keys(os.path.abspath(bad))
        time.sleep(0.5)
        problem = driver.find_element(By.ID, "problem").text
        check("not UTF-8" in problem and "line 2" in problem and "byte offset 3 of the line" in problem,
              f"a file that is not UTF-8 is named with its line and offset: {problem!r}")

        # The screenshot for the README: creme bru.
        driver.execute_script("document.getElementById('problem').hidden = true")
        clear(driver, box)
        type_keys(driver, box, "creme bru", 0.03)
        wait_idle(driver, "creme bru")
        driver.save_screenshot(os.path.join(args.out, "search-page.png"))
        print(f"     screenshot: {os.path.join(args.out, 'search-page.png')}")
    finally:
        chromium.stop(driver)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
