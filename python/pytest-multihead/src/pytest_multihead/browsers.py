"""Chromium on a test's server, driven by Playwright or Selenium: what a page sees of the screens, windows
opened and made fullscreen on the screen asked, each checked against what the server itself says
(`windows()`, `screens()`). The fixtures (`multihead_chromium`, `multihead_selenium` and their `_shared`
forms) are in plugin.py; docs/browsers.md says what works on each kind and why.

Neither Playwright nor Selenium is imported here: the plugin works without them, and a fixture that needs
one skips its test when it is missing.

Here: the timeouts, the errors, what a page's screens are said as, and ChromiumBrowser, which both
drivers' classes extend. Beside it: the page's scripts (_page_scripts.py), LocalSite (_site.py), the drivers'
classes (_playwright.py, _selenium.py) and SharedBrowser (_shared_browser.py), which read the timeouts as
`browsers.NAME` when they run, so that a test's monkeypatch of one is seen."""

from __future__ import annotations

import os
import shutil
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ._page_scripts import (EXIT_FULLSCREEN_JS, FILLED_JS, REQUEST_FULLSCREEN_JS, RESTORE_TITLE_JS, SCREENS_JS,
                            SET_TITLE_JS, UNSETTLED, WAIT_JS, WATCH_JS)
from ._site import START_PAGE, LocalSite

# The scripts and the site re-exported; not the drivers' classes nor SharedBrowser, which import this module.
__all__ = ["CHROMIUM_NAMES", "COMMON_ARGS", "EXIT_FULLSCREEN_JS", "FILLED_JS", "LAUNCH_TIMEOUT", "REQUEST_FULLSCREEN_JS",
           "RESTORE_TITLE_JS", "SCREENS_JS", "SETTLE_TIMEOUT", "SET_TITLE_JS", "START_PAGE", "STUCK_TIMEOUT", "TIMEOUT",
           "UNSETTLED", "WAIT_JS", "WATCH_JS", "BrowserError", "BrowserScreen", "ChromiumBrowser", "LocalSite",
           "ScreensChange", "ScreensChangeInfo", "find_chromium", "match_screens", "until"]

#: How long a browser may take to start (seconds): a busy CI's Chromium takes far longer than the 1–2 s here.
LAUNCH_TIMEOUT = 90.0

#: How long the fixtures wait for a fact (a window listed, the screens agreeing) by default (seconds).
TIMEOUT = 10.0

#: How long a call into Playwright that has no timeout of its own (evaluate, a CDP command, closing) may
#: take before Chromium is taken for stuck and killed, which ends the call (seconds).
STUCK_TIMEOUT = 60.0

#: How long a page's getScreenDetails() may take to settle (seconds). Chromium leaves it unsettled for
#: good in about one window in ten that a page opens (docs/browsers.md, "Limits"), so it is never awaited
#: without a bound.
SETTLE_TIMEOUT = 5.0

#: The names Chromium goes by on PATH, the first found is the default (`--multihead-chromium` names another).
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: Chromium's switches for a test browser on a private server, beyond what Playwright and ChromeDriver add.
#: `--test-type` keeps the "unsupported command-line flag: --no-sandbox" infobar away (it takes 56 pixels
#: off the top of a fullscreen element); the backgrounding ones keep a page's timers running when another
#: window covers it (a screen event's wait is a timer).
COMMON_ARGS = ["--test-type", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--password-store=basic",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
               "--disable-backgrounding-occluded-windows", "--disable-features=Translate,MediaRouter"]


class BrowserError(Exception):
    """What a browser fixture checked did not hold: the browser and the server disagree (a window not on
    the screen asked, screens that never matched the server's), or the browser refused (no permission)."""


@dataclass
class BrowserScreen:
    """A screen as the page sees it (`getScreenDetails()`), with the Multihead monitor it is: `name` is the
    server's screen whose frame it has (None when none has: Xvfb's one root screen), `label` the browser's
    (from the monitor's EDID on X, make, model and connector on Wayland), `frame` its `x`, `y`, `width`,
    `height` in CSS pixels, `scale` its devicePixelRatio, `primary` the browser's isPrimary."""
    name: str | None
    label: str
    frame: dict[str, int]
    scale: float
    primary: bool
    #: What the page said, as it said it (`left`, `top`, `availWidth`, `isInternal`, …).
    details: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)


