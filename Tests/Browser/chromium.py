"""Headless Chromium through Selenium (Debian: chromium, chromium-driver, python3-selenium;
Scripts/ensure-browser.sh installs them), for the browser tests of fold.wasm."""
import os
import shutil
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start(width=1100, height=800):
    """A headless Chromium; each run has its own profile folder (no state between runs)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="fold-chromium-")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", f"--user-data-dir={profile}",
                     "--allow-file-access-from-files", "--lang=en-US"):
        options.add_argument(argument)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(600)
    driver.fold_profile_dir = profile
    return driver


def stop(driver):
    profile = getattr(driver, "fold_profile_dir", None)
    driver.quit()
    if profile:
        shutil.rmtree(profile, ignore_errors=True)


def file_url(path):
    return "file://" + os.path.abspath(path)
