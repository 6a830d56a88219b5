"""The class on JupyterHub (deploy/): two learners and the teacher through the hub, in Chromium,
and an idle server stopped by the hub's culler.

The test starts what a school would run: PostgreSQL (Debian's binaries, a password required
of the class's role), JupyterHub with deploy/jupyterhub_config.py (its proxy from npm through
``make proxy``, jupyterhub-idle-culler as its service), and Chromium. Each learner signs in
through the hub, gets a server of their own and answers one exercise there; the teacher reads
both answers on the teacher's page, and the test reads them in PostgreSQL. On a learner's
server it checks the guards: no teacher's page, files that cannot be written, no terminals,
a kernel websocket that refuses the old protocol and never runs code a page sends; and in every
server's and kernel's environment, whose secrets are there. A second hub, whose culler stops a
server after 12 s idle, shows a learner's idle server stopped and its database password voided.
Everything started is stopped, and the tests check that nothing a hub started outlives it.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import psutil
import pytest

import browser as B
from test_classroom_browser import AFTER_DRAW, ANY_SIX, CLASS_SEED, LEARNER, SERVER_KEY, TEACHER, _answer
from test_storage import PostgresServer

from capital_lux.lessons.storage import Storage
from capital_lux.serve.guards import V1
from capital_lux.serve.roles import role_name

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DEPLOY = B.ROOT / "deploy"
PROXY = B.ROOT / ".node" / "node_modules" / ".bin" / "configurable-http-proxy"
CLASS_PASSWORD = "class-password"
TEACHER_PASSWORD = "the teacher's own password, 32 characters or more"
TEACHER_KEY = "a long enough key for the hub"
DATABASE_PASSWORD = "class-database-password-2026"
LEARNERS = {"alice": ("Alice", "modifier-after-draw", AFTER_DRAW), "bob": ("Bob", "deal-any-six", ANY_SIX)}
ARTIFACTS = B.ROOT / "test-artifacts"


def _missing(piece: str, why: str) -> None:
    pytest.fail(f"{piece} cannot be had on this machine, so the JupyterHub deployment is not tested: {why}",
                pytrace=False)


def _proxy() -> Path:
    """configurable-http-proxy, installed from npm by ``make proxy`` if it is not yet."""
    if not PROXY.exists():
        if shutil.which("make") is None:
            _missing("configurable-http-proxy", "make is missing to run `make proxy`")
        done = subprocess.run(["make", "-C", str(B.ROOT), "proxy"], capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not PROXY.exists():
            _missing("configurable-http-proxy", f"`make proxy` failed: {(done.stdout + done.stderr).strip()[-600:]}")
    return PROXY


def _postgres() -> tuple[PostgresServer, str]:
    """A PostgreSQL server, its class database owned by a role that must give its password."""
    try:
        server = PostgresServer()
    except pytest.skip.Exception as why:
        _missing("PostgreSQL", str(why))
    import psycopg

    with psycopg.connect(server.url, autocommit=True) as connection:
        connection.execute(f"CREATE ROLE capital_lux LOGIN CREATEROLE PASSWORD '{DATABASE_PASSWORD}'")
        connection.execute("CREATE DATABASE capital_lux_class OWNER capital_lux")
    (server.data / "pg_hba.conf").write_text(
        "local all all trust\nhost all postgres 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n")
    server._ctl("reload")
    address = f"@127.0.0.1:{server.port}/capital_lux_class"
    with pytest.raises(psycopg.OperationalError, match="password"):  # the password is what lets the hub in
        psycopg.connect(f"postgresql://capital_lux{address}", connect_timeout=5).close()
    return server, f"postgresql://capital_lux:{DATABASE_PASSWORD}{address}"


def _servers(hub_pid: int) -> dict[str, list[dict[str, str]]]:
    """The environments of each person's server and of its kernels, by user name."""
    found: dict[str, list[dict[str, str]]] = {}
    for process in psutil.Process(hub_pid).children(recursive=True):
        try:
            if "capital_lux.serve.singleuser" in " ".join(process.cmdline()):
                environments = [process.environ()] + [kernel.environ() for kernel in process.children(recursive=True)]
                found[environments[0]["JUPYTERHUB_USER"]] = environments
        except psutil.NoSuchProcess:
            continue  # a server or kernel stopping as it was read
    return found


def _answers(url: str) -> list[tuple[str, str, str, bool]]:
    import psycopg

    with psycopg.connect(url) as connection:
        rows = connection.execute("SELECT l.name, a.exercise, a.answer, a.correct FROM attempts a"
                                  " JOIN learners l USING (session) ORDER BY a.id").fetchall()
    return [tuple(row) for row in rows]


