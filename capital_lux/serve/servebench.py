"""Figures for ``python -m capital_lux bench guards`` and ``bench class_start``: what the class
server's guards save, and what a class's start costs, each measured in fresh processes as the
server makes them, CPU beside wall, medians of interleaved repeats (``_min``/``_max`` their range).

- ``guards``: jsonschema's import with and without its IRI grammars (``position.import_jsonschema``);
  a kernel's start as the class server makes it (ipykernel with the server's kernel arguments,
  the notebook's cells run to their end, ``?lang=en``), with the kernel extension that brings
  the guard and without it; the class server's imports, and ``jupyterhub-singleuser --help``
  against ``python -m capital_lux.serve.singleuser --help``, with and without the guard.
- ``class_start``: ``make class`` with a few learners, from ``start`` until its server and
  kernels are idle, with Voila's warm pools (the default) and with none
  (``--VoilaConfiguration.default_pool_size=0``): the server's and its kernels' CPU, summed.

Both read processes with ``psutil`` (installed with the tests' dependencies) and start servers
from a checkout's ``notebooks`` folder.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any, Callable

from .kernel import KERNEL_ARGUMENTS

Figures = dict[str, float]
CHECKOUT = Path(__file__).resolve().parents[2]
NOTEBOOKS = CHECKOUT / "notebooks"
#: The notebooks whose kernels a class keeps warm, by the name a figure gives them.
KERNEL_NOTEBOOKS = {"tutor": "tutorial.ipynb", "exercises": "probability_exercises.ipynb"}
#: A child that times only its own import (the interpreter's start is not the guard's business).
_TIMED = ("import json, time\n{setup}\ncpu, wall = time.process_time(), time.perf_counter()\n{timed}\n"
          "print(json.dumps([time.process_time() - cpu, time.perf_counter() - wall]))")


def _psutil() -> Any:
    try:
        import psutil
    except ImportError:
        raise SystemExit("bench guards and bench class_start read processes with psutil: install the tests' "
                         "dependencies (make venv)") from None
    return psutil


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _process(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """A whole child process's CPU and wall seconds (it must succeed)."""
    cpu, wall = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=CHECKOUT)
    if done.returncode:
        raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr[-600:]}")
    return _children_cpu() - cpu, time.perf_counter() - wall


def _timed(setup: str, timed: str) -> tuple[float, float]:
    """CPU and wall seconds of ``timed`` alone, in a fresh interpreter after ``setup``."""
    done = subprocess.run([sys.executable, "-c", _TIMED.format(setup=setup, timed=timed)], capture_output=True,
                          text=True, cwd=CHECKOUT)
    if done.returncode:
        raise RuntimeError(done.stderr[-600:])
    cpu, wall = json.loads(done.stdout.splitlines()[-1])
    return float(cpu), float(wall)


def _code_cells(notebook: str) -> list[str]:
    cells = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def kernel_start(notebook: str, guarded: bool = True) -> tuple[float, float]:
    """A kernel started as the class server starts it (``guarded``: with the server's kernel
    arguments, its extension among them; else with IPython's history off only), running the
    notebook's cells to their end for ``?lang=en``: the kernel's CPU and the wall seconds from
    its start to the last cell's reply."""
    from jupyter_client.manager import KernelManager

    psutil = _psutil()
    arguments = list(KERNEL_ARGUMENTS) if guarded else ["--HistoryManager.enabled=False"]
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "QUERY_STRING": "lang=en", "XDG_DATA_HOME": data}
        for variable in ("VOILA_PREHEAT", "CAPITAL_LUX_DB", "CAPITAL_LUX_TEACHER_KEY"):
            env.pop(variable, None)
        manager = KernelManager(kernel_name="python3")  # the native kernel: this interpreter
        wall = time.perf_counter()
        manager.start_kernel(extra_arguments=arguments, env=env, cwd=str(NOTEBOOKS), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        client = manager.client()
        try:
            client.start_channels()
            client.wait_for_ready(timeout=300)
            for code in _code_cells(notebook):
                reply = client.execute_interactive(code, timeout=300, output_hook=lambda message: None)
                if reply["content"]["status"] != "ok":
                    raise RuntimeError(f"{notebook}: {reply['content'].get('ename')} {reply['content'].get('evalue')}")
            wall = time.perf_counter() - wall
            times = psutil.Process(manager.provisioner.process.pid).cpu_times()  # type: ignore[union-attr]
            return times.user + times.system, wall
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)


