"""``make class`` (``python -m capital_lux.serve.classroom``): a class started, and stopped, in one command.

Starting a class by hand asked the teacher to know four things: the server starts from the
checkout (Voila reads ``voila.json`` from the folder it starts in), listens beyond
``localhost`` for the learners' machines to reach it, has a teacher's key in its environment,
and keeps the class database out of the folder it serves. ``start`` does all four:

- the class's files live in the server's own folder (``lessons.storage.data_folder()``,
  0700): the class database ``class.sqlite3`` unless ``CAPITAL_LUX_DB`` names another, the
  teacher's key ``teacher.key`` (0600) unless ``CAPITAL_LUX_TEACHER_KEY`` is set, the server's
  log ``class.log`` and its process id ``class.pid``;
- the class database is opened once first, so one that cannot be used is said before any
  learner arrives;
- ``python -m capital_lux.serve notebooks`` starts in the background on every interface (or
  ``--address``) and on the port asked (never another one silently); once it answers, the
  teacher reads the key, the machine's address on the room's network and the pages' URLs, in
  their language.

``stop`` ends the class server the PID file names and removes the file.
"""

from __future__ import annotations

import argparse
import fcntl
import http.client
import os
import secrets
import signal
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

from ..i18n import LANGUAGES, Translator, default_language, translator
from ..engine.errors import CapitalLuxError
from ..lessons.classroom import MIN_TEACHER_KEY, TEACHER_KEY_VARIABLE, teacher_key
from ..lessons.storage import DEFAULT_DATABASE, ENVIRONMENT_VARIABLE as DATABASE_VARIABLE
from ..lessons.storage import StorageError, data_folder, open_storage

#: The checkout the package is installed from (editable): ``voila.json`` and ``notebooks/``; a
#: package installed elsewhere starts the class from the current folder, if it is a checkout.
CHECKOUT = Path(__file__).resolve().parents[2]
DEFAULT_PORT = 8866
#: Pages made ready before the class arrives (one kernel each, about 130 MiB).
DEFAULT_LEARNERS = 30
LEARNERS_PAGE = "probability_exercises.ipynb"
TEACHERS_PAGE = "teacher.ipynb"
DATABASE_FILE = DEFAULT_DATABASE
KEY_FILE = "teacher.key"
PID_FILE = "class.pid"
LOG_FILE = "class.log"
#: Letters and digits a teacher reads and types without doubt (no 0/o, no 1/l/i).
KEY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
KEY_GROUPS = 4
STARTUP_SECONDS = 120
STOP_SECONDS = 30
#: Connecting a UDP socket sends nothing: it asks the system which of its addresses is on the
#: route out. This one (RFC 5737's TEST-NET-1) is never a real host.
ROUTE_PROBE = ("192.0.2.1", 9)
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


class Refused(CapitalLuxError):
    """The command cannot go on; the message (already in the teacher's language) says why."""


def files() -> dict[str, Path]:
    folder = data_folder()
    return {name: folder / file for name, file in
            (("database", DATABASE_FILE), ("key", KEY_FILE), ("pid", PID_FILE), ("log", LOG_FILE))}


def private_folder(folder: Path) -> None:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)


def write_private(path: Path, text: str) -> None:
    """``path`` (re)written with ``text``, readable by its owner only."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.write(text)


def new_key() -> str:
    """A teacher's key to read aloud or copy: 16 characters of 31 (79 bits), in groups of four."""
    groups = ("".join(secrets.choice(KEY_ALPHABET) for _ in range(4)) for _ in range(KEY_GROUPS))
    return "-".join(groups)


def class_key(path: Path, t: Translator) -> str:
    """The key in the environment if one is set there, else the one kept in ``path`` (drawn
    and written there, 0600, the first time): a class restarted keeps its teacher's key."""
    if os.environ.get(TEACHER_KEY_VARIABLE, "").strip():
        key = teacher_key()
        if key is None:
            raise Refused(t.gettext(
                "The teacher’s key in {variable} is shorter than {length} characters: set a longer one, or "
                "unset it to have a key drawn.").format(variable=TEACHER_KEY_VARIABLE, length=MIN_TEACHER_KEY))
        return key
    try:
        kept = path.read_text().strip()
    except FileNotFoundError:
        kept = ""
    if len(kept) < MIN_TEACHER_KEY:
        kept = new_key()
        write_private(path, kept + "\n")
    path.chmod(0o600)
    return kept


