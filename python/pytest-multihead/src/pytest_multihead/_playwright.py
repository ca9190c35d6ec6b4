"""`PlaywrightChromium`, the `multihead_chromium` fixture's browser: Chromium launched by Playwright on a
test's server, with a watchdog that kills a Chromium whose call into Playwright gets stuck (past
`browsers.STUCK_TIMEOUT`, read when the call is made). What it does beyond launching and driving is
ChromiumBrowser's (browsers.py). Playwright itself is not imported here: the fixture hands it in."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any, Callable

from . import browsers
from ._page_scripts import REQUEST_FULLSCREEN_JS
from ._site import LocalSite
from .browsers import BrowserError, ChromiumBrowser


# --- Playwright ----------------------------------------------------------------------------------------

class PlaywrightChromium(ChromiumBrowser):
    """`multihead_chromium`: Chromium launched by Playwright (a persistent context with its profile in the
    test's folder, no viewport emulation: the page is the window's size), headful on the test's server.
    `page` is its first page, on the site's start page; `context` and `browser` are Playwright's."""

    def __init__(self, playwright: Any, server: Any, executable: str, profile: Path, site: LocalSite | None = None):
        super().__init__(server, site or LocalSite(), profile)
        self._own_site = site is None
        self._sessions: dict[Any, Any] = {}
        profile.mkdir(parents=True, exist_ok=True)
        try:
            self.context = playwright.chromium.launch_persistent_context(
                str(profile / "user-data"), executable_path=executable, headless=False, no_viewport=True,
                chromium_sandbox=os.geteuid() != 0, args=self.chromium_args(), env=self.browser_env(server, profile),
                timeout=browsers.LAUNCH_TIMEOUT * 1000)
        except Exception:
            if self._own_site:
                self.site.close()
            raise
        self.browser = self.context.browser
        #: Chromium's browser process (None if it could not be told), killed should a call get stuck.
        self.pid: int | None = None
        self._pidfd: int | None = None
        self._killed = False
        try:
            session = self.browser.new_browser_cdp_session()
            processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
            session.detach()
            self.pid = next(p["id"] for p in processes if p["type"] == "browser")
            self._pidfd = os.pidfd_open(self.pid)
        except Exception:  # noqa: BLE001 - no watchdog then, nothing else lost
            pass
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self._grant(self.page)
        self.page.goto(self.site.url("/"))

    def _bounded(self, what: str, timeout: float, call: Callable[[], Any]) -> Any:
        """`call()`, a Playwright call with no timeout of its own: if it has not returned after `timeout`
        seconds, Chromium is killed (by its pidfd), which ends the call, and BrowserError says so."""
        if self._pidfd is None:
            return call()
        timer = threading.Timer(timeout, self._kill)
        timer.daemon = True
        timer.start()
        try:
            return call()
        except Exception:
            if self._killed:
                raise BrowserError(f"{what}: no answer within {timeout:g} s, so Chromium (PID {self.pid}) was killed") from None
            raise
        finally:
            timer.cancel()

    def _kill(self) -> None:
        self._killed = True
        try:
            signal.pidfd_send_signal(self._pidfd, signal.SIGKILL)
        except OSError:
            pass

    def _grant(self, page: Any) -> None:
        # Playwright's grant_permissions refuses the name "window-management": CDP's grant, for this context.
        session = self._session(page)
        context_id = session.send("Target.getTargetInfo")["targetInfo"]["browserContextId"]
        session.send("Browser.grantPermissions", {"origin": self.site.origin, "permissions": ["windowManagement"],
                                                  "browserContextId": context_id})

    def _session(self, page: Any) -> Any:
        page = page or self.page
        session = self._sessions.get(page)
        if session is None:
            session = self._sessions[page] = self.context.new_cdp_session(page)
            page.once("close", lambda p: self._sessions.pop(p, None))
        return session

    def _key(self, page: Any) -> Any:
        return page or self.page

    @property
    def _main(self) -> Any:
        return self.page

    def _evaluate(self, source, arg=None, page=None, timeout=None):
        target = page or self.page
        return self._bounded("a page's script", browsers.STUCK_TIMEOUT if timeout is None else timeout + browsers.STUCK_TIMEOUT,
                             lambda: target.evaluate(source, arg))

    def _cdp(self, method, params=None, page=None):
        session = self._session(page)
        return self._bounded(f"CDP {method}", browsers.STUCK_TIMEOUT, lambda: session.send(method, params or {}))

    def _open(self, url, features, opener, timeout):
        with self.context.expect_page(timeout=timeout * 1000) as opened:
            self._evaluate("([url, features]) => { window.open(url, '_blank', features); }", [url, features], opener)
        page = opened.value
        page.wait_for_load_state(timeout=timeout * 1000)
        return page

    def _request_fullscreen(self, selector, page):
        # Playwright's evaluate runs with a user gesture, which requestFullscreen() needs.
        locator = (page or self.page).locator(selector)
        self._bounded(f"requestFullscreen() of {selector!r}", browsers.STUCK_TIMEOUT, lambda: locator.evaluate(REQUEST_FULLSCREEN_JS))

    def home(self) -> None:
        self.page.goto(self.site.url("/"))

    def reset_pages(self) -> None:
        """Closes every page but the main one (a new one when the test closed it)."""
        for page in list(self.context.pages):
            if page is not self.page:
                page.close()
        if self.page.is_closed():
            self.page = self.context.new_page()
        self._window_ids = {k: v for k, v in self._window_ids.items() if k is self.page}

    def clear_state(self) -> None:
        self.context.clear_cookies()

    def close(self) -> None:
        try:
            self._bounded("closing Chromium", browsers.STUCK_TIMEOUT, self.context.close)
        except Exception:
            # A Chromium killed as stuck (now or earlier in the test) has nothing left to close.
            if not self._killed:
                raise
        finally:
            if self._pidfd is not None:
                os.close(self._pidfd)
                self._pidfd = None
            if self._own_site:
                self.site.close()
