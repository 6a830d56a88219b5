"""Drive the tutor in a real browser: Voila on loopback, Debian's Chromium through Playwright.

Used by the browser tests and by the ``tutor`` benchmark (from a source checkout). Nothing
here waits a fixed time: the page says when it is ready (``.cl-tutor-ready``)
and when the table has been redrawn (``data-move`` on the table).
"""

from __future__ import annotations

import http.client
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]  # the source checkout (this file is in its tests folder)
NOTEBOOK = "notebooks/tutorial.ipynb"
CHROMIUM = os.environ.get("CAPITAL_LUX_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
READY = ".cl-tutor-ready"
TABLE = ".cl-table-wrap"


def _handed_out() -> tuple[int, int]:
    """The ports the system hands out to a socket bound to port 0 or connecting out (Linux's
    ``ip_local_port_range``; the usual range where that file is missing)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_port() -> int:
    """A port free on every address now, below the range the system hands out for port 0.

    A port taken from that range (by binding to port 0) can be handed to someone else
    before the server this is for binds it: a kernel's ZMQ socket took one once, and the
    server's first answer was ZMQ's greeting (``BadStatusLine``). Ports below it are only
    taken by asking for them; ``serving`` still tries another if one is taken meanwhile."""
    low, _ = _handed_out()
    draw = random.SystemRandom()
    for _ in range(200):
        port = draw.randrange(max(1024, low - 12000), low)
        with socket.socket() as s:
            try:
                s.bind(("", port))  # free on every address: a class server may listen on them all
            except OSError:
                continue
            return port
    with socket.socket() as s:  # the range below is full: let the system choose
        s.bind(("", 0))
        chosen: int = s.getsockname()[1]
        return chosen


#: Switches off the pace at which one address may open pages (``capital_lux.serve.app``).
UNPACED = "--ClassVoila.page_burst=0"
#: One kernel kept warm instead of voila.json's two: a test opens its pages one after another,
#: and each kernel still warm when its server stops ran the notebook for nothing.
ONE_WARM = "--VoilaConfiguration.default_pool_size=1"
#: The notebooks folder served as a class serves it to one learner at a time: one exercises page
#: kept warm (``make class --learners=1``) and no other notebook's (with ``ONE_WARM`` the tutorial,
#: the tables and pass-and-play would each run a kernel no test of the exercises opens).
EXERCISES_WARM = ("--VoilaConfiguration.default_pool_size=0", "--ClassKernels.learners_expected=1")
#: No kernel kept warm, not even the teacher's page's (``ClassKernels.first_notebook``): for a
#: test whose pages are few and known, each page's kernel starts when it is asked for. A warm
#: pool is refilled as each page takes a kernel, so the pool's last kernels ran their notebooks
#: for nothing (the tables' test started 11 kernels for its 6 pages).
NONE_WARM = ("--VoilaConfiguration.default_pool_size=0", "--ClassKernels.first_notebook=")


def voila_command(port: int, *options: str) -> list[str]:
    """The class server's command (Voila with ``capital_lux.serve``'s guards), as ``make tutor`` runs it."""
    return [sys.executable, "-m", "capital_lux.serve", NOTEBOOK, f"--port={port}", "--no-browser",
            "--Voila.ip=127.0.0.1", *options]


@contextmanager
def voila_server(log_path: Path | None = None, timeout: float = 60.0,
                 options: tuple[str, ...] = (UNPACED, ONE_WARM),
                 environment: dict[str, str] | None = None) -> Iterator[str]:
    """The tutor served from the repository root (so ``voila.json`` applies); yields its URL.

    ``options`` are more command-line settings. By default one address may open pages as
    fast as it likes: a test's many pages, or a class's many learners, all come from this
    machine (``test_serve`` checks the pace a served class has); and one kernel is kept warm.
    The benchmarks pass ``(UNPACED,)``: the pool voila.json gives a served tutor.
    ``environment``: variables the server and its kernels get besides this process's own.
    """
    with serving(ROOT, NOTEBOOK, log_path, timeout, options, environment) as (url, _):
        yield url


def shared_tutor_log(name: str = "tutor") -> Path:
    """The log of a tutor server this test process shares (``conftest.tutor_server``)."""
    return ROOT / "test-artifacts" / f"voila-{name}-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.log"


@contextmanager
def serving(folder: Path, notebook: str, log_path: Path | None = None, timeout: float = 60.0,
            options: tuple[str, ...] = (), environment: dict[str, str] | None = None,
            ) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The class server on ``notebook`` (a path from ``folder``, where it starts); yields its URL and process.

    Started again on another port if the one chosen was taken before the server bound it
    (the server exits, or something else answers there), up to three times."""
    log = open(log_path, "w") if log_path else subprocess.DEVNULL
    proc: subprocess.Popen[bytes] | None = None
    try:
        for attempt in range(3):
            port = free_port()
            command = voila_command(port, *options)
            command[command.index(NOTEBOOK)] = notebook
            proc = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                                    env={**os.environ, **environment} if environment else None)
            if _answers(proc, port, timeout):
                break
            _stop(proc)
            if attempt == 2:
                raise RuntimeError(f"voila did not start on three ports (exit code {proc.returncode})")
        assert proc is not None
        yield f"http://127.0.0.1:{port}/", proc
    finally:
        if proc is not None:
            _stop(proc)
        if log_path:
            log.close()  # type: ignore[union-attr]