def lan_address() -> str | None:
    """This machine's IPv4 address on the network (the one on its route out, else any of its
    interfaces' but the loopback's), or None when it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            address: str = probe.getsockname()[0]
        if not address.startswith("127.") and address != "0.0.0.0":
            return address
    except OSError:
        pass  # no route out: look at the interfaces themselves
    for _, name in socket.if_nameindex():
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                packed = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
        except OSError:
            continue  # no IPv4 address on this one
        address = socket.inet_ntoa(packed[20:24])
        if not address.startswith("127."):
            return address
    return None


def running(pid: int) -> bool:
    """Whether ``pid`` is a live class server (not a process that took over its number)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # another user's process: not ours to stop
    proc = Path("/proc") / str(pid)
    try:
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        command = (proc / "cmdline").read_bytes().split(b"\0")
    except (OSError, IndexError):
        return True  # no /proc here: trust the PID file
    return state not in ("Z", "X") and b"capital_lux.serve" in command


def is_checkout(folder: Path) -> bool:
    """Whether ``folder`` holds what the class server starts from: ``voila.json`` and the pages."""
    return (folder / "voila.json").is_file() and (folder / "notebooks" / LEARNERS_PAGE).is_file()


def pid_in(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


def port_free(address: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as trial:
        trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Tornado binds
        try:
            trial.bind((address, port))
        except OSError:
            return False
    return True


def answers(host: str, port: int) -> bool:
    try:
        connection = http.client.HTTPConnection(host, port, timeout=2)
        connection.request("HEAD", "/api/status")  # any answer will do; it starts no kernel
        connection.getresponse()
        connection.close()
    except OSError:
        return False
    return True


def log_tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def start(address: str, port: int, voila_options: Sequence[str], t: Translator) -> list[str]:
    """Start the class server in the background; the lines to print to the teacher."""
    paths = files()
    private_folder(paths["pid"].parent)
    pid = pid_in(paths["pid"])
    if pid is not None and running(pid):
        raise Refused(t.gettext("A class is already running (process {pid}): stop it first with "
                                "make class-stop.").format(pid=pid))
    paths["pid"].unlink(missing_ok=True)
    checkout = next((folder for folder in (CHECKOUT, Path.cwd()) if is_checkout(folder)), None)
    if checkout is None:
        raise Refused(t.gettext("The class starts from the project’s checkout, and {folder} is not one: run "
                                "make class there.").format(folder=Path.cwd()))
    listen = address or "0.0.0.0"
    if not port_free(listen, port):
        raise Refused(t.gettext("Port {port} is already in use on this machine: choose another, e.g. make class "
                                "PORT={other}.").format(port=port, other=port + 1))

    environment = dict(os.environ)
    named = environment.get(DATABASE_VARIABLE, "").strip()
    database = named or str(paths["database"])
    environment[DATABASE_VARIABLE] = database
    try:
        open_storage(database).close()  # the schema made, or why the database cannot be used said now
    except StorageError as error:
        raise Refused(t.gettext("The class cannot start: {reason}").format(reason=t.refusal(error))) from None
    key = class_key(paths["key"], t)
    environment[TEACHER_KEY_VARIABLE] = key

    command = [sys.executable, "-m", "capital_lux.serve", "notebooks", f"--port={port}", "--no-browser",
               f"--Voila.ip={listen}", "--Voila.port_retries=0", *voila_options]
    descriptor = os.open(paths["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as log:
        server = subprocess.Popen(command, cwd=checkout, env=environment, stdin=subprocess.DEVNULL,
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    write_private(paths["pid"], f"{server.pid}\n")
    host = "127.0.0.1" if listen == "0.0.0.0" else listen
    deadline = time.monotonic() + STARTUP_SECONDS
    while not answers(host, port):
        if server.poll() is not None or time.monotonic() > deadline:
            if server.poll() is None:
                server.terminate()
            paths["pid"].unlink(missing_ok=True)
            raise Refused("\n".join((t.gettext("The class server did not start; the end of its log ({log}) "
                                               "follows.").format(log=paths["log"]), log_tail(paths["log"]))))
        time.sleep(0.2)
    return opened(address, port, key, server.pid, database, bool(named), paths["log"], t)


def opened(address: str, port: int, key: str, pid: int, database: str, named: bool, log: Path,
           t: Translator) -> list[str]:
    """What the teacher reads once the class is open."""
    lines = [t.gettext("The class is open.")]
    shown = address if address not in ("", "0.0.0.0") else lan_address()
    if shown is None:
        lines.append(t.gettext("This machine has no network address but its own (127.0.0.1): learners on other "
                               "machines cannot reach the class. Connect it to the room’s network and start the "
                               "class again."))
        shown = "127.0.0.1"
    elif shown.startswith("127."):
        lines.append(t.gettext("The class listens on {address} only: learners on other machines cannot reach "
                               "it.").format(address=shown))
    base = f"http://{shown}:{port}/"
    lines += [
        t.gettext("Give the learners this address: {url}").format(url=f"{base}voila/render/{LEARNERS_PAGE}"),
        t.gettext("The teacher’s page: {url}").format(url=f"{base}voila/render/{TEACHERS_PAGE}"),
        t.gettext("The teacher’s key, to type on that page: {key}").format(key=key),
        t.gettext("All the learners’ pages (the tutorial, the probability exercises and the what-if explorer) are "
                  "listed at {url}").format(url=base),
        (t.gettext("The class database is the one {variable} names.").format(variable=DATABASE_VARIABLE)
         if named else t.gettext("The class database is {path}").format(path=database)),
        t.gettext("The server’s log is {path}").format(path=log),
        t.gettext("To stop the class: make class-stop (or kill {pid}).").format(pid=pid),
    ]
    return lines


def stop(t: Translator) -> list[str]:
    """Stop the class the PID file names; the lines to print."""
    path = files()["pid"]
    pid = pid_in(path)
    if pid is None or not running(pid):
        path.unlink(missing_ok=True)
        return [t.gettext("No class is running.")]
    os.kill(pid, signal.SIGTERM)  # Voila shuts its kernels down, then exits
    deadline = time.monotonic() + STOP_SECONDS
    while running(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if running(pid):
        os.kill(pid, signal.SIGKILL)
    path.unlink(missing_ok=True)
    return [t.gettext("The class is stopped (process {pid}).").format(pid=pid)]


def parser(t: Translator) -> argparse.ArgumentParser:
    commands = argparse.ArgumentParser(prog="python -m capital_lux.serve.classroom", description=t.gettext(
        "Start a class (the exercises and the teacher’s page, served to the room’s network), or stop it."))
    commands.add_argument("action", nargs="?", choices=("start", "stop"), default="start",
                          help=t.gettext("start (the default) or stop the class"))
    commands.add_argument("--address", default="", help=t.gettext(
        "the address to listen on (default: every interface of this machine)"))
    commands.add_argument("--port", type=int, default=DEFAULT_PORT,
                          help=t.gettext("the port to listen on (default {port})").format(port=DEFAULT_PORT))
    commands.add_argument("--learners", type=int, default=DEFAULT_LEARNERS, help=t.gettext(
        "how many learners arrive at once: that many pages are made ready before they come "
        "(default {learners})").format(learners=DEFAULT_LEARNERS))
    commands.add_argument("--lang", choices=LANGUAGES, default=None,
                          help=t.gettext("language: en, fr, es or pt (default: from the environment)"))
    return commands


def main(argv: Sequence[str] | None = None) -> int:
    """Options it does not know go to Voila (``--ClassKernels.max_kernels=40``)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    options, voila_options = parser(translator(default_language())).parse_known_args(arguments)
    t = translator(options.lang or default_language())
    try:
        warm = [f"--ClassKernels.learners_expected={max(0, options.learners)}"]
        lines = stop(t) if options.action == "stop" else start(options.address, options.port, warm + voila_options, t)
    except Refused as refusal:
        print(refusal, file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