@pytest.fixture(scope="module")
def class_database() -> Iterator[tuple[PostgresServer, str]]:
    """PostgreSQL and the class database's owner's URL, for the whole module; every piece the hub
    needs checked first."""
    for module in ("jupyterhub", "jupyterhub_idle_culler"):
        try:
            __import__(module)
        except ImportError as error:
            _missing(module, f"{error} (pip install -e '.[test]', or '.[hub]')")
    if not os.path.exists(B.CHROMIUM):
        _missing("Chromium", f"no Chromium at {B.CHROMIUM}")
    _proxy()
    ARTIFACTS.mkdir(exist_ok=True)
    database, url = _postgres()
    try:
        with Storage(url) as storage:  # the class's numbers fixed, so the test knows the answers
            storage.set_setting("numbers", "class")
            storage.set_setting("class_seed", str(CLASS_SEED))
            storage.set_setting("server_key", SERVER_KEY.hex())
        yield database, url
    finally:
        database.remove()


@contextmanager
def _running_hub(state: Path, url: str, log_path: Path, **settings: str) -> Iterator[tuple[str, int]]:
    """JupyterHub on deploy/jupyterhub_config.py, (its URL, its process id); stopped afterwards,
    and nothing it started left running."""
    port, hub_port, api_port = B.free_port(), B.free_port(), B.free_port()
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith(("CAPITAL_LUX_DB", "CAPITAL_LUX_TEACHER", "JUPYTER"))}
    environment.update({
        "CAPITAL_LUX_HUB_STATE": str(state), "CAPITAL_LUX_HUB_DB": url, "CAPITAL_LUX_HUB_TEACHERS": "teacher",
        "CAPITAL_LUX_TEACHER_KEY": TEACHER_KEY, "CAPITAL_LUX_HUB_CLASS_PASSWORD": CLASS_PASSWORD,
        "CAPITAL_LUX_HUB_TEACHER_PASSWORD": TEACHER_PASSWORD,
        "CAPITAL_LUX_HUB_ALLOW_ROOT": "1" if os.geteuid() == 0 else "0", **settings,
    })
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "w") as log:
        hub_process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py"),
             f"--JupyterHub.bind_url={base}", f"--JupyterHub.hub_bind_url=http://127.0.0.1:{hub_port}",
             f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api_port}"],
            cwd=state, env=environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    started: list[Any] = []
    try:
        _wait_for(lambda: _answers_http(f"{base}/hub/api/"), hub_process, log_path, 60)
        yield base, hub_process.pid
    finally:
        started = psutil.Process(hub_process.pid).children(recursive=True)
        hub_process.terminate()  # the hub stops the servers, the culler and the proxy it started
        try:
            hub_process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            hub_process.kill()
        left = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        for process in left:
            process.kill()
    assert not left, f"the hub left these running: {[' '.join(p.cmdline()) for p in left]}"


def _answers_http(url: str) -> bool:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=2)
        connection.request("GET", parts.path)
        ok = connection.getresponse().status == 200
        connection.close()
    except OSError:
        return False
    return ok


