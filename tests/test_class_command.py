"""``make class`` (``capital_lux.serve.classroom``): one command opens a class to the room's network.

The class starts once for the module, as the teacher starts it (for two learners), with its own data folder
(``XDG_DATA_HOME`` in a temporary folder) and a free port; the tests read what it printed, ask its
pages, look at its files, and the last one stops it with ``make class-stop``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

import browser as B
from capital_lux.i18n import translator
from capital_lux.lessons.classroom import MIN_TEACHER_KEY, TEACHER_KEY_VARIABLE
from capital_lux.serve import classroom as C

URL = re.compile(r"http://([0-9.]+):([0-9]+)/\S*")
COMMAND = [sys.executable, "-m", "capital_lux.serve.classroom"]


def _environment(data: Path) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items()
                   if name not in (TEACHER_KEY_VARIABLE, "CAPITAL_LUX_DB", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return {**environment, "XDG_DATA_HOME": str(data), "LANG": "C.UTF-8"}


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The class as ``make class`` opens it: what it printed, its data folder, its environment."""
    data = tmp_path_factory.mktemp("data")
    environment = _environment(data)
    port = B.free_port()
    # Two learners expected: the default's 30 kernels preheated at once kept a test machine's
    # cores busy for the whole module (the first learner's page took about 50 s to arrive). No
    # other notebook kept warm (Voila's pools of the tutorial, the tables and pass-and-play: six
    # kernels more, none opened here).
    # The pool waits for the teacher's warm kernel to be ready, at most first_lead: here far
    # longer than the module takes, so the pool filling shows the kernel told it was ready.
    started = subprocess.run([*COMMAND, "start", f"--port={port}", "--learners=2",
                              "--VoilaConfiguration.default_pool_size=0", "--ClassKernels.first_lead=3600"],
                             env=environment, cwd=data,
                             capture_output=True, text=True, timeout=150)
    folder = data / "capital-lux"
    try:
        yield {"run": started, "port": port, "folder": folder, "environment": environment}
    finally:
        subprocess.run([*COMMAND, "stop"], env=environment, capture_output=True, timeout=60)


def _machine_addresses() -> set[str] | None:
    """Every IPv4 address of this machine's interfaces but the loopback's, as ``ip`` lists them."""
    if shutil.which("ip") is None:
        return None
    listed = subprocess.run(["ip", "-o", "-4", "addr", "show"], capture_output=True, text=True).stdout
    return {found for found in re.findall(r"inet ([0-9.]+)/", listed) if not found.startswith("127.")}


def _line(output: str, start: str) -> str:
    return next(line for line in output.splitlines() if line.startswith(start))


@pytest.mark.slow  # the class's server and its kernels, started once for the module
def test_the_class_prints_the_key_and_the_pages_at_the_machines_network_address(opened: dict[str, Any]) -> None:
    run = opened["run"]
    assert run.returncode == 0, run.stderr
    key = _line(run.stdout, "The teacher’s key, to type on that page: ").rsplit(" ", 1)[1]
    assert len(key) >= MIN_TEACHER_KEY and key == (opened["folder"] / "teacher.key").read_text().strip()
    assert "the class list is empty" in run.stdout  # a new class joins by a class list it has not yet
    learners = URL.fullmatch(_line(run.stdout, "Give the learners this address: ").rsplit(" ", 1)[1])
    teacher = URL.fullmatch(_line(run.stdout, "The teacher’s page: ").rsplit(" ", 1)[1])
    assert learners and teacher and learners[0].endswith("/voila/render/probability_exercises.ipynb?lang=en")
    assert teacher[0].endswith("/voila/render/teacher.ipynb?lang=en") and learners[1] == teacher[1]
    assert learners[2] == str(opened["port"])
    addresses = _machine_addresses()
    if addresses is None:
        pytest.skip("no `ip` command to list this machine's addresses")
    if addresses:
        assert learners[1] in addresses
    else:
        assert learners[1] == "127.0.0.1" and "no network address but its own" in run.stdout


