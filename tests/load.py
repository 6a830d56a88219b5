"""A classroom in one machine: many learners' pages on one Voila, each playing a whole game.

Used by ``tests/test_load_browser.py`` and the ``load`` benchmark. Each session is a
page of its own (so a kernel of its own) driven concurrently with Playwright's async
API: it makes every decision by clicking (first draft cards, first hand card into the
Hometown, first choice) until the score sheet is final.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import psutil

from browser import CHROMIUM, CHROMIUM_ARGS, READY, TABLE, outside_requests, voila_server
from learner import Arrival, arrive, shows_table

SCOPE = ".cl-freeplay "
DECISION = ", ".join(
    SCOPE + x
    for x in (".cl-confirm-pick:visible", ".cl-hand-card:visible:enabled", ".cl-choice:visible",
              ".cl-continue:visible", '.cl-scores[data-final="1"]')
)
CONTINUE = SCOPE + ".cl-continue:visible"  # a round end the page pauses on


async def _visible(page: Any, selector: str, enabled: bool = False) -> list[Any]:
    """As ``browser.visible``: one request to the page, not one per element."""
    return await page.query_selector_all(f"{selector}:visible{':enabled' if enabled else ''}")


async def play_session(
    browser: Any, url: str, players: int, seed: int, timeout_ms: float, loading: asyncio.Semaphore
) -> dict[str, Any]:
    """One learner's whole game: the seconds it took, the decisions made, and the URLs the
    page asked of any host but the server (there should be none)."""
    # Each learner has a browser of their own: one Chromium profile opens at most 6
    # connections to a host, and every tutor page keeps its kernel's websocket open.
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    async with loading:  # everyone opens the link at once (a smaller semaphore would stagger them)
        page = await context.new_page()
        outside = outside_requests(page)
        start = time.perf_counter()
        await page.goto(f"{url}?players={players}&seed={seed}&bots=random", timeout=timeout_ms)
        await page.wait_for_selector(READY, timeout=timeout_ms)
        await page.wait_for_selector(f"{SCOPE}{TABLE}[data-move]", timeout=timeout_ms)
        loaded = time.perf_counter() - start
    decisions = 0
    latencies: list[float] = []  # from a decision's last click to the table answering it
    while True:
        await page.wait_for_selector(DECISION, timeout=timeout_ms)
        if await page.query_selector(SCOPE + '.cl-scores[data-final="1"]'):
            break
        if await page.query_selector(CONTINUE):  # a round end the page pauses on: read, then go on
            await page.click(CONTINUE)
            await page.wait_for_selector(SCOPE + ".cl-continue", state="hidden", timeout=timeout_ms)
            continue
        before = int(await page.get_attribute(SCOPE + TABLE, "data-move"))
        clicked = time.perf_counter()
        draft = await _visible(page, SCOPE + ".cl-draft-card")
        confirm = await _visible(page, SCOPE + ".cl-confirm-pick")
        hand = await _visible(page, SCOPE + ".cl-hand-card", enabled=True)
        choices = await _visible(page, SCOPE + ".cl-choice")
        if draft and confirm:
            need = int("".join(ch for ch in await confirm[0].inner_text() if ch.isdigit()) or "2")
            for card in draft[:need]:
                await card.click()
            clicked = time.perf_counter()
            await confirm[0].click()
        elif hand:
            await hand[0].click()
            clicked = time.perf_counter()
            await page.click(SCOPE + ".cl-to-home", timeout=timeout_ms)
        elif choices:
            clicked = time.perf_counter()
            await choices[0].click()
        else:
            raise RuntimeError(f"session {seed}: no decision to make on the page")
        await page.wait_for_selector(f'{SCOPE}{TABLE}[data-move="{before + 1}"]', timeout=timeout_ms)
        latencies.append(time.perf_counter() - clicked)
        decisions += 1
    seconds = time.perf_counter() - start
    await context.close()
    return {"seconds": seconds, "load_seconds": loaded, "decisions": decisions,
            "click_seconds_median": statistics.median(latencies) if latencies else 0.0,
            "click_seconds_max": max(latencies, default=0.0), "outside_requests": outside}


def _measured(read: Callable[[psutil.Process], float], server: bool = False) -> dict[int, float]:
    """``read`` of every kernel started under this process (Voila's children), and of the
    class server itself with ``server``; by process id."""
    names = ("ipykernel", "capital_lux.serve") if server else ("ipykernel",)
    found = {}
    for proc in psutil.Process().children(recursive=True):
        try:
            if any(name in part for part in proc.cmdline() for name in names):
                found[proc.pid] = read(proc)
        except psutil.Error:
            continue
    return found


def _cpu_seconds(proc: psutil.Process) -> float:
    return float(sum(proc.cpu_times()[:2]))  # its own, not its children's: the kernels are measured apart


def _machine_cpu_seconds() -> float:
    """CPU seconds the whole machine has been busy, all cores together (whoever the work was for)."""
    times = psutil.cpu_times()
    return float(times.user + times.nice + times.system + times.irq + times.softirq)


def kernel_memory_mib() -> list[float]:
    """Resident memory of every kernel started under this process (Voila's children)."""
    return list(_measured(lambda proc: proc.memory_info().rss / 2**20).values())


async def _classroom(url: str, sessions: int, players: int,
                     timeout_ms: float) -> tuple[list[dict[str, Any] | BaseException], list[float]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            loading = asyncio.Semaphore(sessions)
            results = await asyncio.gather(
                *(play_session(browser, url, players, seed, timeout_ms, loading) for seed in range(sessions)),
                return_exceptions=True,  # a page that never answered is counted, not the end of the run
            )
            memory = kernel_memory_mib()  # pages closed, kernels not yet culled
        finally:
            await browser.close()
    return list(results), memory


def classroom(sessions: int = 20, players: int = 2, timeout_ms: float = 300_000,
              log_path: Path | None = None, pool: int | None = None) -> dict[str, Any]:
    """Run ``sessions`` concurrent whole games against one Voila and summarise them
    (Voila's log in ``log_path``, if given; with ``pool``, that many kernels preheated and
    ready before the class arrives, Voila's log then not kept)."""
    served: AbstractContextManager[str] = voila_server(log_path, timeout=120) if pool is None else pooled_server(pool)
    with served as url:
        start = time.perf_counter()
        outcomes, memory = asyncio.run(_classroom(url, sessions, players, timeout_ms))
        wall = time.perf_counter() - start
    results = [r for r in outcomes if isinstance(r, dict)]
    per_decision = [r["seconds"] / max(r["decisions"], 1) for r in results]
    return {
        "sessions": results,  # the games that finished
        "failed": [f"{type(r).__name__}: {str(r).splitlines()[0]}" for r in outcomes if not isinstance(r, dict)],
        "wall_seconds": wall,
        "seconds_per_decision": per_decision,
        "kernel_memory_mib": memory,
    }


#: The blank app the tutor is compared with: one ipywidgets button, on the same server.
BLANK_NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "b", "metadata": {}, "outputs": [],
               "source": "import ipywidgets\nipywidgets.Button(description='ready', _dom_classes=['blank-ready'])"}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    "nbformat": 4, "nbformat_minor": 5,
}


def _newest_kernel() -> psutil.Process | None:
    started = _measured(lambda proc: proc.create_time())
    return psutil.Process(max(started, key=started.__getitem__)) if started else None


async def _one_page(browser: Any, url: str, ready: str) -> tuple[float, float, float]:
    """Seconds from navigation to an interactive page, and its kernel's CPU seconds and MiB then."""
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    start = time.perf_counter()
    await page.goto(url, timeout=120_000)
    await page.wait_for_selector(ready, state="attached", timeout=120_000)  # drawn, in any tab
    seconds = time.perf_counter() - start
    kernel = _newest_kernel()
    cpu = sum(kernel.cpu_times()[:2]) if kernel else 0.0
    mib = kernel.memory_info().rss / 2**20 if kernel else 0.0
    await context.close()
    return seconds, cpu, mib


async def _pages(url: str, ready: str, loads: int) -> list[tuple[float, float, float]]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            return [await _one_page(browser, url, ready) for _ in range(loads)]
        finally:
            await browser.close()


def single_page(loads: int = 5) -> dict[str, float]:
    """One page at a time: the tutor against a blank ipywidgets page on the same guarded server
    (time to interactive, the kernel's CPU and memory when it is; medians of ``loads``)."""
    import json
    import tempfile

    from browser import ROOT, UNPACED, serving

    runs: dict[str, list[tuple[float, float, float]]] = {}
    with voila_server(timeout=120, options=(UNPACED,)) as url:  # voila.json's pool, as the blank page's
        runs["tutor"] = asyncio.run(_pages(url, f"{READY} {TABLE}[data-move]", loads))
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "blank.ipynb").write_text(json.dumps(BLANK_NOTEBOOK))
        (Path(folder) / "voila.json").write_text((ROOT / "voila.json").read_text())
        with serving(Path(folder), "blank.ipynb", options=(UNPACED,)) as (blank_url, _):
            runs["blank"] = asyncio.run(_pages(blank_url, ".blank-ready", loads))
    figures: dict[str, float] = {}
    for name, results in runs.items():
        figures[f"{name}_interactive_seconds_median"] = round(statistics.median(r[0] for r in results), 2)
        figures[f"{name}_kernel_cpu_seconds_median"] = round(statistics.median(r[1] for r in results), 2)
        figures[f"{name}_kernel_mib_median"] = round(statistics.median(r[2] for r in results), 1)
    figures["tutor_over_blank_interactive"] = round(
        figures["tutor_interactive_seconds_median"] / figures["blank_interactive_seconds_median"], 2)
    return figures