@dataclass
class ScreensChange:
    """What `expect_screens_change` saw: the screens once they agreed with the server's, `latency_ms` from
    the start of the `with` block's body to the first `screenschange`, `settled_ms` to the last event
    before the screens agreed, and each event (`type`: "screenschange" or "change", `label` for a screen's
    own `change`, `ms` from the start of the body)."""
    screens: list[BrowserScreen]
    latency_ms: float
    settled_ms: float
    events: list[dict[str, Any]]


class ScreensChangeInfo:
    """`with browser.expect_screens_change() as change:` … `change.value` once the block has ended."""

    def __init__(self) -> None:
        self._value: ScreensChange | None = None

    @property
    def value(self) -> ScreensChange:
        if self._value is None:
            raise BrowserError("the screens change is known once its `with` block has ended")
        return self._value


def until(check: Callable[[], Any], timeout: float, what: str | Callable[[], str]) -> Any:
    """Asks `check` until it answers something true and returns that; after `timeout` seconds, BrowserError
    saying `what` did not happen. For facts that come with no event of their own (a window listed by the
    server): each ask is a request, spaced 5 ms at first and at most 50 ms apart."""
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise BrowserError(what() if callable(what) else what)
        time.sleep(delay)
        delay = min(delay * 2, 0.05)


def find_chromium(given: str | None = None) -> str | None:
    """`given` as an executable (a path or a name on PATH), else the first of CHROMIUM_NAMES on PATH."""
    if given:
        return shutil.which(given)
    return next((found for found in map(shutil.which, CHROMIUM_NAMES) if found), None)



def _frame(screen: dict[str, Any]) -> dict[str, int]:
    return {"x": screen["left"], "y": screen["top"], "width": screen["width"], "height": screen["height"]}


def _scaled(frame: dict[str, int], ratio: float) -> dict[str, int]:
    return {k: round(v / ratio) for k, v in frame.items()}


def match_screens(seen: Sequence[dict[str, Any]], server_screens: Sequence[dict[str, Any]]) -> list[BrowserScreen]:
    """The browser's screens, each named after the server's screen with its frame (as it is, or over the
    screen's devicePixelRatio)."""
    result = []
    for s in seen:
        frame = _frame(s)
        ratio = s.get("devicePixelRatio") or 1
        name = next((m["name"] for m in server_screens if m["frame"] == frame), None)
        if name is None:
            name = next((m["name"] for m in server_screens if _scaled(m["frame"], ratio) == frame), None)
        result.append(BrowserScreen(name=name, label=s.get("label", ""), frame=frame, scale=ratio,
                                    primary=bool(s.get("isPrimary")), details=dict(s)))
    return result


def _inside(frame: dict[str, int], outer: dict[str, int]) -> bool:
    return (frame["x"] >= outer["x"] and frame["y"] >= outer["y"] and frame["x"] + frame["width"] <= outer["x"] + outer["width"]
            and frame["y"] + frame["height"] <= outer["y"] + outer["height"])


class _ScreensChangeContext:
    def __init__(self, browser: "ChromiumBrowser", timeout: float, page: Any):
        self._browser = browser
        self._timeout = timeout
        self._page = page
        self._info = ScreensChangeInfo()

    def __enter__(self) -> ScreensChangeInfo:
        try:
            self._since = self._browser._evaluate(WATCH_JS, int(SETTLE_TIMEOUT * 1000), self._page)
        except Exception as error:  # noqa: BLE001 - either driver's own error type
            if UNSETTLED not in str(error):
                raise
            raise BrowserError(f"{UNSETTLED} within {SETTLE_TIMEOUT:g} s in this page, so its screen events cannot "
                               "be watched: Chromium leaves it unsettled in about one window in ten that a page "
                               "opens (docs/browsers.md, \"Limits\"); watch the main page's") from None
        self._start = time.time() * 1000
        return self._info

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None:
            return
        b = self._browser
        expected = [s["frame"] for s in b.server.screens()]
        seen = b._evaluate(WAIT_JS, {"since": self._since, "expected": expected, "needEvent": True,
                                     "timeout": int(self._timeout * 1000)}, self._page, timeout=self._timeout + 10)
        if seen.get("navigated"):
            raise BrowserError("the page navigated inside the `with expect_screens_change()` block: its events went "
                               "with the document that was watching")
        if not seen["ok"]:
            said = [f"{s['label']!r} {s['width']}x{s['height']}+{s['left']}+{s['top']}" for s in seen["screens"]]
            why = ("no screenschange" if not seen["happened"] else "a screenschange, but its screens never agreed with the server's")
            hint = ""
            if b.server.kind == "xvfb":
                hint = (" (on xvfb Chromium sees one screen, the X root, and no hotplug: use the default kind, xorg, "
                        "or xorg-dummy or wayland; docs/browsers.md)")
            raise BrowserError(f"{why} within {self._timeout:g} s: the page sees {said}, the server has "
                               f"{expected}; events {seen['events']}{hint}")
        events = [{"type": e["type"], "label": e["label"], "ms": e["time"] - self._start} for e in seen["events"]]
        first = next(e["ms"] for e in events if e["type"] == "screenschange")
        self._info._value = ScreensChange(screens=match_screens(seen["screens"], b.server.screens()), latency_ms=first,
                                          settled_ms=max(e["ms"] for e in events), events=events)


