"""The pytest plugin: the `multihead_server` fixture, the `multihead` marker and the command line options."""

from __future__ import annotations

import importlib
import os
import shutil
import time

import pytest

from ._bundle import bundled_binary
from ._playwright import PlaywrightChromium
from ._selenium import SeleniumChromium
from ._shared_browser import SharedBrowser
from .browsers import CHROMIUM_NAMES, find_chromium
from .server import KINDS, MultiheadError, MultiheadServer, MultiheadWarning, _layout, _layout_refusal

#: How long a failing test's screenshots may take, all screens together (seconds): more than the X
#: server's watchdog (5 s), after which the server answers `notResponding`, and far less than a request's
#: usual timeout, so that a stuck server costs a failing test little.
SCREENSHOT_TIMEOUT = 10.0


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("multihead", "private X servers with monitors (multihead)")
    group.addoption("--multihead-kind", choices=sorted(KINDS), default=None,
                    help="the kind of server for tests whose marker names none (default: the CLI's: xorg, Xorg with "
                         "Multihead's driver, where it can start, else xvfb with a MultiheadWarning saying why)")
    group.addoption("--multihead-bin", default=None,
                    help="the multihead command line tool (default: $MULTIHEAD_BIN, else the one this wheel "
                         "carries, else multihead on PATH)")
    group.addoption("--multihead-chromium", default=None, metavar="PATH",
                    help="the Chromium of multihead_chromium and multihead_selenium (default: the first of "
                         f"{', '.join(CHROMIUM_NAMES)} on PATH: the system's)")
    group.addoption("--multihead-chromedriver", default=None, metavar="PATH",
                    help="the ChromeDriver of multihead_selenium, matching that Chromium (default: chromedriver on "
                         "PATH: Debian's chromium-driver); Selenium Manager is never used")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "multihead(monitors=None, kind=None, glx=False, wm=False, fresh=False): the monitor sizes (\"1920x1080,1280x720\" "
        "or a list of sizes, left to right, the first primary), the kind of server (xorg, xvfb, xorg-dummy, or wayland: Multihead's Wayland compositor, whose env has WAYLAND_DISPLAY, XDG_RUNTIME_DIR and DISPLAY for Xwayland; default "
        "--multihead-kind, else the CLI's default) of this test's multihead_server, whether it "
        "keeps the GLX extension, whether openbox manages its windows (X kinds), and whether it is a server of the test's own instead of a lease of the "
        "worker's warm one; on a module (pytestmark), the layout, kind and wm of multihead_chromium_shared's and "
        "multihead_selenium_shared's server")


def _binary(config: pytest.Config) -> str:
    """`--multihead-bin`, else `$MULTIHEAD_BIN`, else the CLI this wheel carries, else `multihead` on PATH."""
    given = config.getoption("--multihead-bin") or os.environ.get("MULTIHEAD_BIN") or bundled_binary() or "multihead"
    found = shutil.which(given)
    if found is None:
        pytest.fail(f"multihead: {given!r} is not an executable (give --multihead-bin or MULTIHEAD_BIN, install "
                    "the wheel that carries the CLI, or put multihead on PATH)", pytrace=False)
    return found


_HOSTS = pytest.StashKey[dict]()


def _warm_server(config: pytest.Config, kind: str | None, glx: bool) -> tuple[MultiheadServer, str | None, bool]:
    """This process's (this worker's) warm server of a kind (None: the CLI's default kind), started at the
    first test that needs it and stopped at the session's end, why it was replaced, if it was, and whether
    it was started now. Before it is handed out it must answer `hello` within a few seconds (HELLO_TIMEOUT):
    one that does not, or whose process has ended, is killed (by PID) and replaced by a fresh one."""
    hosts = config.stash.setdefault(_HOSTS, {})
    host = hosts.get((kind, glx))
    replaced = None
    if host is not None:
        failure = host.check()
        if failure is not None:
            host.kill()
            del hosts[(kind, glx)]
            replaced = f"the worker's warm {host.kind} server was replaced by a fresh one: {failure}"
            host = None
    started = host is None
    if host is None:
        host = MultiheadServer(_binary(config), kind=kind, glx=glx)
        hosts[(kind, glx)] = host
    return host, replaced, started


def pytest_unconfigure(config: pytest.Config) -> None:
    for host in config.stash.get(_HOSTS, {}).values():
        if host.failure is not None:
            host.kill()
        else:
            host.stop()


_MARKER_OPTIONS = {"monitors", "kind", "glx", "wm", "fresh"}