def kernels_busy(seconds: float = 2.0) -> bool:
    """Whether the kernels started under this process used a tenth of a second of CPU or more in ``seconds``."""
    before = sum(_measured(_cpu_seconds).values())
    time.sleep(seconds)
    return sum(_measured(_cpu_seconds).values()) - before >= 0.1


@contextmanager
def pooled_server(pool: int | None = None, settings: tuple[str, ...] = ()) -> Iterator[str]:
    """The tutor served (``UNPACED`` and ``settings``), with ``pool`` kernels preheated (voila.json's
    otherwise); yields its URL once the pool is filled and its kernels have finished starting,
    as a class would find it (``make class --learners=N`` preheats N)."""
    import tempfile

    from browser import UNPACED

    options = ((UNPACED,) if pool is None else (UNPACED, f"--VoilaConfiguration.default_pool_size={pool}")) + settings
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "voila.log"
        with voila_server(log, timeout=120, options=options) as url:
            deadline = time.monotonic() + 600
            while "Kernel pool of tutorial.ipynb is filled" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(1)  # the class arrives once its kernels are ready:
            while time.monotonic() < deadline and kernels_busy():  # "filled" is logged while they still start
                pass
            yield url


def _fetch(url: str) -> float:
    """Seconds until the page at ``url`` has arrived whole (its notebook run by the server)."""
    import urllib.request

    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=600) as answer:
        answer.read()
    return time.perf_counter() - start