def _medians(samples: dict[str, list[tuple[float, float]]]) -> Figures:
    figures: Figures = {}
    for name, pairs in samples.items():
        for clock, values in (("cpu_s", [cpu for cpu, _ in pairs]), ("wall_s", [wall for _, wall in pairs])):
            figures[f"{name}_{clock}"] = round(statistics.median(values), 2)
            figures[f"{name}_{clock}_min"] = round(min(values), 2)
            figures[f"{name}_{clock}_max"] = round(max(values), 2)
    return figures


def guard_works(kernels: tuple[str, ...] = tuple(KERNEL_NOTEBOOKS)) -> dict[str, Callable[[], tuple[float, float]]]:
    """Each measured work by its figure's name, with the guard and without it."""
    guard = "from capital_lux.engine.position import import_jsonschema"
    works: dict[str, Callable[[], tuple[float, float]]] = {
        "jsonschema_import_guarded": lambda: _timed(guard, "import_jsonschema()"),
        "jsonschema_import_plain": lambda: _timed("", "import jsonschema"),
        "server_imports_guarded": lambda: _timed("", "import capital_lux.serve.__main__"),
        "server_imports_plain": lambda: _timed("", "import capital_lux.serve.app"),
    }
    for name in kernels:
        notebook = KERNEL_NOTEBOOKS[name]
        works[f"kernel_{name}_guarded"] = partial(kernel_start, notebook, True)
        works[f"kernel_{name}_plain"] = partial(kernel_start, notebook, False)
    singleuser = shutil.which("jupyterhub-singleuser", path=str(Path(sys.executable).parent))
    if singleuser:  # the hub's single-user server, where JupyterHub is installed
        works["singleuser_help_guarded"] = lambda: _process([sys.executable, "-m", "capital_lux.serve.singleuser",
                                                             "--help"])
        works["singleuser_help_plain"] = lambda: _process([singleuser, "--help"])
    return works


def guards(repeats: int = 5, kernels: tuple[str, ...] = tuple(KERNEL_NOTEBOOKS)) -> Figures:
    """The guards' figures, each a median of ``repeats`` rounds of every work in turn."""
    works = guard_works(kernels)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in works}
    for _ in range(repeats):
        for name, work in works.items():
            samples[name].append(work())
    figures = _medians(samples)
    figures.update(repeats=float(repeats), load_average=round(os.getloadavg()[0], 1))
    return figures


def _class_cpu(psutil: Any, pid: int) -> tuple[float, int]:
    """The class server's and its living kernels' CPU seconds, and how many kernels."""
    try:
        server = psutil.Process(pid)
        processes = [server, *server.children(recursive=True)]
    except psutil.Error:
        return 0.0, 0
    used, kernels = 0.0, 0
    for process in processes:
        try:
            times = process.cpu_times()
            used += times.user + times.system + times.children_user + times.children_system
            kernels += any("ipykernel" in part for part in process.cmdline())
        except psutil.Error:
            continue
    return used, kernels


def class_once(learners: int = 2, pools: bool = True, quiet: float = 3.0, limit: float = 900.0) -> tuple[float, float, int]:
    """``make class --learners=N`` (``pools``: with Voila's warm pools, else none) from ``start``
    until its server and kernels used under a tenth of a core over two ``quiet`` spans in a
    row: their CPU seconds, the wall seconds, and how many kernels then ran. The class is
    stopped, and checked gone."""
    import socket

    psutil = _psutil()
    with socket.socket() as probe:  # a free port (the class refuses to take another silently)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "capital_lux.serve.classroom"]
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "XDG_DATA_HOME": data}
        for variable in ("CAPITAL_LUX_TEACHER_KEY", "CAPITAL_LUX_DB"):
            env.pop(variable, None)
        settings = [] if pools else ["--VoilaConfiguration.default_pool_size=0"]
        wall = time.perf_counter()
        opened = subprocess.run([*command, "start", f"--port={port}", f"--learners={learners}",
                                 "--address=127.0.0.1", *settings], env=env, capture_output=True, text=True,
                                cwd=CHECKOUT)
        if opened.returncode:
            raise RuntimeError(opened.stdout + opened.stderr)
        pid = int((Path(data) / "capital-lux" / "class.pid").read_text())
        try:
            deadline, calm = time.monotonic() + limit, 0
            used, kernels = _class_cpu(psutil, pid)
            while calm < 2 and time.monotonic() < deadline:
                time.sleep(quiet)
                before, (used, kernels) = used, _class_cpu(psutil, pid)
                calm = calm + 1 if used - before < 0.1 * quiet else 0
            if calm < 2:
                raise RuntimeError(f"the class was still busy after {limit:.0f} s")
            return used, time.perf_counter() - wall - 2 * quiet, kernels
        finally:
            subprocess.run([*command, "stop"], env=env, capture_output=True, text=True, cwd=CHECKOUT)
            try:  # never a class left running behind a figure
                if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                    raise RuntimeError(f"the class server {pid} outlived its stop")
            except psutil.NoSuchProcess:
                pass