class ChromiumBrowser:
    """What both fixtures give: Chromium on the test's server (`server`, the test's `multihead_server`),
    headful, its pages served from `site` (a LocalSite on 127.0.0.1) with the Window Management permission
    granted there. A `page` argument is a Playwright Page (the `multihead_chromium` fixture) or a window
    handle (`multihead_selenium`); left out, the main page."""

    server: Any
    site: LocalSite
    #: "x11" or "wayland": Chromium's `--ozone-platform`.
    platform: str

    def __init__(self, server: Any, site: LocalSite, profile: Path):
        self.server = server
        self.site = site
        self.profile = profile
        self.platform = "wayland" if server.kind == "wayland" else "x11"
        # The server's window of each page, once known (by page key).
        self._window_ids: dict[Any, int] = {}

    # What each driver does its own way.
    def _evaluate(self, source: str, arg: Any = None, page: Any = None, timeout: float | None = None) -> Any:
        raise NotImplementedError

    def _cdp(self, method: str, params: dict[str, Any] | None = None, page: Any = None) -> dict[str, Any]:
        raise NotImplementedError

    def _key(self, page: Any) -> Any:
        raise NotImplementedError

    @property
    def _main(self) -> Any:
        """The main page (Playwright's Page, Selenium's handle)."""
        raise NotImplementedError

    def _open(self, url: str, features: str, opener: Any, timeout: float) -> Any:
        raise NotImplementedError

    def _request_fullscreen(self, selector: str, page: Any) -> None:
        raise NotImplementedError

    @staticmethod
    def browser_env(server: Any, profile: Path) -> dict[str, str]:
        """The environment Chromium runs in: the test's server (`server.env`: DISPLAY and XAUTHORITY, or
        WAYLAND_DISPLAY and XDG_RUNTIME_DIR), its config and cache folders in the profile's."""
        return dict(server.env, XDG_CONFIG_HOME=str(profile / "config"), XDG_CACHE_HOME=str(profile / "cache"))

    def chromium_args(self) -> list[str]:
        args = [f"--ozone-platform={self.platform}", *COMMON_ARGS]
        if os.geteuid() == 0:
            # Chromium's sandbox refuses to run as root.
            args.append("--no-sandbox")
        return args

    # --- screens ---------------------------------------------------------------------------------------

    def screens(self, page: Any = None) -> list[BrowserScreen]:
        """The screens the page sees (`getScreenDetails()`), each named after the server's screen it is.
        BrowserError when it fails, or does not settle within SETTLE_TIMEOUT seconds (Chromium's hang in
        a window a page opened: the main page sees the same screens)."""
        try:
            seen = self._evaluate(SCREENS_JS, int(SETTLE_TIMEOUT * 1000), page)
        except Exception as error:  # noqa: BLE001 - either driver's own error type
            if UNSETTLED in str(error):
                raise BrowserError(f"{UNSETTLED} within {SETTLE_TIMEOUT:g} s in this page: Chromium leaves it "
                                   "unsettled in about one window in ten that a page opens (docs/browsers.md, "
                                   "\"Limits\"); the main page's screens() are the same screens") from None
            raise BrowserError(f"getScreenDetails() failed (is the page on {self.site.origin}, where the "
                               f"window-management permission is granted?): {error}") from None
        return match_screens(seen, self.server.screens())

    def expect_screens_change(self, timeout: float = TIMEOUT, page: Any = None) -> _ScreensChangeContext:
        """`with browser.expect_screens_change() as change: server.plug(…)`: on leaving the block, waits
        for a `screenschange` in the page and for its screens to agree with the server's (the `change`
        events that come with it included); `change.value` is a ScreensChange. BrowserError when they do
        not within `timeout` seconds."""
        return _ScreensChangeContext(self, timeout, page)

    # --- windows -----------------------------------------------------------------------------------------

    def _server_screen(self, name: str | None) -> dict[str, Any]:
        screens = self.server.screens()
        if name is None:
            return next((s for s in screens if s.get("main")), screens[0])
        found = next((s for s in screens if s["name"] == name), None)
        if found is None:
            raise BrowserError(f"no screen named {name!r}: the server has {[s['name'] for s in screens]}")
        return found

    def _css(self, screen: dict[str, Any], page: Any = None) -> float:
        """CSS pixels per unit of the server's frames on this screen: the browser's width of it over the
        server's (X: a screen's pixels over its devicePixelRatio; wayland: both are the layout's logical
        coordinates). 1 when the browser does not see that screen."""
        try:
            screens = self.screens(page)
        except BrowserError as error:
            if UNSETTLED not in str(error) or self._key(page) == self._key(self._main):
                raise
            # The screens are the browser's, whichever of its pages asks.
            screens = self.screens(self._main)
        seen = next((s for s in screens if s.name == screen["name"]), None)
        return seen.frame["width"] / screen["frame"]["width"] if seen is not None else 1.0

    def window(self, page: Any = None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The page's top-level window as the server lists it (`multihead_server.windows()`: `id`, `frame`,
        `screen`, `state`, …)."""
        key = self._key(page)
        known = self._window_ids.get(key)
        if known is not None:
            found = next((w for w in self.server.windows() if w["id"] == known), None)
            if found is not None:
                return found
        # Found by a title of its own, set for the time it takes the server to list it.
        token = f"multihead-{uuid.uuid4().hex[:12]}"
        old = self._evaluate(SET_TITLE_JS, token, page)
        try:
            found = until(lambda: next((w for w in self.server.windows() if w["title"].startswith(token)), None), timeout,
                          lambda: f"no window of the server's is titled {token!r} within {timeout:g} s: {self.server.windows()}")
        finally:
            self._evaluate(RESTORE_TITLE_JS, old, page)
        # The title given back, as the server lists it: what is returned is the window as it is.
        found = until(lambda: next((w for w in self.server.windows() if w["id"] == found["id"] and token not in w["title"]), None),
                      timeout, lambda: f"the window's title is not given back within {timeout:g} s: {self.server.windows()}")
        self._window_ids[key] = found["id"]
        return found

    def open_window(self, url: str | None = None, on: str | None = None, frame: Sequence[int] | None = None,
                    timeout: float = TIMEOUT, opener: Any = None) -> Any:
        """Opens `url` (a path of `site`, or a whole URL; default the start page) in a new window on screen
        `on` (default the main screen), from `opener` (default the main page): `window.open` with the
        screen's coordinates, which the Window Management permission lets a page use. `frame` is the
        window's `(x, y, width, height)` in the screen's own coordinates, as the server lists it (the
        whole window: Chromium's own bar of a popup included); without it, the window is half the screen,
        at its top-left corner. Where the server puts windows itself (wayland: xdg-shell has clients ask
        for no position) or Chromium's size differs from the frame asked, `move_window` puts it there.
        Returns the new page once the server lists its window on that screen with that frame (or inside
        the screen); BrowserError when it does not within `timeout` seconds."""
        screen = self._server_screen(on)
        on = screen["name"]
        outer = screen["frame"]
        css = self._css(screen, opener)
        x, y, width, height = (0, 0, outer["width"] // 2, outer["height"] // 2) if frame is None else frame
        features = (f"popup,left={round((outer['x'] + x) * css)},top={round((outer['y'] + y) * css)},"
                    f"width={round(width * css)},height={round(height * css)}")
        before = {w["id"] for w in self.server.windows()}
        page = self._open(self.site.url(url or "/"), features, opener, timeout)

        fresh = until(lambda: [w for w in self.server.windows() if w["id"] not in before and w["title"]], timeout,
                      lambda: f"no new window listed within {timeout:g} s: {self.server.windows()}")
        if len(fresh) == 1:
            window = fresh[0]
            self._window_ids[self._key(page)] = window["id"]
        else:
            # Another client's window came too: the page's is the one that takes the page's title.
            window = self.window(page, timeout)
        wanted = None if frame is None else {"x": outer["x"] + x, "y": outer["y"] + y, "width": width, "height": height}
        if wanted is not None and window["frame"] != wanted:
            self.server.move_window(window["id"], on, frame=(x, y, width, height))
        elif wanted is None and (window["screen"] != on or not _inside(window["frame"], outer)):
            self.server.move_window(window["id"], on)

        def placed():
            w = next((w for w in self.server.windows() if w["id"] == window["id"]), None)
            ok = w is not None and w["screen"] == on and (w["frame"] == wanted if wanted else _inside(w["frame"], outer))
            return w if ok else None
        until(placed, timeout, lambda: (f"the new window is not on {on} at {wanted or 'a place inside ' + str(outer)} "
                                        f"within {timeout:g} s: {next((w for w in self.server.windows() if w['id'] == window['id']), None)}"))
        return page

    def fullscreen(self, selector: str, on: str | None = None, page: Any = None, timeout: float = TIMEOUT) -> dict[str, int]:
        """Makes the element `selector` (Playwright's selector, or CSS for Selenium) of `page` fullscreen on
        screen `on` (default the screen its window is on), and returns its window's frame as the server
        lists it once the window fills that screen and the element fills the window.

        The steps, each for a limit found: the window is put on the screen (`move_window`: on wayland a
        client cannot place itself); the element asks (`requestFullscreen()`, with a user gesture; its
        promise is not waited for, as Chromium settles it only once the window has followed, which under
        Playwright may be never until the next step: a refusal is reported all the same);
        Chromium's window is told it is fullscreen (CDP `Browser.setWindowBounds`, `windowState:
        "fullscreen"`: under Playwright the element's fullscreen never resizes the window, Playwright's
        issue #27598); then the server makes it fill the screen (`fullscreen_window`: a window manager's
        fullscreen where there is one, the compositor's on wayland, else the server gives the window the
        screen's frame and marks it fullscreen, which Chromium takes for a window manager's doing)."""
        current = self.window(page, timeout)
        screen = self._server_screen(on or current["screen"])
        on = screen["name"]
        css = self._css(screen, page)
        self.server.move_window(current["id"], on)
        self._request_fullscreen(selector, page)
        try:
            target = self._cdp("Browser.getWindowForTarget", {}, page)["windowId"]
            self._cdp("Browser.setWindowBounds", {"windowId": target, "bounds": {"windowState": "fullscreen"}}, page)
        except BrowserError:
            raise
        except Exception:  # noqa: BLE001 - refused: the server's fullscreen below does it anyway
            pass
        self.server.fullscreen_window(current["id"], on)
        wanted = screen["frame"]
        filled = self._evaluate(FILLED_JS, {"width": round(wanted["width"] * css), "height": round(wanted["height"] * css),
                                            "timeout": int(timeout * 1000)}, page, timeout=timeout + 10)
        if not filled["filled"]:
            if filled["request"] not in ("pending", "ok", None):
                raise BrowserError(f"requestFullscreen() of {selector!r} was refused: {filled['request']}")
            raise BrowserError(f"the fullscreen element does not fill {on} ({wanted}) within {timeout:g} s: the page has "
                               f"{filled['width']}x{filled['height']} CSS pixels, fullscreen element {filled['element']!r}, "
                               f"requestFullscreen() {filled['request']}")

        def filling():
            w = next((w for w in self.server.windows() if w["id"] == current["id"]), None)
            return w if w is not None and w["frame"] == wanted and w["state"] == "fullscreen" else None
        window = until(filling, timeout, lambda: (f"the window does not fill {on} ({wanted}) within {timeout:g} s: "
                                                  f"{next((w for w in self.server.windows() if w['id'] == current['id']), None)}"))
        return window["frame"]

    def home(self) -> None:
        """The main page on the site's start page again."""
        raise NotImplementedError

    def exit_fullscreen(self, page: Any = None) -> None:
        """Ends the page's element fullscreen and its window's (Chromium's window state back to normal)."""
        self._evaluate(EXIT_FULLSCREEN_JS, None, page)
        try:
            target = self._cdp("Browser.getWindowForTarget", {}, page)
            if target["bounds"].get("windowState", "normal") != "normal":
                self._cdp("Browser.setWindowBounds", {"windowId": target["windowId"], "bounds": {"windowState": "normal"}}, page)
        except BrowserError:
            raise
        except Exception:  # noqa: BLE001 - a window Chromium has closed meanwhile
            pass

    def close(self) -> None:
        raise NotImplementedError
