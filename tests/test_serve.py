"""The class server's guards (``capital_lux.serve``), against the server they guard.

Each test starts the server as ``make tutor`` does (``python -m capital_lux.serve``), or shares
one started so with the tests that need no other setting, and plays a page that misbehaves:
a websocket without Jupyter's v1 subprotocol, a frame that claims 2^60 offsets, a page asking
its kernel to shut down, a client opening pages faster than a person, a class larger than the
server's ceiling, pages closed without a goodbye.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator

import psutil
import pytest
import websocket
from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
from tornado import web

import browser as B
from capital_lux.serve.guards import ClassKernels

#: Each test serves pages and waits on the server (its pool, its cull): long, whatever the machine.
pytestmark = pytest.mark.slow
V1 = "v1.kernel.websocket.jupyter.org"
#: A page with one widget: it opens its kernel's websocket as the tutor does, in a second.
WIDGET_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "w", "metadata": {}, "outputs": [],
               "source": "import ipywidgets\nipywidgets.Button(description='ready', _dom_classes=['ready'])"}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


@contextmanager
def served(folder: Path, *options: str) -> Iterator[tuple[str, psutil.Process]]:
    """The guarded server on ``folder``'s widget page (with the project's voila.json)."""
    (folder / "page.ipynb").write_text(json.dumps(WIDGET_NOTEBOOK))
    shutil.copy(B.ROOT / "voila.json", folder / "voila.json")
    with B.serving(folder, "page.ipynb", folder / "server.log", options=options) as (url, proc):
        yield url, psutil.Process(proc.pid)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, psutil.Process, Path]]:
    """One server with no other setting, for the module's tests that each open pages of their own
    on it (one server started instead of three): its URL, its process and its log."""
    folder = tmp_path_factory.mktemp("served")
    with served(folder, B.UNPACED) as (url, server):
        yield url, server, folder / "server.log"


def _get(url: str) -> tuple[int, str, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=120) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


def _kernel_of(html: str) -> str:
    found = re.search(r'kernelId": "([0-9a-f-]+)"', html)
    assert found, "the page names its kernel"
    return found.group(1)


def _socket_url(url: str, kernel: str) -> str:
    return url.replace("http://", "ws://") + f"api/kernels/{kernel}/channels?session_id={uuid.uuid4()}"


def _frame(msg_type: str, channel: str = "shell", content: dict[str, object] | None = None) -> bytes:
    header = {"msg_id": uuid.uuid4().hex, "username": "learner", "session": uuid.uuid4().hex,
              "msg_type": msg_type, "version": "5.3"}
    parts = [json.dumps(part).encode() for part in (header, {}, {}, content or {})]
    frame: bytes = serialize_msg_to_ws_v1(parts, channel)
    return frame


def _kernel_alive(url: str, kernel: str) -> bool:
    return _get(url + f"api/kernels/{kernel}")[0] == 200


def _idle_seconds(url: str, kernel: str) -> float:
    """Seconds since the kernel last did anything, as the server's cull reckons them."""
    last = json.loads(_get(url + f"api/kernels/{kernel}")[1])["last_activity"]
    return time.time() - datetime.fromisoformat(last.replace("Z", "+00:00")).timestamp()


def _wait_until(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.5)
    return bool(condition())  # type: ignore[operator]


def test_a_legacy_websocket_is_refused_and_a_forged_frame_dropped_the_server_unharmed(
        shared: tuple[str, psutil.Process, Path]) -> None:
    url, server, log_path = shared
    status, html, _ = _get(url)
    kernel = _kernel_of(html)
    before = server.memory_info().rss
    # Voila 0.5.13 reads every reply to a legacy client as v1: asked for the widgets' state,
    # it built ~10^18 offsets and the server grew by gigabytes until MemoryError.
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(_socket_url(url, kernel), timeout=10)
    assert refused.value.status_code == 400
    # A v1 client's frame that claims 2^60 offsets (Jupyter Server would build them all):
    socket = websocket.create_connection(_socket_url(url, kernel), timeout=10, subprotocols=[V1])
    try:
        socket.send_binary((2**60).to_bytes(8, "little") + b"\0" * 64)
        socket.send_binary(_frame("comm_info_request"))
        reply = socket.recv()  # the socket still works: an answer to the well-formed request
        assert isinstance(reply, bytes) and b"comm_info_reply" in reply or b"status" in reply
    finally:
        socket.close()
    second, page, _ = _get(url)  # another learner's page still loads, and its kernel starts
    assert second == 200 and _kernel_of(page) != kernel
    assert server.memory_info().rss - before < 64 * 2**20
    log = log_path.read_text()
    assert "Refused a kernel websocket without the v1.kernel.websocket.jupyter.org subprotocol" in log
    assert "Dropped a kernel websocket frame that is not v1-framed" in log


