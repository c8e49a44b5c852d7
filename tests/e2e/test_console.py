"""The web console in a real browser (Debian's chromium driven by selenium through
chromium-driver, headless) against the local control plane: sign in with the API token, the
workspaces with their drift status and active run, a workspace's runs, a run with its plan and
Approve, the run followed to `applied` with its apply graph by level, the state inspector
(resources, versions, one resource), a bad token refused, sign out; then, on another
workspace, `/console/` (trailing slash) working as `/console`, a run rejected with Reject, and
an older state version restored with its Restore button. What is asserted is what a user sees;
every wait is a WebDriverWait condition. Screenshots land in GROUNDPLAN_TEST_ARTIFACTS (default:
the test's tmp_path)."""

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
    # the apply graph, by level, every node applied
    wait.until(_text_in((By.ID, "graph-summary"), "5 nodes: 5 applied"))
    levels = [[n.find_element(By.TAG_NAME, "code").text
               for n in level.find_elements(By.CSS_SELECTOR, "li.graph-node")]
              for level in browser.find_elements(By.CSS_SELECTOR, "li.graph-level")]
    assert levels == [["terraform_data.network"],
                      [f"terraform_data.subnet[{i}]" for i in range(3)],
                      ["terraform_data.app"]]
    app_node = browser.find_element(By.CSS_SELECTOR, "li.graph-node[data-node='terraform_data.app']")
    assert "applied" in app_node.text
    assert app_node.text.splitlines()[1] == (
        "after terraform_data.network, terraform_data.subnet[0], terraform_data.subnet[1], "
        "terraform_data.subnet[2]")
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


def _wait_unlocked(client: RemoteClient, workspace: str) -> Any:
    """A WebDriverWait condition: the workspace has no active run (the run's status is final a
    moment before its execution releases the workspace lock)."""
    return lambda _driver: client.workspace(workspace)["active_run"] is None


def test_reject_and_restore_in_the_console(cloud: LocalCloud, client: RemoteClient,
                                           browser: webdriver.Chrome, shots: Path) -> None:
    client.request("POST", "/workspaces", {"name": "console-ops", "approvers": ["local-admin"],
                                           "drift": {"enabled": False}})
    cv = client.upload_configuration("console-ops", str(CONFIGS / "basic"))
    applied = client.start_run("console-ops", cv, auto_apply=True, variables={"secret": SECRET})
    assert wait_status(client, applied["id"], ("applied", "errored"))["status"] == "applied"
    wait = WebDriverWait(browser, 60)
    shots = shots.parent / "console-ops"  # beside the other test's screenshots, not among them
    shots.mkdir(exist_ok=True)
    wait.until(_wait_unlocked(client, "console-ops"))
    removed = client.request("POST", "/workspaces/console-ops/state/actions/rm",
                             {"addresses": ["terraform_data.app"]})
    pending = client.start_run("console-ops", cv, variables={"secret": SECRET})
    pending = wait_status(client, pending["id"], ("awaiting_approval", "errored"))
    assert pending["status"] == "awaiting_approval", pending["error"]

    # `/console/` is the console too: redirected to `/console`, its script and style loaded
    browser.get(cloud.api_url + "/console/")
    wait.until(ec.visibility_of_element_located((By.ID, "token"))).send_keys(cloud.token)
    assert browser.current_url == cloud.api_url + "/console"
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('header.bar')).display") == "flex"
    browser.find_element(By.ID, "sign-in-button").click()
    wait.until(_text_in((By.ID, "view-title"), "Workspaces"))

    # Reject: the run is discarded, nothing is applied, and who rejected it is on record
    browser.get(cloud.api_url + "/console#/runs/" + pending["id"])
    wait.until(_text_in((By.ID, "run-status"), "awaiting_approval"))
    assert "The apply graph appears here once the apply starts" in browser.find_element(
        By.ID, "graph-empty").text
    browser.find_element(By.ID, "reject").click()
    wait.until(_text_in((By.ID, "run-status"), "discarded"))
    assert not browser.find_elements(By.ID, "approve")
    assert not browser.find_elements(By.ID, "reject")
    history = browser.find_element(By.XPATH, "//caption[.='Status history']/ancestor::table")
    assert "local-admin rejected via api" in " ".join(history.text.split())
    browser.save_screenshot(str(shots / "run-rejected.png"))
    assert client.run(pending["id"])["status"] == "discarded"
    rejected = client.request("GET", f"/audit?run={pending['id']}&action=run.rejected")["events"]
    assert [(e["actor"], e["source"]) for e in rejected] == [("local-admin", "api")]

    # Restore: the version before the `state rm` becomes the current state again
    wait.until(_wait_unlocked(client, "console-ops"))
    browser.get(cloud.api_url + "/console#/workspaces/console-ops/state")
    wait.until(_text_in((By.ID, "view-title"), "State of console-ops"))
    assert not browser.find_elements(By.XPATH, "//tr[td/a[text()='terraform_data.app']]")
    rows = browser.find_elements(By.XPATH, "//caption[starts-with(., 'State versions')]"
                                           "/ancestor::table//tbody/tr")
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == ["2", "1"]
    assert rows[0].find_elements(By.TAG_NAME, "td")[5].text == "current"
    assert rows[1].find_elements(By.TAG_NAME, "td")[1].text == removed["backup_version"]
    rows[1].find_element(By.CSS_SELECTOR, "button.restore").click()
    confirm = wait.until(ec.alert_is_present())
    assert "serial 1" in confirm.text and removed["backup_version"] in confirm.text
    confirm.accept()
    wait.until(_text_in((By.ID, "notice"), "as serial 3."))
    assert wait.until(ec.visibility_of_element_located(
        (By.XPATH, "//tr[td/a[text()='terraform_data.app']]")))
    rows = browser.find_elements(By.XPATH, "//caption[starts-with(., 'State versions')]"
                                           "/ancestor::table//tbody/tr")
    assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == ["3", "2", "1"]
    browser.save_screenshot(str(shots / "state-restored.png"))
    listed = client.request("GET", "/workspaces/console-ops/state/resources")["resources"]
    assert [r["address"] for r in listed] == ["terraform_data.app", "terraform_data.network",
                                              "terraform_data.subnet"]
    restored = client.request("GET", "/audit?workspace=console-ops&action=state.restored")
    assert [e["detail"]["version"] for e in restored["events"]] == [removed["backup_version"]]
    assert SECRET not in browser.page_source
    assert sorted(p.name for p in shots.iterdir()) == ["run-rejected.png", "state-restored.png"]