def _wait_for(ready: Any, process: subprocess.Popen[bytes], log_path: Path, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if process.poll() is not None or time.monotonic() > deadline:
            tail = "\n".join(log_path.read_text(errors="replace").splitlines()[-30:])
            pytest.fail(f"JupyterHub did not start (see {log_path}):\n{tail}", pytrace=False)
        time.sleep(0.2)


def _sign_in(browser: Any, base: str, user: str, password: str) -> Any:
    """A person of their own (a browser context) signed in through the hub, their server starting;
    the page goes on to the page their server opens."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{base}/hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", password)
    page.click("#login_submit")
    return page


def _kernel_socket(base: str, user: str, cookies: list[dict[str, Any]], kernel: str,
                   protocols: list[str]) -> tuple[int, list[str]]:
    """Open a page's kernel websocket as the browser would; (status, message types answered to
    an ``execute_request`` followed by a ``kernel_info_request``), status 101 when it opened."""
    from jupyter_server.services.kernels.connection.base import (deserialize_msg_from_ws_v1,
                                                                 serialize_msg_to_ws_v1)
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    cookie = "; ".join(f"{c['name']}={c['value']}" for c in cookies)
    url = f"{base.replace('http', 'ws', 1)}/user/{user}/api/kernels/{kernel}/channels"

    def message(kind: str, content: dict[str, Any]) -> bytes:
        header = {"msg_id": uuid.uuid4().hex, "msg_type": kind, "username": user, "session": uuid.uuid4().hex,
                  "date": "2026-01-01T00:00:00Z", "version": "5.3"}
        parts = [json.dumps(part).encode() for part in (header, {}, {}, content)]
        return bytes(serialize_msg_to_ws_v1(parts, "shell"))

    async def talk() -> tuple[int, list[str]]:
        try:
            socket = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookie}),
                                             subprotocols=protocols or None)
        except HTTPClientError as error:
            return error.code, []
        socket.write_message(message("execute_request", {"code": "import os; print(os.environ)", "silent": False,
                                                         "store_history": False, "user_expressions": {},
                                                         "allow_stdin": False, "stop_on_error": True}),
                             binary=True)
        socket.write_message(message("kernel_info_request", {}), binary=True)
        seen: list[str] = []
        while "kernel_info_reply" not in seen:
            frame = await asyncio.wait_for(socket.read_message(), 60)
            assert isinstance(frame, bytes), f"the socket closed after {seen}"
            _, parts = deserialize_msg_from_ws_v1(frame)
            seen.append(json.loads(parts[0])["msg_type"])
        socket.close()
        return 101, seen

    with ThreadPoolExecutor(1) as thread:  # Playwright's own event loop runs in this one
        return thread.submit(asyncio.run, talk()).result()


def test_two_learners_and_the_teacher_through_the_hub(class_database: tuple[PostgresServer, str],
                                                      tmp_path: Path) -> None:
    _, url = class_database
    log_path = ARTIFACTS / "jupyterhub.log"
    sync_api = pytest.importorskip("playwright.sync_api")
    with _running_hub(tmp_path, url, log_path) as (base, hub_pid), sync_api.sync_playwright() as p:
        browser = B.launch(p)
        try:
            # Everyone signs in at once, as a class arrives: the three servers start together.
            pages = {user: _sign_in(browser, base, user, CLASS_PASSWORD) for user in LEARNERS}
            teacher = _sign_in(browser, base, "teacher", TEACHER_PASSWORD)
            for user, (name, exercise, answer) in LEARNERS.items():
                page = pages[user]
                page.wait_for_selector(LEARNER, timeout=150_000)  # the server started, then Voila ran the notebook
                assert page.url.startswith(f"{base}/user/{user}/voila/render/probability_exercises.ipynb")
                # the hub's user name is the learner: nothing to type, and nothing another learner can type
                page.wait_for_selector(f".cl-learner-note:has-text('Welcome, {user}')")
                assert page.is_disabled(".cl-learner-name input")
                assert _answer(page, exercise, answer) == "correct"
                assert DATABASE_PASSWORD not in page.content() and TEACHER_KEY not in page.content()
            assert [(n, e, a, c) for n, e, a, c in _answers(url)] == [
                (user, exercise, answer, True) for user, (_, exercise, answer) in LEARNERS.items()]

            teacher.wait_for_selector(TEACHER, timeout=150_000)
            assert teacher.url.startswith(f"{base}/user/teacher/voila/render/teacher.ipynb")
            teacher.fill(".cl-teacher-key input", TEACHER_KEY)
            teacher.click(".cl-teacher-unlock")
            teacher.wait_for_selector(".cl-teacher-unlocked .cl-teacher-table", timeout=60_000)
            assert "Learners: 2. Answers checked: 2." in teacher.inner_text(".cl-teacher-summary")
            # the list is drawn after the summary (one more read of the database): wait for it, not race it
            teacher.wait_for_selector(".cl-teacher-learners:has-text('alice')", timeout=30_000)
            listed = teacher.inner_text(".cl-teacher-learners")
            assert "alice" in listed and "bob" in listed
            for _, exercise, _ in LEARNERS.values():
                row = teacher.locator(f".cl-teacher-table tr[data-exercise='{exercise}'] td").all_inner_texts()
                assert row[1:3] == ["1", "1"]  # one learner tried it, one solved it
            teacher.screenshot(path=str(ARTIFACTS / "hub-teacher.png"), full_page=True)

            _learners_server_has_the_guards(base, pages["alice"], pages["bob"])
            _each_server_has_only_its_own_secrets(_servers(hub_pid))
        finally:
            browser.close()
    # jupyterhub-idle-culler runs as the hub's service, and its role lets it read the users' servers.
    assert any(" 200 GET /hub/api/users" in line and "(idle-culler@" in line
               for line in log_path.read_text(errors="replace").splitlines())


def _until(condition: Any, seconds: float, failure: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.5)


def test_an_idle_server_is_stopped_by_the_culler_and_its_database_password_voided(
        class_database: tuple[PostgresServer, str], tmp_path: Path) -> None:
    import psycopg
    import requests

    database, url = class_database
    log_path = ARTIFACTS / "jupyterhub-idle.log"

    def password() -> Any:  # the hash of carol's server's database password, None once voided
        with psycopg.connect(database.url) as connection:
            row = connection.execute("SELECT rolpassword FROM pg_authid WHERE rolname = %s",
                                     (role_name("carol"),)).fetchone()
        return row and row[0]

    # idle for 12 s: stopped (the culler looks every 5 s)
    with _running_hub(tmp_path, url, log_path, CAPITAL_LUX_HUB_IDLE_MINUTES="0.2") as (base, hub_pid):
        carol = requests.Session()
        carol.get(f"{base}/hub/login", timeout=30)
        carol.post(f"{base}/hub/login", timeout=120,
                   data={"username": "carol", "password": CLASS_PASSWORD, "_xsrf": carol.cookies.get("_xsrf")})

        def servers() -> dict[str, Any]:
            answer = carol.get(f"{base}/hub/api/user", headers={"X-XSRFToken": carol.cookies.get("_xsrf", "")},
                               timeout=30)
            assert answer.status_code == 200, answer.text
            found: dict[str, Any] = answer.json()["servers"]
            return found

        _until(lambda: servers().get("", {}).get("ready"), 120, "carol's server did not start")
        assert password() is not None and "carol" in _servers(hub_pid)
        _until(lambda: not servers(), 120, "jupyterhub-idle-culler did not stop carol's idle server")
        assert password() is None and "carol" not in _servers(hub_pid)
    assert "Culling server carol" in log_path.read_text(errors="replace")


def _learners_server_has_the_guards(base: str, alice: Any, bob: Any) -> None:
    own = f"{base}/user/alice"
    request = alice.context.request
    # The teacher's page: not on a learner's server, and the teacher's server is not a learner's to open.
    assert request.get(f"{own}/voila/render/teacher.ipynb").status == 404
    assert request.get(f"{own}/files/teacher.ipynb").status == 404  # nor its source
    assert request.get(f"{own}/files/probability_exercises.ipynb").status == 200
    listed = {entry["name"] for entry in request.get(f"{own}/api/contents").json()["content"]}
    assert "probability_exercises.ipynb" in listed and "teacher.ipynb" not in listed  # what the tree lists
    teachers = bob.context.request.get(f"{base}/user/teacher/voila/render/teacher.ipynb")
    assert teachers.status == 403 and "cl-teacher" not in teachers.text()
    # Files can be read, never written (a notebook written would run once rendered); no terminals.
    xsrf = next(c["value"] for c in alice.context.cookies() if c["name"] == "_xsrf" and c["path"].startswith("/user/"))
    headers = {"X-XSRFToken": xsrf}
    assert request.get(f"{own}/api/contents/probability_exercises.ipynb", headers=headers).status == 200
    written = request.put(f"{own}/api/contents/mine.ipynb", headers=headers, data=json.dumps(
        {"type": "notebook", "content": {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}}))
    assert written.status == 403 and "read-only" in written.text()
    assert not (B.ROOT / "notebooks" / "mine.ipynb").exists()
    assert request.post(f"{own}/api/terminals", headers=headers).status == 404
    # The page's kernel: the v1 protocol only (capital_lux.serve's KernelSocket), and no code run.
    kernels = request.get(f"{own}/api/kernels", headers=headers).json()
    assert len(kernels) == 1
    cookies = alice.context.cookies()
    assert _kernel_socket(base, "alice", cookies, kernels[0]["id"], [])[0] == 400
    status, answered = _kernel_socket(base, "alice", cookies, kernels[0]["id"], [V1])
    assert status == 101 and "kernel_info_reply" in answered
    assert not {"execute_reply", "stream", "execute_input"} & set(answered), answered



def _each_server_has_only_its_own_secrets(servers: dict[str, list[dict[str, str]]]) -> None:
    """The owner's password stays in the hub; the teacher's key is in the teacher's server alone;
    each server reaches the class database as a role of its own that may not change its tables."""
    import psycopg

    assert sorted(servers) == ["alice", "bob", "teacher"]
    roles = set()
    for user, environments in servers.items():
        for environment in environments:
            assert not any(DATABASE_PASSWORD in value for value in environment.values()), user
            assert (environment.get("CAPITAL_LUX_TEACHER_KEY") == TEACHER_KEY) == (user == "teacher"), user
        roles.add(environments[0]["CAPITAL_LUX_DB"].split("//")[1].split(":")[0])
    assert len(roles) == 3 and "capital_lux" not in roles
    with psycopg.connect(servers["alice"][0]["CAPITAL_LUX_DB"], autocommit=True) as connection:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            connection.execute("DROP TABLE attempts")