@pytest.mark.slow  # the class's server and its kernels, started once for the module
def test_the_learners_pool_starts_once_the_teachers_warm_kernel_is_ready(opened: dict[str, Any]) -> None:
    log = opened["folder"] / C.LOG_FILE
    filled = "Kernel pool of probability_exercises.ipynb is filled"
    deadline = time.monotonic() + 300
    while filled not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.5)
    lines = log.read_text().splitlines()
    started = [(number, line.rsplit(" ", 1)[1]) for number, line in enumerate(lines) if "Kernel started: " in line]
    ready = [(number, found[1]) for number, line in enumerate(lines)
             if (found := re.search(r"Warm kernel (\S+) of teacher.ipynb ready after", line))]
    assert filled in "\n".join(lines), "the pool fills though first_lead (an hour) has not passed"
    assert ready and started[0][1] == ready[0][1]  # the teacher's kernel, started first
    assert started[1][0] > ready[0][0]  # the pool's first kernel only once the teacher's is ready
    assert "is not ready after" not in "\n".join(lines)


@pytest.mark.slow  # the class's server and its kernels, started once for the module
def test_the_learners_reach_the_exercises_and_the_tree_lists_no_teachers_page(opened: dict[str, Any]) -> None:
    learners = _line(opened["run"].stdout, "Give the learners this address: ").rsplit(" ", 1)[1]
    base = learners.split("voila/")[0]
    with urllib.request.urlopen(learners, timeout=120) as page:
        html = page.read().decode()
        assert page.status == 200
    assert "<title>probability_exercises</title>" in html and "widget-view+json" in html  # the app ran
    with urllib.request.urlopen(base, timeout=30) as tree:
        assert tree.status == 200 and "teacher.ipynb" not in tree.read().decode()
    with urllib.request.urlopen(base + "voila/api/contents/", timeout=30) as listing:  # what the tree page lists
        names = {item["name"] for item in json.loads(listing.read())["content"]}
    assert {"probability_exercises.ipynb", "tutorial.ipynb", "what_if.ipynb"} <= names
    assert "teacher.ipynb" not in names and not any(name.endswith((".sqlite3", ".key")) for name in names)


@pytest.mark.slow
@pytest.mark.browser
def test_the_printed_key_opens_the_teachers_page(opened: dict[str, Any], chromium: Any) -> None:
    stdout = opened["run"].stdout
    key = _line(stdout, "The teacher’s key, to type on that page: ").rsplit(" ", 1)[1]
    url = _line(stdout, "The teacher’s page: ").rsplit(" ", 1)[1]
    page = chromium.new_page()
    try:
        page.goto(url, timeout=120_000)
        page.wait_for_selector(".cl-teacher-page.cl-ready", timeout=90_000)
        page.fill(".cl-teacher-key input", key)
        page.click(".cl-teacher-unlock")
        page.wait_for_selector(".cl-teacher-unlocked", timeout=60_000)
    finally:
        page.close()


@pytest.mark.slow  # the class's server and its kernels, started once for the module
def test_the_class_database_lives_outside_the_checkout_for_its_owner_only(opened: dict[str, Any]) -> None:
    database = opened["folder"] / "class.sqlite3"
    assert "The class database is " + str(database) in opened["run"].stdout
    assert database.is_file() and database.stat().st_mode & 0o777 == 0o600
    assert opened["folder"].stat().st_mode & 0o777 == 0o700
    assert not database.resolve().is_relative_to(B.ROOT)


@pytest.mark.slow  # the class's server and its kernels, started once for the module
def test_a_second_class_is_refused_while_one_runs(opened: dict[str, Any]) -> None:
    again = subprocess.run([*COMMAND, "start", f"--port={B.free_port()}"], env=opened["environment"],
                           capture_output=True, text=True, timeout=60)
    pid = (opened["folder"] / "class.pid").read_text().strip()
    assert again.returncode == 1 and f"A class is already running (process {pid})" in again.stderr