def test_a_pages_shutdown_request_ends_its_kernel_for_good(shared: tuple[str, psutil.Process, Path]) -> None:
    url, _, _ = shared
    kernel = _kernel_of(_get(url)[1])
    socket = websocket.create_connection(_socket_url(url, kernel), timeout=10, subprotocols=[V1])
    try:
        socket.send_binary(_frame("shutdown_request", "control", {"restart": False}))
        assert _wait_until(lambda: not _kernel_alive(url, kernel), 30), "the kernel is still there"
    finally:
        socket.close()
    time.sleep(3)  # time enough for an auto-restart, which used to bring it back
    assert not _kernel_alive(url, kernel)


def test_a_full_class_and_a_hurried_client_get_a_page_that_says_so(tmp_path: Path) -> None:
    with served(tmp_path, "--ClassKernels.max_kernels=1", "--ClassVoila.page_burst=2",
                "--ClassVoila.pages_per_minute=1") as (url, _):
        first, _, _ = _get(url)
        full, page, _ = _get(url)
        hurried, wait_page, headers = _get(url)
    assert first == 200
    assert full == 503 and 'data-status="503"' in page
    for sentence in ("The class is full", "La classe est complète", "La clase está llena", "A turma está cheia"):
        assert sentence in page
    assert hurried == 429 and int(headers["Retry-After"]) > 0
    assert f"Wait {headers['Retry-After']} seconds" in wait_page
    assert f"Attendez {headers['Retry-After']} secondes" in wait_page
    assert "cdn" not in (page + wait_page).lower() and "http://" not in page + wait_page


