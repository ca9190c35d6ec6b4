"""`SeleniumChromium`, the `multihead_selenium` fixture's browser: Chromium started by ChromeDriver (the one
named, never Selenium Manager) on a test's server, its pages window handles, the user gestures that
window.open and requestFullscreen need given through CDP. What it does beyond starting and driving is
ChromiumBrowser's (browsers.py). Selenium is imported only when one is made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import browsers
from ._page_scripts import REQUEST_FULLSCREEN_JS
from ._site import LocalSite
from .browsers import BrowserError, ChromiumBrowser, until


# --- Selenium ------------------------------------------------------------------------------------------

class SeleniumChromium(ChromiumBrowser):
    """`multihead_selenium`: Chromium started by ChromeDriver (the one named, never Selenium Manager), its
    profile in the test's folder, headful on the test's server. `driver` is Selenium's WebDriver, on the
    site's start page; a `page` is a window handle (default: the driver's current window)."""

    def __init__(self, server: Any, executable: str, chromedriver: str, profile: Path, site: LocalSite | None = None):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        super().__init__(server, site or LocalSite(), profile)
        self._own_site = site is None
        profile.mkdir(parents=True, exist_ok=True)
        options = webdriver.ChromeOptions()
        options.binary_location = executable
        for arg in [*self.chromium_args(), f"--user-data-dir={profile / 'user-data'}"]:
            options.add_argument(arg)
        # ChromeDriver's --enable-automation puts an infobar over the page ("controlled by automated test
        # software"), 56 pixels a fullscreen element would not get.
        options.add_experimental_option("excludeSwitches", ["enable-automation"])
        self._log = open(profile / "chromedriver.log", "wb")
        try:
            self.driver = webdriver.Chrome(options=options, service=Service(
                executable_path=chromedriver, env=self.browser_env(server, profile), log_output=self._log))
        except Exception:
            self._log.close()
            if self._own_site:
                self.site.close()
            raise
        self.main_handle = self.driver.current_window_handle
        self.driver.set_script_timeout(browsers.LAUNCH_TIMEOUT)
        # The default context's grant, through the page's DevTools session.
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": self.site.origin, "permissions": ["windowManagement"]})
        self.driver.get(self.site.url("/"))

    def _key(self, page):
        return page or self.driver.current_window_handle

    @property
    def _main(self):
        return self.main_handle

    def _on(self, page: Any) -> Any:
        """Switches to `page`'s window for a call, and back after (a context manager)."""
        driver = self.driver

        class Switch:
            def __enter__(self_):
                self_.back = None
                if page is not None and page != driver.current_window_handle:
                    self_.back = driver.current_window_handle
                    driver.switch_to.window(page)

            def __exit__(self_, *exc):
                if self_.back is not None and self_.back in driver.window_handles:
                    driver.switch_to.window(self_.back)
        return Switch()

    def _evaluate(self, source, arg=None, page=None, timeout=None):
        script = ("const done = arguments[arguments.length - 1];"
                  f"Promise.resolve(({source})(arguments[0])).then(value => done({{value: value === undefined ? null : value}}),"
                  " error => done({error: String(error && error.message || error)}));")
        with self._on(page):
            if timeout is not None:
                self.driver.set_script_timeout(timeout)
            try:
                answer = self.driver.execute_async_script(script, arg)
            finally:
                if timeout is not None:
                    self.driver.set_script_timeout(browsers.LAUNCH_TIMEOUT)
        if "error" in answer:
            raise BrowserError(f"the page's script failed: {answer['error']}")
        return answer["value"]

    def _cdp(self, method, params=None, page=None):
        with self._on(page):
            return self.driver.execute_cdp_cmd(method, params or {})

    def _run_with_gesture(self, expression: str, page: Any, wait: bool = True) -> Any:
        """Runs `expression` (awaiting its promise when `wait`) as a user's click would: window.open and
        requestFullscreen need a user gesture, which Selenium's execute_script does not give."""
        answer = self._cdp("Runtime.evaluate", {"expression": expression, "userGesture": True, "awaitPromise": wait,
                                                "returnByValue": True}, page)
        if "exceptionDetails" in answer:
            details = answer["exceptionDetails"]
            raise BrowserError(f"{expression}: {details.get('exception', {}).get('description') or details.get('text')}")
        return answer.get("result", {}).get("value")

    def _open(self, url, features, opener, timeout):
        before = set(self.driver.window_handles)
        self._run_with_gesture(f"void window.open({json.dumps(url)}, '_blank', {json.dumps(features)})", opener)
        handle = until(lambda: next(iter(set(self.driver.window_handles) - before), None), timeout,
                       f"window.open({url!r}) gave no new window within {timeout:g} s")
        self.driver.switch_to.window(handle)
        return handle

    def open_window(self, url=None, on=None, frame=None, timeout=browsers.TIMEOUT, opener=None):
        """As ChromiumBrowser.open_window; returns the new window's handle, and the driver is switched to
        it (`driver.switch_to.window(browser.main_handle)` goes back)."""
        return super().open_window(url, on, frame, timeout, opener)

    def _request_fullscreen(self, selector, page):
        self._run_with_gesture(f"({REQUEST_FULLSCREEN_JS})(document.querySelector({json.dumps(selector)}))", page, wait=False)

    def home(self) -> None:
        self.driver.switch_to.window(self.main_handle)
        self.driver.get(self.site.url("/"))

    def reset_pages(self) -> None:
        """Closes every window but the main one (a new one when the test closed it), and switches to it."""
        for handle in list(self.driver.window_handles):
            if handle != self.main_handle:
                self.driver.switch_to.window(handle)
                self.driver.close()
        if self.main_handle not in self.driver.window_handles:
            remaining = self.driver.window_handles
            if remaining:
                self.driver.switch_to.window(remaining[0])
            else:
                self.driver.switch_to.new_window("window")
            self.main_handle = self.driver.current_window_handle
        self.driver.switch_to.window(self.main_handle)
        self._window_ids = {k: v for k, v in self._window_ids.items() if k == self.main_handle}

    def clear_state(self) -> None:
        self.driver.delete_all_cookies()

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            self._log.close()
            if self._own_site:
                self.site.close()