def _answers(proc: subprocess.Popen[bytes], port: int, timeout: float) -> bool:
    """Polls until the server on ``port`` answers HTTP (True), or exits, or another program
    answers there (False: the port was taken); raises ``TimeoutError`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:  # it prints nothing we could wait on portably
        if proc.poll() is not None:
            return False
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("HEAD", "/api/status")  # any answer will do; it does not start a kernel
            connection.getresponse()
            connection.close()
            return True
        except OSError:  # nobody listens yet (a connection closed unanswered is one too)
            if time.monotonic() > deadline:
                raise TimeoutError("voila did not start") from None
            time.sleep(0.1)
        except http.client.HTTPException:  # not HTTP: another program holds the port
            return False


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def outside_requests(page: Any) -> list[str]:
    """Filled, as the page loads, with every URL it asks of a host other than the server's.

    A classroom server often has no way out, and a stylesheet the page waits for from
    outside holds it blank until the request fails (see the capital-lux Voila template).
    """
    asked: list[str] = []
    page.on("request", lambda request: None if request.url.startswith(("http://127.0.0.1:", "blob:", "data:"))
            else asked.append(request.url))
    return asked


def launch(playwright: Any) -> Any:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


#: Every origin a profile page of this process has shown: their storage is cleared before each
#: profile page, whichever launch of the profile stored it.
_ORIGINS: set[str] = set()


#: What a page could keep between visits (not the HTTP cache nor the compiled scripts).
_STORAGE = "cookies,local_storage,indexeddb,service_workers,cache_storage"


def _seen(frame: Any) -> None:
    scheme, _, rest = frame.url.partition("://")
    if scheme in ("http", "https"):
        _ORIGINS.add(f"{scheme}://{rest.split('/', 1)[0]}")


class Profile:
    """Chromium on a profile kept on disk, used as a ``Browser`` (``new_page``, ``new_context``,
    ``close``): each browser module launches one (``conftest.chromium``) on its test process's
    profile folder.

    A learner's browser keeps the scripts it compiled; a fresh context (what ``Browser.new_page``
    gives) compiles Voila's 5 MB of them again at every page, about 1.3 s of Chromium's CPU of the
    2.5 s a tutor page costs it. So a page opened alone is opened in the profile, which keeps them,
    with every page's storage (the kept game, cookies) cleared first: it starts as a new visitor's
    page would, with a browser's cache. A page opened while another is open, or with settings of
    its own, gets a fresh context as before, so pages open together never share a storage."""

    def __init__(self, playwright: Any, folder: Path) -> None:
        self._profile = playwright.chromium.launch_persistent_context(
            str(folder), executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        self._keeper = self._profile.pages[0]  # the profile's first tab, kept open: the browser lives with it

    def __getattr__(self, name: str) -> Any:
        return getattr(self._profile.browser, name)

    def _forget_storage(self) -> None:
        self._profile.clear_cookies()
        session = self._profile.new_cdp_session(self._keeper)
        for origin in _ORIGINS:
            session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": _STORAGE})
        session.detach()

    def new_page(self, viewport: dict[str, int] | None = None, **settings: Any) -> Any:
        if settings or self.pages():
            page = self._profile.browser.new_page(viewport=viewport, **settings)
        else:
            self._forget_storage()
            page = self._profile.new_page()
            page.on("framenavigated", _seen)
            if viewport:
                page.set_viewport_size(viewport)
        return page

    def new_context(self, **settings: Any) -> Any:
        return self._profile.browser.new_context(**settings)

    def pages(self) -> list[Any]:
        """The profile's pages open now (its first tab aside)."""
        return [page for page in self._profile.pages if page is not self._keeper]

    def close(self) -> None:
        self._profile.close()