def _learners(url: str, sessions: int) -> list[str]:
    """Each learner's link: a 2-player game of their own against random opponents."""
    return [f"{url}?players=2&seed={i}&bots=random" for i in range(sessions)]


def server_share(sessions: int, pool: int | None = None, settings: tuple[str, ...] = (),
                 name: str | None = None) -> dict[str, float]:
    """The server's part of a class arriving at once, without browsers: ``sessions`` requests of
    the tutor page together, each starting a kernel that runs the notebook before the page is
    sent; seconds until each page has arrived whole. (In a class each learner's browser runs on
    their own machine; here the browsers of ``classroom`` share the server's two cores.)
    ``pool``: that many kernels preheated before the class arrives (voila.json's otherwise);
    ``settings``: more of the server's, the figures then named ``name``."""
    from concurrent.futures import ThreadPoolExecutor

    with pooled_server(pool, settings) as url:
        with ThreadPoolExecutor(sessions) as threads:
            seconds = list(threads.map(_fetch, _learners(url, sessions)))
        memory = kernel_memory_mib()
    name = name or ("server" if pool is None else f"server_pool_{pool}")
    return {**_spread(f"{name}_page_seconds", seconds),
            f"{name}_kernel_mib_median": round(statistics.median(memory), 1) if memory else 0.0}


def _spread(name: str, values: list[float]) -> dict[str, float]:
    """The median, p90 and largest of ``values`` (0 for none), named ``name_median`` and so on."""
    if not values:
        return {f"{name}_{figure}": 0.0 for figure in ("median", "p90", "max")}
    p90 = statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]
    return {f"{name}_median": round(statistics.median(values), 1), f"{name}_p90": round(p90, 1),
            f"{name}_max": round(max(values), 1)}