@pytest.mark.browser
def test_closed_pages_lose_their_kernels_and_an_open_idle_page_keeps_its_own(tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    # 5 s: a page's kernel is kept until its browser connects (``ClassKernels.connect_grace``,
    # 300 s here), however long a busy machine takes to start it or to load the page; the cull
    # stopped such kernels before that guard (a 4 s timeout then lost a page's kernel).
    timeout = 5
    cull = (f"--MappingKernelManager.cull_idle_timeout={timeout}", "--MappingKernelManager.cull_interval=1")
    with served(tmp_path, B.UNPACED, *cull) as (url, _), sync_api.sync_playwright() as p:
        browser = B.launch(p)
        try:
            opened = [browser.new_page() for _ in range(4)]  # one kept open, three closed
            for page in opened:
                page.goto(url, wait_until="commit")  # the four load at once, as a class's pages do
            pages = []
            for page in opened:
                page.wait_for_selector(".ready", timeout=120_000)  # a busy machine starts kernels slowly
                pages.append((page, _kernel_of(page.content())))
            kept, kept_kernel = pages[0]
            for page, _ in pages[1:]:
                page.close()
            closed = [kernel for _, kernel in pages[1:]]
            assert _wait_until(lambda: not any(_kernel_alive(url, k) for k in closed), 60), \
                "closed pages' kernels outlived the cull"
            # idle longer than the cull's timeout, its page open (the pages after it took most of that time)
            time.sleep(max(0.0, timeout + 2 - _idle_seconds(url, kept_kernel)))
            assert _kernel_alive(url, kept_kernel) and _idle_seconds(url, kept_kernel) > timeout + 1
            kept.click(".ready")  # and the page still talks to it
            assert kept.query_selector(".ready")
        finally:
            browser.close()


def test_a_page_keeps_the_warm_kernel_it_took_until_its_browser_connects(tmp_path: Path) -> None:
    """A warm kernel idles in the pool as long as the class takes to arrive, and a page that
    takes one keeps it, however idle, until its browser connects or ``connect_grace`` has
    passed (a class's browsers took minutes under load, and the cull's 90 s stopped 7 of 30
    pages' kernels before their browsers came); a page that never connects loses it after."""
    timeout, grace = 3, 20  # the grace past three cull timeouts and a slow page's seconds (11 s)
    cull = (f"--MappingKernelManager.cull_idle_timeout={timeout}", "--MappingKernelManager.cull_interval=1",
            f"--ClassKernels.connect_grace={grace}")
    with served(tmp_path, B.UNPACED, *cull) as (url, _):
        log = tmp_path / "server.log"
        assert _wait_until(lambda: "Kernel pool of page.ipynb is filled" in log.read_text(), 120)
        time.sleep(timeout + 3)  # the pool's kernels idle past the cull's timeout (the pool keeps them)
        taken = time.monotonic()
        kernel = _kernel_of(_get(url)[1])  # a page takes one; its browser has not connected yet
        time.sleep(3 * timeout)  # idle three times the cull's timeout: many of its rounds
        assert _kernel_alive(url, kernel), "a page's kernel was culled before its browser could connect"
        assert _wait_until(lambda: not _kernel_alive(url, kernel), grace + 2 * timeout + 20), \
            "a page that never connected kept its kernel past the grace and the cull's timeout"
        assert time.monotonic() - taken > grace


def test_the_served_settings_cull_a_closed_page_within_two_minutes_and_keep_open_ones() -> None:
    kernels = json.loads((B.ROOT / "voila.json").read_text())["MappingKernelManager"]
    assert kernels["cull_idle_timeout"] + kernels["cull_interval"] <= 120
    assert kernels["cull_connected"] is False


def _replies(socket: websocket.WebSocket, seconds: float, until: Callable[[bytes], bool] | None = None,
             then: float = 2.0) -> list[bytes]:
    """Every frame the kernel sends in the next ``seconds``; with ``until``, only until the frames
    received satisfy it (a loaded machine answers late) and ``then`` seconds more."""
    frames: list[bytes] = []
    socket.settimeout(0.5)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            frames.append(socket.recv())
        except websocket.WebSocketTimeoutException:
            continue
        if until is not None and until(b"".join(frames)):
            deadline, until = min(deadline, time.monotonic() + then), None
    return frames


def test_a_failing_comm_open_tells_the_page_nothing_of_the_server(shared: tuple[str, psutil.Process, Path]) -> None:
    url, server, log_path = shared
    kernel = _kernel_of(_get(url)[1])
    [command] = [child.cmdline() for child in server.children(recursive=True)
                 if f"kernel-{kernel}.json" in " ".join(child.cmdline())]  # this page's kernel
    # no shared IPython history (its thread printed "database is locked" into pages under load)
    assert "--HistoryManager.enabled=False" in command
    socket = websocket.create_connection(_socket_url(url, kernel), timeout=10, subprotocols=[V1])
    try:
        for target in ("jupyter.widget", "no.such.target"):
            socket.send_binary(_frame("comm_open", content={
                "comm_id": uuid.uuid4().hex, "target_name": target,
                "data": {"state": {"_model_name": "NoSuchModel", "_model_module": "x"}, "buffer_paths": []}}))
        frames = _replies(socket, 4)
    finally:
        socket.close()
    seen = b"".join(frames).decode("utf-8", "replace")
    assert "Traceback" not in seen and str(B.ROOT) not in seen and "site-packages" not in seen
    assert "Exception opening comm with target: jupyter.widget" in log_path.read_text()  # kept here


def test_the_tree_page_lists_the_learners_pages_only_and_asks_nothing_of_outside() -> None:
    # no warm pools: four kernels running the class's notebooks, of no use to a tree page
    with B.serving(B.ROOT, "notebooks", options=(B.UNPACED, "--VoilaConfiguration.preheat_kernel=False")) as (url, _):
        status, tree, _ = _get(url)
        listed = json.loads(_get(url + "voila/api/contents/")[1])["content"]
        teacher, _, _ = _get(url + "voila/render/teacher.ipynb")  # reachable by its address, behind its key
    assert status == 200 and "https://" not in tree and "cdn" not in tree.lower()
    names = {item["name"] for item in listed}
    assert {"tutorial.ipynb", "probability_exercises.ipynb"} <= names and "teacher.ipynb" not in names
    assert teacher == 200


@pytest.mark.browser
def test_a_preheated_kernel_serves_the_learners_own_link(tutor_server: str) -> None:
    """Kernels start, and the notebook imports, before anyone arrives; the learner's link (its
    query: players, seed, language) still decides the page the kernel then builds. On the tutor
    server this process shares: its pool of one kernel refilled after each page it served."""
    sync_api = pytest.importorskip("playwright.sync_api")
    log = B.shared_tutor_log()

    def count(line: str) -> int:
        return log.read_text().count(line)

    used = count("Using pre-heated kernel")
    assert _wait_until(lambda: count("Kernel pool of tutorial.ipynb is filled") > used, 120)
    with sync_api.sync_playwright() as p:
        browser = B.launch(p)
        try:
            page, _ = B.open_tutor(browser, tutor_server + "?lang=fr&open=free&players=4&seed=7&bots=rule")
            text = page.inner_text(".cl-freeplay")
        finally:
            browser.close()
    assert count("Using pre-heated kernel") == used + 1  # this page's kernel was the warm one
    assert "Robot 3" in text  # four seats, in French: the link's own settings


def test_kernels_kept_warm_are_not_learners_and_a_refused_fill_is_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    # CI once answered the first learner "the class is full": the pool's first kernel was still
    # starting, and a ceiling of one counted it against the page that had come to take it.
    kernels = ClassKernels(max_kernels=2)
    loop = asyncio.new_event_loop()
    try:
        warm, refused, starting = loop.create_future(), loop.create_future(), loop.create_future()
        warm.set_result({"kernel_id": "warm"})
        refused.set_exception(web.HTTPError(503))
        pool = [warm, refused, starting]
        monkeypatch.setattr(kernels, "_pools", {"page.ipynb": pool}, raising=False)
        monkeypatch.setattr(kernels, "list_kernel_ids", lambda: ["warm", "a learner's", "just listed"])
        kernels._started = {"warm", "a learner's", "gone"}  # "just listed": its start has not returned
        kernels._starting, kernels._filling = 1, 1  # the pool's third, starting
        assert kernels.learners() == 1 and not kernels.is_full()
        kernels.drop_refused_fills()
        assert pool == [warm, starting]
        pool.remove(warm)  # a page takes the warm kernel
        assert kernels.learners() == 2 and kernels.is_full()
    finally:
        loop.close()


def test_the_pool_is_refilled_once_no_page_is_being_built_one_kernel_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # 30 pages taken from the pool asked Voila for 30 new warm kernels at once, and their
    # start-up slowed every page of the class still being built.
    from capital_lux.serve import guards

    now = [100.0]
    monkeypatch.setattr(guards.time, "monotonic", lambda: now[0])
    kernels = ClassKernels(fill_spacing=2.0)
    loop = asyncio.new_event_loop()
    pool: list[asyncio.Task[None]] = []
    monkeypatch.setattr(kernels, "_pools", {"page.ipynb": pool}, raising=False)

    def turn() -> None:  # let every waiting refill look at the clock
        for _ in range(3):
            loop.run_until_complete(asyncio.sleep(0))

    try:
        before, also = (loop.create_task(kernels._fill_when_quiet(step=0)) for _ in range(2))
        pool += [before, also]
        turn()  # the pool's first filling, before any learner: one kernel at a time too
        assert [before.done(), also.done()].count(True) == 1
        now[0] = 102.0
        turn()
        assert before.done() and also.done()
        pool.remove(before)
        pool.remove(also)
        kernels.page_started()  # two learners' pages are being built
        kernels.page_started()
        first, second, third = (loop.create_task(kernels._fill_when_quiet(step=0)) for _ in range(3))
        pool += [first, second, third]
        now[0] = 160.0
        turn()
        assert not any(task.done() for task in pool)  # however long they take
        pool.remove(third)  # a page came for this very kernel: it starts now
        turn()
        assert third.done() and not first.done() and not second.done()
        kernels.page_finished()
        turn()
        assert not first.done() and not second.done()  # one page is still being built
        kernels.page_finished()
        now[0] = 161.5  # no page is being built, but the refill before started 1.5 s ago
        turn()
        assert not first.done() and not second.done()
        now[0] = 162.5
        turn()
        assert [first.done(), second.done()].count(True) == 1  # one at a time
        now[0] = 164.5
        turn()
        assert first.done() and second.done()
        kernels.page_finished()  # a request that ended twice over counts once
        assert kernels.building == 0
    finally:
        loop.close()


def test_a_class_of_thirty_is_kept_warm_for_the_notebook_it_opens() -> None:
    from traitlets import Dict

    class WithPools(ClassKernels):  # as Voila's preheating manager is made: ClassKernels below it
        kernel_pools_config = Dict({"default": {"pool_size": 2, "kernel_env_variables": {"A": "1"}}})

    pools = WithPools(learners_expected=30).kernel_pools_config
    assert pools["probability_exercises.ipynb"] == {"pool_size": 30, "kernel_env_variables": {"A": "1"}}
    assert pools["default"]["pool_size"] == 2  # the other notebooks keep Voila's pool
    assert WithPools(first_notebook="").kernel_pools_config == {
        "default": {"pool_size": 2, "kernel_env_variables": {"A": "1"}}}


def _modules_after(code: str) -> dict[str, object]:
    """Which of the heavy modules a fresh Python has imported after ``code``, and how ``rfc3987_syntax`` stands."""
    probe = (f"{code}\nimport json, sys\nprint(json.dumps({{m: m in sys.modules for m in "
             "('jupyter_server', 'voila.app', 'jsonschema', 'rfc3987_syntax', 'lark')}))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True,
                          cwd=B.ROOT)
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_a_kernel_loads_the_servers_extension_without_jupyter_server_and_jsonschema_without_its_grammars() -> None:
    """Every kernel the class server starts loads ``capital_lux.serve.kernel``: importing the
    package's guards with it cost each kernel 1.55 s of CPU (Jupyter Server, and jsonschema's
    IRI grammars), for nothing it uses. Loaded, it imports jsonschema without its IRI grammars,
    so that the notebook's ``voila.utils`` (which imports Jupyter Server, and so jsonschema)
    does not build them either."""
    loaded = _modules_after("import capital_lux.serve.kernel")
    assert loaded == {"jupyter_server": False, "voila.app": False, "jsonschema": False, "rfc3987_syntax": False,
                      "lark": False}
    loaded = _modules_after("from capital_lux.serve.kernel import load_ipython_extension\n"
                            "load_ipython_extension(None)  # the shell is not read\n"
                            "from voila.utils import get_query_string")
    assert loaded == {"jupyter_server": True, "voila.app": False, "jsonschema": True, "rfc3987_syntax": False,
                      "lark": False}
    from capital_lux import serve
    from capital_lux.serve import guards

    assert serve.KernelSocket is guards.KernelSocket and serve.ClassKernels is guards.ClassKernels  # still there


def test_the_class_server_imports_jsonschema_without_its_iri_grammars() -> None:
    """``python -m capital_lux.serve`` (here asked only for its help) imports Voila, Jupyter
    Server and so jsonschema, but not the IRI grammars jsonschema would build (``position.import_jsonschema``)."""
    loaded = _modules_after("import contextlib, io, runpy, sys\nsys.argv = ['capital_lux.serve', '--help']\n"
                            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
                            "    runpy.run_module('capital_lux.serve', run_name='__main__')")
    assert loaded == {"jupyter_server": True, "voila.app": True, "jsonschema": True, "rfc3987_syntax": False,
                      "lark": False}


def test_a_persons_server_on_the_hub_imports_jsonschema_without_its_iri_grammars() -> None:
    """The hub starts each person's server with ``python -m capital_lux.serve.singleuser``
    (``deploy/``): JupyterHub's single-user server, here asked only for its help, with
    Jupyter Server and jsonschema imported, but not the IRI grammars."""
    loaded = _modules_after("import contextlib, io, runpy, sys\nsys.argv = ['capital_lux.serve.singleuser', '--help']\n"
                            "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()) as out:\n"
                            "    runpy.run_module('capital_lux.serve.singleuser', run_name='__main__')\n"
                            "assert 'Options' in out.getvalue(), out.getvalue()  # its help was printed")
    assert loaded == {"jupyter_server": True, "voila.app": False, "jsonschema": True, "rfc3987_syntax": False,
                      "lark": False}