def open_tutor(browser: Any, url: str, timeout_ms: float = 60_000,
               viewport: tuple[int, int] = (1400, 1000)) -> tuple[Any, float]:
    """A new page on the tutor, and the seconds from navigation to an interactive app."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(READY, timeout=timeout_ms)
    page.wait_for_selector(f"{TABLE}[data-move]", state="attached", timeout=timeout_ms)  # drawn, in any tab
    return page, time.perf_counter() - start


#: The page script's watch on its kernel (``capital_lux.tutor.keep.page_script``) looks every 5 s.
WATCH_PERIOD_MS = 5_000


def until_told_lost(page: Any, seconds: float = 90.0) -> None:
    """Move the page's clock on (``page.clock``, installed before the page was loaded) one
    period of its kernel watch at a time until the page says its kernel is lost. The watch's
    own rule decides, on the page's clock (a ping unanswered 15 s while the kernel is idle);
    the test does not wait out those seconds in real time. Each step lets the watch's request
    to the server, and a pong the kernel would send, arrive before the next one."""
    deadline = time.monotonic() + seconds
    while page.query_selector(".cl-kernel-lost") is None:
        assert time.monotonic() < deadline, "the page never said its kernel was lost"
        page.clock.fast_forward(WATCH_PERIOD_MS)
        time.sleep(0.5)


def table_move(page: Any, scope: str = ".cl-freeplay") -> int:
    return int(page.get_attribute(f"{scope} {TABLE}", "data-move"))


def visible(page: Any, selector: str) -> list[Any]:
    """The elements ``selector`` (one selector, no list) finds that are visible, in one request
    to the page (asking each element whether it is visible cost a request apiece: a move of a
    whole game by clicking asked some thirty)."""
    return page.query_selector_all(f"{selector}:visible")


#: Installed in the page: the time from the last click to the next change of the table's data-move.
WATCH_TABLE = """() => {
  if (window.__clWatch) return;
  window.__clWatch = true;
  window.__clTimes = [];
  document.addEventListener('click', () => { window.__clClick = performance.now(); }, true);
  new MutationObserver(() => {
    const table = document.querySelector('.cl-freeplay .cl-table-wrap');
    if (!table || table.dataset.move === window.__clMove) return;
    window.__clMove = table.dataset.move;
    if (window.__clClick) window.__clTimes.push(performance.now() - window.__clClick);
    window.__clClick = null;
  }).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def next_step(where: str = ".cl-freeplay") -> str:
    """A selector for what the page waits on the learner for: a decision to make, a round end to read, or the end."""
    return ", ".join(f"{where} {x}" for x in (".cl-confirm-pick:visible", ".cl-hand-card:visible:enabled",
                                              ".cl-choice:visible", ".cl-continue:visible", '.cl-scores[data-final="1"]'))


def learner_move(
    page: Any, move: int, timing: list[float] | None = None, in_page: list[float] | None = None,
    where: str = ".cl-freeplay",
) -> bool:
    """Make one decision by clicking, with a fixed simple policy; False once the game is over.

    Policy (mirrored by the tests to rebuild the game): the first cards of the draft, the
    first card of the hand alternately into the Hometown and the Capital, the first choice.
    A round end the page pauses on is continued first (not a decision: the game is the same).
    """
    scope = where + " "
    page.wait_for_selector(next_step(where), timeout=60_000)
    if page.query_selector(scope + '.cl-scores[data-final="1"]'):
        return False
    if page.query_selector(scope + ".cl-continue:visible"):  # the page pauses on a round end: read, then go on
        page.click(scope + ".cl-continue")
        page.wait_for_selector(scope + ".cl-continue", state="hidden", timeout=60_000)
        return learner_move(page, move, timing, in_page, where)
    before = table_move(page, where)
    draft = visible(page, scope + ".cl-draft-card")
    confirm = visible(page, scope + ".cl-confirm-pick")
    hand = visible(page, scope + ".cl-hand-card:enabled")
    choices = visible(page, scope + ".cl-choice")
    if draft and confirm:
        need = int("".join(ch for ch in confirm[0].inner_text() if ch.isdigit()) or "2")
        for b in draft[:need]:
            b.click()
        start = time.perf_counter()
        confirm[0].click()
    elif hand:
        hand[0].click()
        target = scope + (".cl-to-home" if move % 2 == 0 else ".cl-to-capital")
        page.wait_for_selector(target, state="visible")
        if in_page is not None:
            page.evaluate(WATCH_TABLE)
            page.evaluate("() => { window.__clTimes = []; }")
        start = time.perf_counter()
        page.click(target)
    elif choices:
        start = time.perf_counter()
        choices[0].click()
    else:
        raise RuntimeError("no decision to make on the page")
    page.wait_for_selector(f'{scope}{TABLE}[data-move="{before + 1}"]', timeout=60_000)
    if timing is not None and hand and not draft:
        timing.append(time.perf_counter() - start)
    if in_page is not None and hand and not draft:
        times = page.evaluate("() => window.__clTimes")
        if times:
            in_page.append(times[0] / 1000)
    return True


def measure(players: int = 4, seed: int = 7, loads: int = 3) -> dict[str, float]:
    """Page interactive after load (median of ``loads`` fresh pages, each with its own kernel),
    and click-to-redrawn-table times over a whole game against rule-of-thumb bots."""
    from playwright.sync_api import sync_playwright

    clicks: list[float] = []
    in_page: list[float] = []
    load_times: list[float] = []
    query = f"?players={players}&seed={seed}&bots=rule"
    with voila_server(options=(UNPACED,)) as url, sync_playwright() as p:
        browser = launch(p)
        try:
            for _ in range(loads - 1):
                page, seconds = open_tutor(browser, url + query)
                load_times.append(seconds)
                page.close()
            page, seconds = open_tutor(browser, url + query)
            load_times.append(seconds)
            move = 0
            while learner_move(page, move, clicks, in_page):
                move += 1
        finally:
            browser.close()
    return {
        "page_interactive_seconds_median": round(statistics.median(load_times), 2),
        "page_interactive_seconds_max": round(max(load_times), 2),
        # measured in the page: the click event to the redrawn table (what the learner waits for)
        f"click_to_table_median_ms_{players}p": round(statistics.median(in_page) * 1000, 1),
        f"click_to_table_max_ms_{players}p": round(max(in_page) * 1000, 1),
        # the same seen from the test driver, Playwright's own work included
        f"click_to_table_driver_median_ms_{players}p": round(statistics.median(clicks) * 1000, 1),
        "plays_measured": float(len(clicks)),
    }