def arriving_class(sessions: int, browsers: int = 3) -> dict[str, float]:
    """A class arriving at once as a school serves it, each learner's browser on their own
    machine: ``browsers`` of the ``sessions`` pages open in Chromium (seconds until each is
    interactive) while the others are loaded at the same moment without a browser, asking
    of the server what a browser's page asks (``learner.arrive``: the page, the kernel's
    websocket and the widgets' full state; seconds until each has its state); ``sessions``
    kernels preheated, as ``make class --learners=N`` serves them. Also the wall time, the
    CPU seconds the server and its kernels used meanwhile and the whole machine's (a figure
    far above theirs and the browsers' says other work shared the cores), and the kernels'
    memory then.
    ``classroom`` puts every learner's browser on the server's cores instead."""
    with pooled_server(sessions) as url:
        links = _learners(url, sessions)
        cpu, machine = _measured(_cpu_seconds, server=True), _machine_cpu_seconds()
        start = time.perf_counter()
        interactive, outcomes = asyncio.run(_arriving(links, browsers))
        wall = time.perf_counter() - start
        used = sum(seconds - cpu.get(pid, 0.0) for pid, seconds in _measured(_cpu_seconds, server=True).items())
        machine = _machine_cpu_seconds() - machine
        memory = kernel_memory_mib()
    arrived = [a for a in outcomes if isinstance(a, Arrival)]
    return {**_spread("arriving_browser_interactive_seconds", interactive),
            **_spread("arriving_others_page_seconds", [a.page_seconds for a in arrived]),
            **_spread("arriving_others_state_seconds", [a.state_seconds for a in arrived]),
            "arriving_others_failed": float(len(outcomes) - len(arrived)),
            "arriving_others_widget_models_min": float(min((len(a.states) for a in arrived), default=0)),
            "arriving_others_showing_table": float(sum(shows_table(a) for a in arrived)),
            "arriving_wall_seconds": round(wall, 1),
            "arriving_server_cpu_seconds": round(used, 1),
            "arriving_machine_cpu_seconds": round(machine, 1),  # the server's, Chromium's, the harness's and any other
            "arriving_kernel_mib_median": round(statistics.median(memory), 1) if memory else 0.0}


async def _arriving(links: list[str], browsers: int) -> tuple[list[float], list[Arrival | BaseException]]:
    """The first ``browsers`` of ``links`` opened in Chromium, the others loaded by ``learner.arrive``, all at once."""
    others = [asyncio.ensure_future(asyncio.wait_for(arrive(link), 600)) for link in links[browsers:]]
    interactive = await _interactive(links[:browsers])  # the others are under way before the pages open
    outcomes = await asyncio.gather(*others, return_exceptions=True)  # a learner not served is counted
    for outcome in outcomes:
        if isinstance(outcome, Arrival):
            outcome.socket.close()
    return interactive, list(outcomes)


async def _interactive(links: list[str]) -> list[float]:
    """Seconds until each of ``links``, opened together in one Chromium, is interactive."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pages = await asyncio.gather(*(_one_page(browser, link, f"{READY} {TABLE}[data-move]") for link in links))
            return [seconds for seconds, _, _ in pages]
        finally:
            await browser.close()


def figures(sessions: int = 20) -> dict[str, float]:
    """Bench figures for ``python -m capital_lux bench load``: one page against the blank app,
    then ``sessions`` learners at once."""
    alone = {**single_page(), **server_share(sessions), **server_share(sessions, pool=sessions),
             **arriving_class(sessions)}
    run = classroom(sessions, pool=sessions)  # as ``make class --learners=N`` serves them
    if not run["sessions"]:
        return {**alone, "sessions": float(sessions), "sessions_failed": float(len(run["failed"])),
                "wall_seconds": round(run["wall_seconds"], 1)}
    times = [r["seconds"] for r in run["sessions"]]
    memory = run["kernel_memory_mib"]
    interactive = [r["load_seconds"] for r in run["sessions"]]
    return {
        **alone,
        "sessions": float(sessions),
        "sessions_failed": float(len(run["failed"])),  # not interactive, or not finished, within the timeout
        "wall_seconds": round(run["wall_seconds"], 1),
        "session_seconds_median": round(statistics.median(times), 1),
        "session_seconds_max": round(max(times), 1),
        **_spread("page_interactive_seconds", interactive),
        "click_seconds_median": round(statistics.median(r["click_seconds_median"] for r in run["sessions"]), 2),
        "click_seconds_max": round(max(r["click_seconds_max"] for r in run["sessions"]), 2),
        "seconds_per_decision_median": round(statistics.median(run["seconds_per_decision"]), 2),
        "kernels_measured": float(len(memory)),
        "kernel_memory_mib_median": round(statistics.median(memory), 1) if memory else 0.0,
        "kernel_memory_mib_total": round(sum(memory), 1),
    }


def _class_processes(pid: int) -> list[psutil.Process]:
    """The class server ``pid`` and its kernels (the server is not this process's child: ``make
    class`` leaves it running in a session of its own)."""
    try:
        server = psutil.Process(pid)
        return [server, *server.children(recursive=True)]
    except psutil.Error:
        return []


def _class_cpu_seconds(pid: int) -> dict[int, float]:
    found = {}
    for proc in _class_processes(pid):
        try:
            found[proc.pid] = _cpu_seconds(proc)
        except psutil.Error:
            continue
    return found


async def _teacher_page(url: str) -> float:
    """Seconds from opening the teacher's page in Chromium to its key field being usable."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page()
            start = time.perf_counter()
            await page.goto(url, timeout=300_000)
            await page.wait_for_selector(".cl-teacher-page.cl-ready .cl-teacher-key input:enabled", timeout=300_000)
            return time.perf_counter() - start
        finally:
            await browser.close()