def _marker_options(marker, config: pytest.Config) -> dict:
    """The multihead marker's options, checked: `monitors` (a layout or None), `kind`, `glx`, `wm`, `fresh`."""
    options = dict(marker.kwargs) if marker else {}
    if marker and marker.args:
        raise pytest.UsageError(f"multihead marker: takes keyword arguments only (monitors=, kind=, glx=, wm=, fresh=), "
                                f"got {', '.join(map(repr, marker.args))}")
    unknown = set(options) - _MARKER_OPTIONS
    if unknown:
        raise pytest.UsageError(f"multihead marker: unknown argument(s) {', '.join(sorted(unknown))}")
    kind = options.get("kind") or config.getoption("--multihead-kind") or None
    if kind is not None and kind not in KINDS:
        raise pytest.UsageError(f"multihead marker: unknown kind {kind!r}: one of {', '.join(KINDS)}")
    refusal = _layout_refusal(options.get("monitors"))
    if refusal is not None:
        raise pytest.UsageError(f"multihead marker: {refusal}")
    return {"monitors": _layout(options.get("monitors")), "kind": kind, "glx": bool(options.get("glx")),
            "wm": bool(options.get("wm")), "fresh": bool(options.get("fresh"))}


#: The fixtures that share one browser and its own server across a module's tests.
_SHARED = ("multihead_chromium_shared", "multihead_selenium_shared")


@pytest.fixture
def multihead_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """A private X server for this test, with the monitors its marker asks for.

    By default a lease of this worker's warm `multihead server` (one per kind and GLX, started at the first
    test that needs it): the server reset to fresh and checked, with a cookie of the test's own that the
    teardown revokes (every client the test started is closed then). `@pytest.mark.multihead(fresh=True)`
    starts a server of the test's own, stopped when it ends: for a test that kills, freezes or waits for
    the end of its server. With `wm=True` the test's lease runs openbox, set up for tests (fullscreen and
    maximize per monitor, a window on an unplugged monitor moved to the main one; the compositor of
    `kind="wayland"` is its own window manager). The marker's `monitors`, `kind` and `glx` set the layout, the kind (default
    `--multihead-kind`, else the CLI's default: Xorg with Multihead's driver where it can start, else Xvfb,
    and then the test that started the server gets a MultiheadWarning saying why) and whether the server
    keeps GLX. A failing test gets a PNG of each screen, named in its report.

    In a test that uses `multihead_chromium_shared` or `multihead_selenium_shared`, it is that shared
    browser's server (the module's own, not leased again: see those fixtures)."""
    shared = next((name for name in _SHARED if name in request.fixturenames), None)
    if shared is not None:
        yield request.getfixturevalue(shared).server
        return
    options = _marker_options(request.node.get_closest_marker("multihead"), request.config)
    monitors, kind, glx, wm = options["monitors"], options["kind"], options["glx"], options["wm"]
    if options["fresh"]:
        server = MultiheadServer(_binary(request.config), monitors=monitors, kind=kind, glx=glx, wm=wm)
        notice = server.notice
    else:
        host, replaced, started = _warm_server(request.config, kind, glx)
        if replaced is not None:
            request.node.warn(MultiheadWarning(replaced))
        notice = host.notice if started else None
        server = host.lease(monitors, wm=wm)
        if replaced is not None:
            server.replaced, server.reason = True, replaced
    if notice is not None:
        request.node.warn(MultiheadWarning(notice))
    request.node._multihead = (server, tmp_path_factory)
    try:
        yield server
    finally:
        del request.node._multihead
        server.stop()


# --- Browsers ------------------------------------------------------------------------------------------

def _import_or_skip(module: str, fixture: str, what: str, extra: str):
    """The module, or the test skipped saying which package it needs and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        pytest.skip(f"{fixture} needs {what}, which is not installed ({error}): pip install 'pytest-multihead[{extra}]'")


def _chromium(config: pytest.Config, fixture: str) -> str:
    """`--multihead-chromium`, else the system's Chromium; a test skipped when there is none."""
    given = config.getoption("--multihead-chromium")
    found = find_chromium(given)
    if found is None:
        if given:
            pytest.fail(f"{fixture}: --multihead-chromium {given!r} is not an executable", pytrace=False)
        pytest.skip(f"{fixture} needs Chromium: none of {', '.join(CHROMIUM_NAMES)} is on PATH (Debian: apt-get install "
                    "chromium), and no --multihead-chromium PATH was given")
    return found


def _chromedriver(config: pytest.Config, fixture: str) -> str:
    """`--multihead-chromedriver`, else chromedriver on PATH; a test skipped when there is none (Selenium
    Manager, which would download one, is never asked)."""
    given = config.getoption("--multihead-chromedriver")
    found = shutil.which(given or "chromedriver")
    if found is None:
        if given:
            pytest.fail(f"{fixture}: --multihead-chromedriver {given!r} is not an executable", pytrace=False)
        pytest.skip(f"{fixture} needs ChromeDriver for the system's Chromium: no chromedriver on PATH (Debian: apt-get "
                    "install chromium-driver), and no --multihead-chromedriver PATH was given")
    return found


