"""The web console in a real browser (Debian's chromium driven by selenium through
chromium-driver, headless) against the local control plane: sign in with the API token, the
workspaces with their drift status and active run, a workspace's runs, a run with its plan and
Approve, the run followed to `applied`, the state inspector (resources, versions, one
resource), a bad
token refused, sign out. What is asserted is what a user sees; every wait is a WebDriverWait
condition. Screenshots land in GROUNDPLAN_TEST_ARTIFACTS (default: the test's tmp_path)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from engine.cli.remote_client import RemoteClient
from functions.local.cloud import LocalCloud
from tests.e2e.conftest import wait_status

CONFIGS = Path(__file__).parent / "configs"
SECRET = "console-secret-never-shown-7f3a"
CHROMIUM = ("/usr/bin/chromium", "chromium")
DRIVER = ("/usr/bin/chromedriver", "chromedriver")


def _found(candidates: tuple[str, ...]) -> str:
    for c in candidates:
        path = c if os.path.isabs(c) and os.path.exists(c) else shutil.which(c)
        if path:
            return path
    pytest.fail(f"{candidates[-1]} is not installed: `make test` installs chromium and "
                "chromium-driver (apt-get install chromium chromium-driver)", pytrace=False)


@pytest.fixture()
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = _found(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--no-first-run", "--disable-dev-shm-usage", "--window-size=1280,1024",
                 f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=_found(DRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture()
def shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("GROUNDPLAN_TEST_ARTIFACTS") or tmp_path) / "console"
    out.mkdir(parents=True, exist_ok=True)
    return out


def _text_in(locator: tuple[str, str], text: str) -> Any:
    return ec.text_to_be_present_in_element(locator, text)


def test_the_console_in_a_browser(cloud: LocalCloud, client: RemoteClient,
                                  browser: webdriver.Chrome, shots: Path) -> None:
    client.request("POST", "/workspaces", {"name": "console-demo", "approvers": ["local-admin"],
                                    "drift": {"enabled": False}})  # no drift tick here
    cv = client.upload_configuration("console-demo", str(CONFIGS / "basic"))
    run = client.start_run("console-demo", cv, variables={"secret": SECRET})
    run = wait_status(client, run["id"], ("awaiting_approval", "errored"))
    assert run["status"] == "awaiting_approval", run["error"]
    wait = WebDriverWait(browser, 60)

    # a token the control plane refuses: back to the sign-in form, saying why
    browser.get(cloud.api_url + "/console")
    wait.until(ec.visibility_of_element_located((By.ID, "token"))).send_keys("not-the-token")
    browser.find_element(By.ID, "sign-in-button").click()
    wait.until(_text_in((By.ID, "alert"), "The token was refused"))
    assert browser.find_element(By.ID, "sign-in").is_displayed()

    # sign in: the workspaces, with drift status and the active run
    browser.find_element(By.ID, "token").send_keys(cloud.token)
    browser.find_element(By.ID, "sign-in-button").click()
    wait.until(_text_in((By.ID, "view-title"), "Workspaces"))
    row = wait.until(ec.visibility_of_element_located(
        (By.XPATH, "//tr[td/a[text()='console-demo']]")))
    assert run["id"] in row.text and "unchecked" in row.text
    assert browser.execute_script(
        "return window.sessionStorage.getItem('groundplan.token')") == cloud.token
    browser.save_screenshot(str(shots / "workspaces.png"))

    # the workspace's runs
    row.find_element(By.LINK_TEXT, "console-demo").click()
    wait.until(_text_in((By.ID, "view-title"), "Workspace console-demo"))
    run_row = wait.until(ec.visibility_of_element_located(
        (By.XPATH, f"//tr[td/a[text()='{run['id']}']]")))
    assert "awaiting_approval" in run_row.text and "local-admin" in run_row.text

    # the run: status, plan (redacted), Approve; followed to applied
    run_row.find_element(By.LINK_TEXT, run["id"]).click()
    wait.until(_text_in((By.ID, "run-status"), "awaiting_approval"))
    plan = browser.find_element(By.ID, "plan-text").text
    assert "terraform_data.app will be created" in plan
    assert "Plan: 5 to add, 0 to change, 0 to destroy." in plan
    browser.save_screenshot(str(shots / "run-awaiting-approval.png"))
    browser.find_element(By.ID, "approve").click()
    wait.until(_text_in((By.ID, "run-status"), "applied"))
    assert "local-admin" in browser.find_element(By.ID, "view").text  # approved by
    assert not browser.find_elements(By.ID, "approve")
    browser.save_screenshot(str(shots / "run-applied.png"))
    assert client.run(run["id"])["approved_by"] == "local-admin"

    # the state inspector: the resources, then one resource with its secret redacted
    browser.get(cloud.api_url + "/console#/workspaces/console-demo/state")
    wait.until(_text_in((By.ID, "view-title"), "State of console-demo"))
    subnet = wait.until(ec.visibility_of_element_located(
        (By.XPATH, "//tr[td/a[text()='terraform_data.subnet']]")))
    assert subnet.find_elements(By.TAG_NAME, "td")[4].text == "3"
    version = browser.find_element(By.XPATH, "//caption[starts-with(., 'State versions')]"
                                              "/ancestor::table//tbody/tr[1]")
    assert version.find_elements(By.TAG_NAME, "td")[0].text == "1"
    assert run["id"] in version.text and "local-admin" in version.text
    browser.find_element(By.LINK_TEXT, "terraform_data.app").click()
    wait.until(_text_in((By.ID, "view-title"), "terraform_data.app"))
    attributes = browser.find_element(By.CSS_SELECTOR, "pre.attributes").text
    assert "(sensitive value)" in attributes and "vpc-subnet-0" in attributes
    browser.save_screenshot(str(shots / "state-resource.png"))
    assert SECRET not in browser.page_source

    # sign out: the token is gone from the tab
    browser.find_element(By.ID, "sign-out").click()
    wait.until(ec.visibility_of_element_located((By.ID, "token")))
    assert browser.execute_script(
        "return window.sessionStorage.getItem('groundplan.token')") is None
    assert sorted(p.name for p in shots.iterdir()) == [
        "run-applied.png", "run-awaiting-approval.png", "state-resource.png", "workspaces.png"]