def _attack(url: str, ready: Any, stop: Any, held: list[int], source: str = "127.0.0.3") -> None:
    """One hostile client from ``source``: a page of its own, then 300 tries at a websocket on
    its kernel (``ready`` once tried), held until ``stop``; ``held`` gets how many it held."""
    import http.client
    import re
    import socket
    import uuid
    from urllib.parse import urlparse

    import websocket

    parts = urlparse(url)
    opened = []
    try:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=300, source_address=(source, 0))
        connection.request("GET", parts.path)
        kernel = re.search(r'kernelId": "([0-9a-f-]+)"', connection.getresponse().read().decode())
        connection.close()
        socket_url = f"ws://{parts.hostname}:{parts.port}/api/kernels/{kernel.group(1) if kernel else '-'}/channels"
        for _ in range(300):
            raw = socket.create_connection((parts.hostname, parts.port), timeout=30, source_address=(source, 0))
            try:
                opened.append(websocket.create_connection(f"{socket_url}?session_id={uuid.uuid4()}", socket=raw,
                                                          timeout=30, subprotocols=["v1.kernel.websocket.jupyter.org"]))
            except (websocket.WebSocketException, OSError):
                raw.close()
        held.append(len(opened))
    finally:
        ready.set()
        stop.wait()
        for one in opened:
            one.close()


def class_figures(learners: int = 30, hostile: bool = True, plain: bool = True,
                  settings: tuple[str, ...] = ()) -> dict[str, float]:
    """A class as ``make class`` opens it, on this machine: the seconds ``make class`` takes to
    return, then the teacher's page opened at once in Chromium (seconds to a usable key field,
    whatever the warm pool is doing), the seconds until the pool of ``learners`` kernels is
    warm, then ``learners`` learners arriving at once on the exercises (``learner.arrive``:
    the page, the kernel's websocket and the widgets' whole state: the server's whole share),
    with their time to interactive (median, p90, max), the CPU seconds the server and its
    kernels used meanwhile beside the wall time and the whole machine's, and the kernels'
    memory; with ``hostile``, a second class the same way while one client holds every
    websocket the server lets it open (``class_hostile_...``). Without ``plain``, only that second
    class (the suite's smoke: it goes through every step of the first, the client's besides).
    ``settings``: more of the server's (``make class CLASS_OPTIONS=...``)."""
    figures = _one_class(learners, "class", attacked=False, settings=settings) if plain else {}
    if hostile:
        figures.update(_one_class(learners, "class_hostile", attacked=True, settings=settings))
    return figures