def _not_both(request: pytest.FixtureRequest, fixture: str) -> None:
    others = [name for name in ("multihead_chromium", "multihead_selenium", *_SHARED) if name != fixture and name in request.fixturenames]
    if others:
        pytest.fail(f"{fixture} and {', '.join(others)} in one test: each starts a browser of its own on a server of its "
                    "own choosing; use one of them", pytrace=False)


@pytest.fixture(scope="session")
def _multihead_playwright(request: pytest.FixtureRequest):
    """Playwright's driver, started once per worker (pytest-playwright's own when that plugin is there:
    two sync Playwrights cannot run in one thread)."""
    sync_api = _import_or_skip("playwright.sync_api", "multihead_chromium", "Playwright for Python", "playwright")
    if request.config.pluginmanager.has_plugin("playwright"):
        try:
            yield request.getfixturevalue("playwright")
            return
        except pytest.FixtureLookupError:
            pass
    playwright = sync_api.sync_playwright().start()
    try:
        yield playwright
    finally:
        playwright.stop()


@pytest.fixture
def multihead_chromium(request: pytest.FixtureRequest, tmp_path):
    """Chromium (the system's, or `--multihead-chromium`) launched by Playwright on this test's
    `multihead_server`, headful: X11 on the X kinds, native Wayland on `kind="wayland"`. Its profile is in
    the test's folder, there is no viewport emulation (a page is its window's size), and its main page
    (`.page`) is on a site of its own at http://127.0.0.1:PORT (`.site`: `serve(path, html)` adds a page),
    where the Window Management permission is granted. `.context` and `.browser` are Playwright's;
    `.screens()`, `.expect_screens_change()`, `.open_window(url, on=…, frame=…)`, `.fullscreen(selector,
    on=…)` and `.window(page)` say and do what docs/browsers.md shows, each checked against the server.
    Closed at the end of the test, before the server's lease ends. Skipped when Playwright for Python is
    not installed (`pip install 'pytest-multihead[playwright]'`) or there is no Chromium."""
    _not_both(request, "multihead_chromium")
    _import_or_skip("playwright.sync_api", "multihead_chromium", "Playwright for Python", "playwright")
    binary = _chromium(request.config, "multihead_chromium")
    playwright = request.getfixturevalue("_multihead_playwright")
    server = request.getfixturevalue("multihead_server")
    browser = PlaywrightChromium(playwright, server, binary, tmp_path / "chromium")
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def multihead_selenium(request: pytest.FixtureRequest, tmp_path):
    """Chromium started by Selenium through ChromeDriver (`--multihead-chromedriver`, else Debian's
    chromedriver on PATH, named explicitly: Selenium Manager never runs) on this test's `multihead_server`,
    as `multihead_chromium` is: `.driver` is Selenium's WebDriver, on the site's start page; the same
    methods, a page being a window handle. Skipped when Selenium is not installed (`pip install
    'pytest-multihead[selenium]'`), or there is no Chromium or no ChromeDriver."""
    _not_both(request, "multihead_selenium")
    _import_or_skip("selenium.webdriver", "multihead_selenium", "Selenium", "selenium")
    binary = _chromium(request.config, "multihead_selenium")
    driver = _chromedriver(request.config, "multihead_selenium")
    server = request.getfixturevalue("multihead_server")
    browser = SeleniumChromium(server, binary, driver, tmp_path / "chromium")
    try:
        yield browser
    finally:
        browser.close()


def _shared_browser(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, launch) -> SharedBrowser:
    """The module's SharedBrowser: a `multihead server` of its own with the module's marker's layout
    (`pytestmark = pytest.mark.multihead(…)`), and a browser `launch(server, folder)` starts on it."""
    options = _marker_options(request.node.get_closest_marker("multihead"), request.config)
    binary = _binary(request.config)

    def start():
        server = MultiheadServer(binary, monitors=options["monitors"], kind=options["kind"], glx=options["glx"], wm=options["wm"])
        try:
            return server, launch(server, tmp_path_factory.mktemp("chromium-shared"))
        except BaseException:
            server.stop()
            raise
    return SharedBrowser(start)