def class_start(learners: int = 2, repeats: int = 3) -> Figures:
    """A class's start with Voila's warm pools and without, ``repeats`` times each in turn."""
    samples: dict[str, list[tuple[float, float]]] = {"pools": [], "no_pools": []}
    kernels: dict[str, list[int]] = {"pools": [], "no_pools": []}
    for _ in range(repeats):
        for name, pools in (("pools", True), ("no_pools", False)):
            cpu, wall, count = class_once(learners, pools)
            samples[name].append((cpu, wall))
            kernels[name].append(count)
    figures = _medians(samples)
    for name, counts in kernels.items():
        figures[f"{name}_kernels"] = float(statistics.median(counts))
    figures.update(learners=float(learners), repeats=float(repeats), load_average=round(os.getloadavg()[0], 1))
    return figures


def _person_server(psutil: Any, hub_pid: int, user: str) -> list[Any]:
    """A person's server on the hub and its kernels (processes)."""
    for process in psutil.Process(hub_pid).children(recursive=True):
        try:
            if ("capital_lux.serve.singleuser" in " ".join(process.cmdline())
                    and process.environ().get("JUPYTERHUB_USER") == user):
                return [process, *process.children(recursive=True)]
        except psutil.Error:
            continue
    return []


def start_seconds(log: str) -> list[float]:
    """The servers' starts, in seconds, as JupyterHub's log tells them.

    >>> start_seconds("[I 2026-11-28 JupyterHub base:1193] User learner1 took 7.812 seconds to start")
    [7.812]
    """
    import re

    return [float(found) for found in re.findall(r"User \S+ took ([0-9.]+) seconds to start", log)]


def hub(harness: Any, learners: int = 3) -> Figures:
    """A class on JupyterHub as ``tests/test_hub.py`` starts it (``harness``: that module; PostgreSQL,
    the hub on ``deploy/jupyterhub_config.py``, its proxy, Chromium): ``learners`` sign in one
    after another and each waits for the exercises page. Medians over the learners: from signing
    in to the page ready, the server's start as the hub logs it, each server's and its kernel's
    memory (RSS) and their CPU together; the hub's processes' CPU (the hub, its proxy, the culler)."""
    from playwright.sync_api import sync_playwright

    psutil = _psutil()
    harness._proxy()  # configurable-http-proxy from npm (make proxy) if not yet there
    database, url = harness._postgres()
    try:
        with tempfile.TemporaryDirectory() as state:
            log_path = Path(state) / "jupyterhub.log"
            people = [f"learner{n}" for n in range(1, learners + 1)]
            seconds, server_mib, kernel_mib, cpu = [], [], [], []
            with harness._running_hub(Path(state), url, log_path) as (base, hub_pid), sync_playwright() as p:
                browser = harness.B.launch(p)
                try:
                    for user in people:
                        start = time.perf_counter()
                        page = harness._sign_in(browser, base, user, harness.CLASS_PASSWORD)
                        page.wait_for_selector(harness.LEARNER, timeout=300_000)
                        seconds.append(time.perf_counter() - start)
                        server, *kernels = _person_server(psutil, hub_pid, user)
                        server_mib.append(server.memory_info().rss / 2**20)
                        kernel_mib += [kernel.memory_info().rss / 2**20 for kernel in kernels
                                       if "ipykernel" in " ".join(kernel.cmdline())]
                        cpu.append(sum(sum(process.cpu_times()[:2]) for process in (server, *kernels)))
                        page.context.close()
                    hub_cpu = sum(sum(process.cpu_times()[:2]) for process in
                                  [psutil.Process(hub_pid)] + [process for process in
                                                               psutil.Process(hub_pid).children(recursive=True)
                                                               if "singleuser" not in " ".join(process.cmdline())
                                                               and "ipykernel" not in " ".join(process.cmdline())])
                finally:
                    browser.close()
            started = start_seconds(log_path.read_text(errors="replace"))
    finally:
        database.remove()
    return {"learners": float(learners),
            "sign_in_to_exercises_s_median": round(statistics.median(seconds), 1),
            "sign_in_to_exercises_s_max": round(max(seconds), 1),
            "server_start_s_median": round(statistics.median(started), 1) if started else 0.0,
            "server_mib_median": round(statistics.median(server_mib), 1),
            "kernel_mib_median": round(statistics.median(kernel_mib), 1) if kernel_mib else 0.0,
            "server_and_kernel_cpu_s_median": round(statistics.median(cpu), 2),
            "hub_processes_cpu_s": round(hub_cpu, 2), "load_average": round(os.getloadavg()[0], 1)}
