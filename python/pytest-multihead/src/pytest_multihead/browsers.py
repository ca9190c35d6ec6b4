"""Chromium on a test's server, driven by Playwright or Selenium: what a page sees of the screens, windows
opened and made fullscreen on the screen asked, each checked against what the server itself says
(`windows()`, `screens()`). The fixtures (`multihead_chromium`, `multihead_selenium` and their `_shared`
forms) are in plugin.py; docs/browsers.md says what works on each kind and why.

Neither Playwright nor Selenium is imported here: the plugin works without them, and a fixture that needs
one skips its test when it is missing."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

#: How long a browser may take to start (seconds): a busy CI's Chromium takes far longer than the 1–2 s here.
LAUNCH_TIMEOUT = 90.0

#: How long the fixtures wait for a fact (a window listed, the screens agreeing) by default (seconds).
TIMEOUT = 10.0

#: How long a call into Playwright that has no timeout of its own (evaluate, a CDP command, closing) may
#: take before Chromium is taken for stuck and killed, which ends the call (seconds).
STUCK_TIMEOUT = 60.0

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

START_PAGE = b"<!doctype html><meta charset=utf-8><title>multihead</title>"


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


class LocalSite:
    """Pages served from `http://127.0.0.1:PORT` (`origin`), a secure context as localhost is: the Window
    Management API (`getScreenDetails()`) is only there. `/` is a blank page titled "multihead";
    `serve(path, body)` adds another, `url(path)` is its address. Paths not served are 404."""

    def __init__(self) -> None:
        self._routes: dict[str, tuple[str, bytes]] = {}
        self.reset()
        site = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?", 1)[0]
                found = site._routes.get(path)
                if found is None:
                    self.send_error(404)
                    return
                kind, body = found
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_):
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, name="multihead-site", daemon=True).start()

    def serve(self, path: str, body: str | bytes, content_type: str = "text/html; charset=utf-8") -> str:
        """Serves `body` at `path` (from "/") and returns its URL."""
        if not path.startswith("/"):
            raise ValueError(f"a path starts with '/': {path!r}")
        self._routes[path] = (content_type, body.encode() if isinstance(body, str) else body)
        return self.url(path)

    def url(self, path: str = "/") -> str:
        """The address of `path` on this site; a whole URL is returned as it is."""
        return path if "://" in path or path.startswith(("about:", "data:")) else self.origin + (path if path.startswith("/") else "/" + path)

    def reset(self) -> None:
        """Only the start page left."""
        self._routes.clear()
        self._routes["/"] = ("text/html; charset=utf-8", START_PAGE)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


# --- What the page runs (each a function of one argument, run by Playwright's evaluate or Selenium's
# execute_async_script) --------------------------------------------------------------------------------

_DESCRIBE = """s => ({label: s.label, left: s.left, top: s.top, width: s.width, height: s.height,
  availLeft: s.availLeft, availTop: s.availTop, availWidth: s.availWidth, availHeight: s.availHeight,
  devicePixelRatio: s.devicePixelRatio, isPrimary: s.isPrimary, isInternal: s.isInternal, isExtended: s.isExtended})"""

#: How long a page's getScreenDetails() may take to settle (seconds). Chromium leaves it unsettled for
#: good in about one window in ten that a page opens (docs/browsers.md, "Limits"), so it is never awaited
#: without a bound.
SETTLE_TIMEOUT = 5.0

# getScreenDetails(), or a rejection naming UNSETTLED after `timeout` ms.
UNSETTLED = "getScreenDetails() did not settle"
_DETAILS = f"""timeout => Promise.race([window.getScreenDetails(),
  new Promise((_, reject) => setTimeout(() => reject(new Error("{UNSETTLED} within " + timeout + " ms")), timeout))])"""

SCREENS_JS = f"""async timeout => {{
  const details = await ({_DETAILS})(timeout);
  return details.screens.map({_DESCRIBE});
}}"""

# Once per document: the ScreenDetails kept, each `screenschange` and each screen's `change` noted with
# its time (Date.now(): the wall clock Python's time.time() reads), and whoever waits told at each.
WATCH_JS = """async timeout => {
  if (!window.__multihead) {
    const details = await (DETAILS)(timeout);
    if (!window.__multihead) {
      const m = window.__multihead = {details, events: [], waiters: new Set()};
      const followed = new WeakSet();
      const note = (type, label) => {
        m.events.push({type, label, time: Date.now()});
        for (const waiter of [...m.waiters]) waiter();
      };
      const follow = s => {
        if (!followed.has(s)) { followed.add(s); s.addEventListener("change", () => note("change", s.label)); }
      };
      details.screens.forEach(follow);
      details.addEventListener("screenschange", () => { details.screens.forEach(follow); note("screenschange", null); });
    }
  }
  return window.__multihead.events.length;
}""".replace("DETAILS", _DETAILS)

# Waits (until `timeout` ms) for a `screenschange` after event `since` (when `needEvent`) and for the
# screens to agree with `expected`, the server's frames: as many screens, each frame there as it is or
# over the screen's devicePixelRatio. Then one more turn of the event loop, so that the events Chromium
# queued with the last one (a screen's `change` after its `screenschange`) are seen too.
WAIT_JS = f"""async ({{since, expected, needEvent, timeout}}) => {{
  const m = window.__multihead;
  if (!m) return {{ok: false, happened: false, navigated: true, screens: [], events: []}};
  const describe = {_DESCRIBE};
  const has = (s, f) => {{
    const r = s.devicePixelRatio || 1;
    return (s.left === f.x && s.top === f.y && s.width === f.width && s.height === f.height) ||
      (s.left === Math.round(f.x / r) && s.top === Math.round(f.y / r) && s.width === Math.round(f.width / r) &&
       s.height === Math.round(f.height / r));
  }};
  const agrees = () => m.details.screens.length === expected.length && expected.every(f => m.details.screens.some(s => has(s, f)));
  const happened = () => !needEvent || m.events.slice(since).some(e => e.type === "screenschange");
  const ready = () => happened() && agrees();
  if (!ready()) {{
    await new Promise(resolve => {{
      const done = () => {{ m.waiters.delete(check); clearTimeout(timer); resolve(); }};
      const check = () => {{ if (ready()) done(); }};
      const timer = setTimeout(done, timeout);
      m.waiters.add(check);
    }});
  }}
  await new Promise(resolve => setTimeout(resolve, 0));
  return {{ok: ready(), happened: happened(), screens: m.details.screens.map(describe), events: m.events.slice(since)}};
}}"""

# Asks for the element's fullscreen (as the element `e`, with the user gesture the caller gives) without
# waiting for it: Chromium settles requestFullscreen()'s promise once the window has followed, which under
# Playwright (#27598) may be never, until the window is made fullscreen by other means. Its outcome is
# kept for FILLED_JS.
REQUEST_FULLSCREEN_JS = """e => {
  window.__multiheadFullscreen = "pending";
  e.requestFullscreen().then(() => { window.__multiheadFullscreen = "ok"; },
                             error => { window.__multiheadFullscreen = String(error && error.message || error); });
}"""

# Waits (until `timeout` ms) for the fullscreen element to fill `width` × `height` CSS pixels; a refused
# requestFullscreen() ends the wait at once.
FILLED_JS = """async ({width, height, timeout}) => {
  const refused = () => !["pending", "ok", undefined].includes(window.__multiheadFullscreen);
  const filled = () => !!document.fullscreenElement && innerWidth === width && innerHeight === height;
  if (!filled() && !refused()) {
    await new Promise(resolve => {
      const check = () => { if (filled() || refused()) done(); };
      // requestFullscreen()'s refusal comes with no event of its own (fullscreenerror is not always sent).
      const poll = setInterval(check, 50);
      const timer = setTimeout(() => done(), timeout);
      const done = () => {
        removeEventListener("resize", check);
        document.removeEventListener("fullscreenchange", check);
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      };
      addEventListener("resize", check);
      document.addEventListener("fullscreenchange", check);
    });
  }
  const e = document.fullscreenElement;
  return {filled: filled(), request: window.__multiheadFullscreen, element: e ? e.outerHTML.slice(0, 80) : null,
          width: innerWidth, height: innerHeight};
}"""

# Leaves fullscreen without waiting for exitFullscreen()'s promise (settled only once the window follows).
EXIT_FULLSCREEN_JS = "() => { if (document.fullscreenElement) document.exitFullscreen().catch(() => {}); }"

SET_TITLE_JS = "title => { const old = document.title; document.title = title; return old; }"
RESTORE_TITLE_JS = "title => { document.title = title; }"


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
                timeout=LAUNCH_TIMEOUT * 1000)
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
        return self._bounded("a page's script", STUCK_TIMEOUT if timeout is None else timeout + STUCK_TIMEOUT,
                             lambda: target.evaluate(source, arg))

    def _cdp(self, method, params=None, page=None):
        session = self._session(page)
        return self._bounded(f"CDP {method}", STUCK_TIMEOUT, lambda: session.send(method, params or {}))

    def _open(self, url, features, opener, timeout):
        with self.context.expect_page(timeout=timeout * 1000) as opened:
            self._evaluate("([url, features]) => { window.open(url, '_blank', features); }", [url, features], opener)
        page = opened.value
        page.wait_for_load_state(timeout=timeout * 1000)
        return page

    def _request_fullscreen(self, selector, page):
        # Playwright's evaluate runs with a user gesture, which requestFullscreen() needs.
        locator = (page or self.page).locator(selector)
        self._bounded(f"requestFullscreen() of {selector!r}", STUCK_TIMEOUT, lambda: locator.evaluate(REQUEST_FULLSCREEN_JS))

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
            self._bounded("closing Chromium", STUCK_TIMEOUT, self.context.close)
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
        self.driver.set_script_timeout(LAUNCH_TIMEOUT)
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
                    self.driver.set_script_timeout(LAUNCH_TIMEOUT)
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

    def open_window(self, url=None, on=None, frame=None, timeout=TIMEOUT, opener=None):
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
                b._evaluate(WATCH_JS, int(SETTLE_TIMEOUT * 1000))
                seen = b._evaluate(WAIT_JS, {"since": 0, "expected": [s["frame"] for s in server.screens()], "needEvent": False,
                                             "timeout": int(TIMEOUT * 1000)}, timeout=TIMEOUT + 10)
                if not seen["ok"] and server.kind != "xvfb":
                    raise BrowserError(f"the browser does not see the layout restored within {TIMEOUT:g} s: {seen['screens']}")
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
                                and w["state"] == "normal"), None), TIMEOUT,
                  lambda: f"the shared browser's window is not back at {frame} within {TIMEOUT:g} s: {server.windows()}")

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