@pytest.mark.slow
@pytest.mark.browser
def test_a_french_class_prints_addresses_that_open_french_pages(opened: dict[str, Any], chromium: Any) -> None:
    """``make class LANGUAGE=fr``: the addresses it prints open both pages in French."""
    lines = C.opened("127.0.0.1", opened["port"], "abcd-efgh-jkmn-pqrs", 42, "/data/class.sqlite3", False,
                     Path("/data/class.log"), translator("fr"))
    learners, teacher = (line.rsplit(" ", 1)[1] for line in lines if "/voila/render/" in line)
    for url, ready, french in ((learners, ".cl-ready", "Votre nom"),
                               (teacher, ".cl-teacher-page.cl-ready", "La page de l'enseignant")):
        page = chromium.new_page()
        try:
            page.goto(url, timeout=120_000)
            page.wait_for_selector(ready, timeout=120_000)
            page.wait_for_selector(f"text={french}", timeout=30_000)
        finally:
            page.close()


@pytest.mark.slow  # the class's server and its kernels, started once for the module
def test_make_class_stop_stops_the_process_the_pid_file_names(opened: dict[str, Any]) -> None:
    pid_file = opened["folder"] / "class.pid"
    pid = int(pid_file.read_text())
    assert C.running(pid)  # the class server itself, not only a live number
    command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    assert b"capital_lux.serve" in command and b"notebooks" in command
    stopped = subprocess.run(["make", "-s", "-C", str(B.ROOT), "class-stop", f"VPY={sys.executable}"],
                             env=opened["environment"], capture_output=True, text=True, timeout=60)
    assert stopped.returncode == 0 and f"The class is stopped (process {pid})." in stopped.stdout
    assert not C.running(pid) and not pid_file.exists()
    again = subprocess.run([*COMMAND, "stop"], env=opened["environment"], capture_output=True, text=True, timeout=60)
    assert again.stdout.strip() == "No class is running."


def _opened_lines(lang: str) -> list[str]:
    return C.opened("", 8866, "abcd-efgh-jkmn-pqrs", 42, "/data/class.sqlite3", False, Path("/data/class.log"),
                    translator(lang))


def test_the_teacher_reads_the_class_in_their_language() -> None:
    english = _opened_lines("en")
    for lang in ("fr", "es", "pt"):
        lines = _opened_lines(lang)
        assert len(lines) == len(english) and all(ours != theirs for ours, theirs in zip(lines, english))
        assert sum("abcd-efgh-jkmn-pqrs" in line for line in lines) == 1


def test_a_class_keeps_its_key_and_takes_the_environments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    t = translator("en")
    monkeypatch.delenv(TEACHER_KEY_VARIABLE, raising=False)
    kept = tmp_path / "teacher.key"
    drawn = C.class_key(kept, t)
    assert re.fullmatch(r"([a-z2-9]{4}-){3}[a-z2-9]{4}", drawn) and kept.stat().st_mode & 0o777 == 0o600
    assert C.class_key(kept, t) == drawn  # a class started again: the same key
    monkeypatch.setenv(TEACHER_KEY_VARIABLE, "the teacher's own long key")
    assert C.class_key(kept, t) == "the teacher's own long key"
    monkeypatch.setenv(TEACHER_KEY_VARIABLE, "short")
    with pytest.raises(C.Refused, match="shorter than 12 characters"):
        C.class_key(kept, t)
    assert kept.read_text().strip() == drawn  # the refusal changed nothing


def test_a_class_that_cannot_start_says_why_and_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    t = translator("en")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv(TEACHER_KEY_VARIABLE, raising=False)
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(C.Refused, match=f"Port {port} is already in use on this machine"):
            C.start("", port, (), t)
    monkeypatch.setenv("CAPITAL_LUX_DB", str(tmp_path / "no such folder" / "class.sqlite3"))
    with pytest.raises(C.Refused, match="The class cannot start: CAPITAL_LUX_DB names a class database that can "
                                        "never work as it is set"):
        C.start("", B.free_port(), (), t)
    assert sorted(path.name for path in (tmp_path / "capital-lux").iterdir()) == []  # no key, no PID file