@pytest.fixture(scope="module")
def _multihead_chromium_module(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    _import_or_skip("playwright.sync_api", "multihead_chromium_shared", "Playwright for Python", "playwright")
    binary = _chromium(request.config, "multihead_chromium_shared")
    playwright = request.getfixturevalue("_multihead_playwright")
    shared = _shared_browser(request, tmp_path_factory, lambda server, folder: PlaywrightChromium(playwright, server, binary, folder))
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture(scope="module")
def _multihead_selenium_module(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    _import_or_skip("selenium.webdriver", "multihead_selenium_shared", "Selenium", "selenium")
    binary = _chromium(request.config, "multihead_selenium_shared")
    driver = _chromedriver(request.config, "multihead_selenium_shared")
    shared = _shared_browser(request, tmp_path_factory, lambda server, folder: SeleniumChromium(server, binary, driver, folder))
    try:
        yield shared
    finally:
        shared.close()


def _use_shared(request: pytest.FixtureRequest, fixture: str, module_fixture: str, tmp_path_factory):
    _not_both(request, fixture)
    module = request.node.getparent(pytest.Module)
    own = request.node.get_closest_marker("multihead")
    module_marker = module.get_closest_marker("multihead") if module is not None else None
    if own is not None and (module_marker is None or (own.args, own.kwargs) != (module_marker.args, module_marker.kwargs)):
        pytest.fail(f"{fixture} takes its server's layout from the module's marker (pytestmark = "
                    f"pytest.mark.multihead(…)); this test's own {own.kwargs} would not be applied: give the module the "
                    "marker, or use the per-test fixture", pytrace=False)
    shared = request.getfixturevalue(module_fixture)
    browser = shared.begin()
    request.node._multihead = (shared.server, tmp_path_factory)
    try:
        yield browser
    finally:
        del request.node._multihead
        shared.restore()


@pytest.fixture
def multihead_chromium_shared(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """`multihead_chromium`, one browser for all the tests of a module that use it, on a `multihead server`
    of the module's own (its layout, kind and `wm` from the module's marker: `pytestmark =
    pytest.mark.multihead(…)`; a test's own marker is refused), started at the first such test and stopped
    after the module. In these tests `multihead_server` is that server, and `.server` too.

    After each test the fixture restores: the monitors the test plugged are unplugged, those it unplugged,
    moved or re-plugged differently are plugged again as they were and modes are set back (through the
    control socket); every page but the main one is closed, fullscreen ended, the main window put back, the
    cookies cleared, the site's added pages dropped and the main page loaded again from the start page.
    When the layout cannot be restored, the test errors at teardown and the next test gets a new server
    and browser.

    What it gives up, for a test's overhead of tens of milliseconds instead of a browser's launch: the
    server is not leased again, so nothing is reset that a lease would reset (X resources, root window
    properties, keyboard state, the clients the test started: they stay connected); the browser keeps its
    process, its profile (cache, local storage and IndexedDB, service workers, history, granted permissions)
    and whatever a page changed in it outside the main page; one test's crash of the browser is the next
    one's. Under pytest-xdist each worker that runs a test of the module starts its own (`--dist loadscope`
    keeps a module on one worker)."""
    yield from _use_shared(request, "multihead_chromium_shared", "_multihead_chromium_module", tmp_path_factory)


@pytest.fixture
def multihead_selenium_shared(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """`multihead_selenium`, shared by the tests of a module as `multihead_chromium_shared` is, with the same
    restore between tests and the same isolation given up."""
    yield from _use_shared(request, "multihead_selenium_shared", "_multihead_selenium_module", tmp_path_factory)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    attached = getattr(item, "_multihead", None)
    if attached and report.when == "call" and report.failed:
        server, factory = attached
        report.sections.append(("multihead screens", "\n".join(_screenshots(item, report, server, factory))))


def _screenshots(item: pytest.Item, report: pytest.TestReport, server, factory: pytest.TempPathFactory) -> list[str]:
    """Takes a PNG of each screen of a failing test's server, within SCREENSHOT_TIMEOUT all told; returns
    the report's lines: a path per screen, or why there is none. Whatever goes wrong becomes a line: a
    report hook that raised would end the whole session."""
    lines = []
    deadline = time.monotonic() + SCREENSHOT_TIMEOUT
    left = lambda: max(deadline - time.monotonic(), 0.001)
    try:
        folder = factory.mktemp(f"multihead-{item.name}"[:60], numbered=True)
        for i, screen in enumerate(server._request("screens", timeout=left())["screens"]):
            # The name is the server's: only its safe characters go into a file name.
            safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in str(screen["name"]))[:64]
            path = folder / f"{i}-{safe}.png"
            server._request("screenshot", output=os.path.abspath(path), screen=screen["name"], timeout=left())
            lines.append(f"{screen['name']}: {path}")
            # On the item: the teardown's report, which JUnit XML reads properties from, copies them.
            item.user_properties.append(("multihead screenshot", os.fspath(path)))
            report.user_properties.append(("multihead screenshot", os.fspath(path)))
    except MultiheadError as error:
        lines.append(f"no screenshot: {error}")
    except Exception as error:  # noqa: BLE001 - a bug here must not end the session either
        lines.append(f"no screenshot: {type(error).__name__}: {error}")
    return lines
