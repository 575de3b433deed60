"""scripts/compose-test.sh, scenario (c): the family console over HTTPS on compose's published port, in
headless Chromium (Selenium). Signs in as the parent and waits for the family page to list the child.
Environment: CONSOLE_URL, PARENT, PARENT_PASSWORD, CHILD_NAME, CHROMIUM, CHROMEDRIVER. Prints
"CONSOLE OK" or exits non-zero naming what failed. The certificate is the installation's own CA's
(checked against ca.crt by the caller with curl); Chromium is told to accept it.
"""
import os
import subprocess
import sys

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

CEILING = 120


def main():
    url = os.environ["CONSOLE_URL"].rstrip("/")
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ["CHROMIUM"]
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=360,800", "--disable-gpu",
                     "--ignore-certificate-errors", "--no-first-run", "--disable-background-networking"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=os.environ["CHROMEDRIVER"], log_output=subprocess.DEVNULL), options=options)
    driver.set_page_load_timeout(CEILING)
    try:
        driver.get(url + "/")
        wait = WebDriverWait(driver, CEILING, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException,))
        wait.until(lambda d: "/signin" in d.current_url and d.find_elements(By.ID, "user"))
        driver.find_element(By.ID, "user").send_keys(os.environ["PARENT"])
        driver.find_element(By.ID, "password").send_keys(os.environ["PARENT_PASSWORD"] + Keys.ENTER)
        child = os.environ["CHILD_NAME"]
        wait.until(lambda d: d.find_elements(By.ID, "children")
                   and child in d.execute_script("return document.getElementById('children').innerText"))
        secure = [c["name"] for c in driver.get_cookies() if c.get("secure")]
        if not secure:
            sys.exit("CHECK FAILED: the console's session cookie is not marked Secure behind console-tls")
        print(f"CONSOLE OK: signed in over HTTPS as {os.environ['PARENT']}, the family page lists {child}", flush=True)
    except TimeoutException:
        sys.exit(f"CHECK FAILED: timed out at {driver.current_url}: {driver.page_source[:300]}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
