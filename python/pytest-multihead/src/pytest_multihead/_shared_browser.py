"""`SharedBrowser`, what `multihead_chromium_shared` and `multihead_selenium_shared` give: one browser and
its own server for the tests of a module, and what a test changed undone before the next (the layout,
the pages, fullscreen, the main window's place, the cookies and the site's pages)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from . import browsers
from ._page_scripts import WAIT_JS, WATCH_JS
from .browsers import BrowserError, ChromiumBrowser, until


# --- A browser shared by the tests of a module ------------------------------------------------------------

#: What a screen must have again after a test (beyond its name): a difference is undone by a re-plug, or,
#: for the mode alone, a `mode`.
_LAYOUT_KEYS = ("frame", "primary", "scale", "manufacturer", "model", "serialNumber", "physicalSize")


def _layout_of(screens: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {s["name"]: {**{k: s.get(k) for k in _LAYOUT_KEYS}, "mode": s.get("currentMode")} for s in screens}


class SharedBrowser:
    """One browser and its own server for the tests of a module (`multihead_chromium_shared`,
    `multihead_selenium_shared`). `begin()` before each test, `restore()` after: the layout the server
    started with back (monitors a test plugged unplugged, those it unplugged, moved or re-plugged with
    another EDID plugged again as they were, a mode changed set back), every page but the main one closed,
    fullscreen ended, the main window back where it started, the cookies cleared, the site's added pages
    dropped and the main page on the start page again. The server is not leased again: its clients, the
    browser first, stay. `start()` makes the server and the browser; a restore that could not bring the
    layout back makes them again for the next test."""

    def __init__(self, start: Callable[[], tuple[Any, ChromiumBrowser]]):
        self._start = start
        self.server: Any = None
        self.browser: ChromiumBrowser | None = None
        self.broken: str | None = None
        #: How many browsers were launched (the first, and one after each restore that failed).
        self.launches = 0

    def _launch(self) -> None:
        self.server, self.browser = self._start()
        self.launches += 1
        self.broken = None
        self._layout = _layout_of(self.server.screens())
        self._screens = self.server.screens()
        main = self.browser.window()
        self._home = (main["screen"], main["frame"])

    def begin(self) -> ChromiumBrowser:
        if self.browser is not None and self.broken is not None:
            self.close()
        if self.browser is None:
            self._launch()
        return self.browser

    def restore(self) -> None:
        """Brings the module's state back for the next test; BrowserError (and a new server and browser
        for the next test) when the layout cannot be brought back."""
        b, server = self.browser, self.server
        try:
            b.reset_pages()
            b.exit_fullscreen()
            changed = self._restore_layout()
            b.site.reset()
            b.clear_state()
            self._restore_window()
            b.home()
            if changed:
                # Chromium learns of the layout's return by its own events: the next test starts once the
                # page sees the layout the server has.
                b._evaluate(WATCH_JS, int(browsers.SETTLE_TIMEOUT * 1000))
                seen = b._evaluate(WAIT_JS, {"since": 0, "expected": [s["frame"] for s in server.screens()], "needEvent": False,
                                             "timeout": int(browsers.TIMEOUT * 1000)}, timeout=browsers.TIMEOUT + 10)
                if not seen["ok"] and server.kind != "xvfb":
                    raise BrowserError(f"the browser does not see the layout restored within {browsers.TIMEOUT:g} s: {seen['screens']}")
        except Exception as error:
            self.broken = f"{type(error).__name__}: {error}"
            raise

    def _restore_window(self) -> None:
        b, server = self.browser, self.server
        screen, frame = self._home
        window = b.window()
        if window["frame"] != frame or window["screen"] != screen or window["state"] != "normal":
            origin = next(s["frame"] for s in server.screens() if s["name"] == screen)
            server.move_window(window["id"], screen, frame=(frame["x"] - origin["x"], frame["y"] - origin["y"], frame["width"], frame["height"]))
            # The compositor answers before the client has taken its new size: the window is waited for.
            until(lambda: next((w for w in server.windows() if w["id"] == window["id"] and w["frame"] == frame
                                and w["state"] == "normal"), None), browsers.TIMEOUT,
                  lambda: f"the shared browser's window is not back at {frame} within {browsers.TIMEOUT:g} s: {server.windows()}")

    def _restore_layout(self) -> bool:
        """Whether the layout had changed; BrowserError when it is not the first one after."""
        server = self.server
        now = _layout_of(server.screens())
        if now == self._layout:
            return False
        for name in now:
            if name not in self._layout:
                server.unplug(name)
        for first in self._screens:
            name = first["name"]
            was, current = self._layout[name], now.get(name)
            mode = first.get("currentMode") or {"width": first["frame"]["width"], "height": first["frame"]["height"]}
            size = f"{mode['width']}x{mode['height']}"
            others = {k: v for k, v in was.items() if k not in ("frame", "mode")}
            if current is not None and {k: v for k, v in current.items() if k not in ("frame", "mode")} == others and \
                    current["frame"]["x"] == was["frame"]["x"] and current["frame"]["y"] == was["frame"]["y"]:
                if current["mode"] != was["mode"]:
                    server.mode(name, size, rate=mode.get("refreshRate"))
                continue
            if current is not None:
                server.unplug(name)
            monitor: dict[str, Any] = {}
            if server.kind == "wayland" and first.get("scale") not in (None, 1):
                monitor["scale"] = first["scale"]
            server.plug(name, f"{size}+{first['frame']['x']}+{first['frame']['y']}", primary=bool(first.get("primary")) and server.kind != "wayland",
                        **monitor)
        after = _layout_of(server.screens())
        if after != self._layout:
            raise BrowserError(f"the shared browser's layout could not be restored: it was {self._layout}, it is {after}")
        return True

    def close(self) -> None:
        browser, server = self.browser, self.server
        self.browser = self.server = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if server is not None:
                server.stop()