def _one_class(learners: int, name: str, attacked: bool, settings: tuple[str, ...] = ()) -> dict[str, float]:
    import os
    import subprocess
    import sys
    import tempfile
    import threading

    from browser import free_port

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as data:
        environment = {**os.environ, "XDG_DATA_HOME": data}
        for variable in ("CAPITAL_LUX_TEACHER_KEY", "CAPITAL_LUX_DB"):
            environment.pop(variable, None)
        command = [sys.executable, "-m", "capital_lux.serve.classroom"]
        port = free_port()
        start = time.perf_counter()
        opened = subprocess.run([*command, "start", f"--port={port}", f"--learners={learners}", "--address=127.0.0.1",
                                 "--ClassVoila.page_burst=0", *settings],
                                env=environment, capture_output=True, text=True)
        figures[f"{name}_start_seconds"] = round(time.perf_counter() - start, 1)
        if opened.returncode:
            raise RuntimeError(opened.stderr)
        folder = Path(data) / "capital-lux"
        pid = int((folder / "class.pid").read_text())
        base = f"http://127.0.0.1:{port}/voila/render/"
        stop, ready, held = threading.Event(), threading.Event(), []
        try:
            cpu = sum(_class_cpu_seconds(pid).values())
            figures[f"{name}_teacher_page_seconds"] = round(asyncio.run(_teacher_page(base + "teacher.ipynb")), 1)
            # the server's and its kernels' CPU meanwhile (the pool's filling too)
            figures[f"{name}_teacher_page_server_cpu_seconds"] = round(sum(_class_cpu_seconds(pid).values()) - cpu, 1)
            figures[f"{name}_teacher_page_load_average"] = round(os.getloadavg()[0], 1)
            log = folder / "class.log"
            deadline = time.monotonic() + 900
            while ("Kernel pool of probability_exercises.ipynb is filled" not in log.read_text()
                   and time.monotonic() < deadline):
                time.sleep(1)
            while time.monotonic() < deadline and _busy(pid):
                pass  # the last warm kernels finish starting
            figures[f"{name}_pool_warm_seconds"] = round(time.perf_counter() - start, 1)
            if attacked:
                threading.Thread(target=_attack, args=(base + "probability_exercises.ipynb", ready, stop, held),
                                 daemon=True).start()
                ready.wait(600)
            figures.update(_class_arrives(base + "probability_exercises.ipynb", learners, pid, name))
            if attacked:
                figures[f"{name}_sockets_held"] = float(held[0]) if held else 0.0
        finally:
            stop.set()
            subprocess.run([*command, "stop"], env=environment, capture_output=True, text=True)
    return figures


def _busy(pid: int, seconds: float = 2.0) -> bool:
    """Whether the class server and its kernels used a tenth of a core or more in ``seconds``."""
    before = sum(_class_cpu_seconds(pid).values())
    time.sleep(seconds)
    return sum(_class_cpu_seconds(pid).values()) - before >= 0.1 * seconds


def _class_arrives(link: str, learners: int, pid: int, name: str) -> dict[str, float]:
    cpu, machine = _class_cpu_seconds(pid), _machine_cpu_seconds()
    start = time.perf_counter()
    outcomes = asyncio.run(_all_arrive([f"{link}?lang=en&n={n}" for n in range(learners)]))
    wall = time.perf_counter() - start
    used = sum(seconds - cpu.get(found, 0.0) for found, seconds in _class_cpu_seconds(pid).items())
    arrived = [a for a in outcomes if isinstance(a, Arrival)]
    memory = []
    for proc in _class_processes(pid)[1:]:
        try:
            if any("ipykernel" in part for part in proc.cmdline()):
                memory.append(proc.memory_info().rss / 2**20)
        except psutil.Error:
            continue
    return {**_spread(f"{name}_interactive_seconds", [a.state_seconds for a in arrived]),
            **_spread(f"{name}_page_seconds", [a.page_seconds for a in arrived]),  # of which the page's HTML
            f"{name}_failed": float(len(outcomes) - len(arrived)),
            f"{name}_wall_seconds": round(wall, 1),
            f"{name}_server_cpu_seconds": round(used, 1),  # the server's and its kernels'
            f"{name}_machine_cpu_seconds": round(_machine_cpu_seconds() - machine, 1),  # anyone's, this harness too
            f"{name}_kernel_mib_median": round(statistics.median(memory), 1) if memory else 0.0,
            f"{name}_kernels": float(len(memory))}


async def _all_arrive(links: list[str]) -> list[Arrival | BaseException]:
    outcomes = await asyncio.gather(*(asyncio.wait_for(arrive(link), 600) for link in links), return_exceptions=True)
    for outcome in outcomes:
        if isinstance(outcome, Arrival):
            outcome.socket.close()
    return list(outcomes)
