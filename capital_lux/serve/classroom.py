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

``stop`` ends the class server the PID file names and removes the file. ``key`` (``make
class-key``) draws a new teacher's key, which a running class takes at once (its pages read
the key file at every check), and forgets every wrong key typed so far.
"""

from __future__ import annotations

import argparse
import errno
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
from ..lessons.classroom import (KEY_FAILURES_VARIABLE, MIN_TEACHER_KEY, TEACHER_KEY_FILE_VARIABLE,
                                 TEACHER_KEY_VARIABLE, key_failures_folder, reset_key_failures, teacher_key)
from ..lessons.classroom import identity_mode
from ..lessons.storage import DEFAULT_DATABASE, ENVIRONMENT_VARIABLE as DATABASE_VARIABLE
from ..lessons.storage import Storage, StorageError, StorageMisconfigured, data_folder, open_storage

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
#: In the environment of a class's server, and so of its kernels: the class's data folder.
MARK_VARIABLE = "CAPITAL_LUX_CLASS"
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
    if not Path("/proc").is_dir():
        return True  # no /proc here: trust the PID file
    return _live(pid) and _is_server(pid)


def is_checkout(folder: Path) -> bool:
    """Whether ``folder`` holds what the class server starts from: ``voila.json`` and the pages."""
    return (folder / "voila.json").is_file() and (folder / "notebooks" / LEARNERS_PAGE).is_file()


def pid_in(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    return int(text) if text.isdigit() else None


def port_number(text: str, t: Translator) -> int:
    """The port ``text`` names, or the refusal saying why it names none."""
    port = int(text) if text.strip().isdigit() else 0
    if not 1 <= port <= 65535:
        raise Refused(t.gettext("The port must be a whole number from 1 to 65535, and {port} is not: e.g. make "
                                "class PORT={default}.").format(port=text, default=DEFAULT_PORT))
    return port


def check_listening(address: str, port: int, t: Translator) -> None:
    """Refuse, in one sentence, an address that is not this machine's and a port in use there."""
    address = "127.0.0.1" if address.lower() == "localhost" else address  # the one name needing no lookup
    try:
        family, kind, _, _, where = socket.getaddrinfo(address, port, type=socket.SOCK_STREAM,
                                                       flags=socket.AI_PASSIVE | socket.AI_NUMERICHOST)[0]
    except (socket.gaierror, UnicodeError):
        raise Refused(t.gettext("{address} is not a network address: give one of this machine’s, e.g. make class "
                                "ADDRESS={example}, or none to listen on all of them.").format(
                                    address=address, example=lan_address() or "127.0.0.1")) from None
    with socket.socket(family, kind) as trial:
        trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Tornado binds
        try:
            trial.bind(where)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise Refused(t.gettext("Port {port} is already in use on this machine: choose another, e.g. make "
                                        "class PORT={other}.").format(port=port, other=port % 65535 + 1)) from None
            if error.errno in (errno.EACCES, errno.EPERM):
                raise Refused(t.gettext("Port {port} is reserved for the system’s administrator on this machine: "
                                        "choose one from 1024 up, e.g. make class PORT={default}.").format(
                                            port=port, default=DEFAULT_PORT)) from None
            raise Refused(t.gettext("{address} is not an address of this machine: give one of its own, e.g. make "
                                    "class ADDRESS={example}, or none to listen on all of them.").format(
                                        address=address, example=lan_address() or "127.0.0.1")) from None


def class_processes(mark: str) -> list[int]:
    """This user's processes that a class marked ``mark`` started: its server and its kernels,
    whatever its PID file says (Linux's ``/proc``)."""
    wanted = f"{MARK_VARIABLE}={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if entry.stat().st_uid != os.getuid() or wanted not in (entry / "environ").read_bytes().split(b"\0"):
                continue
        except OSError:
            continue  # gone, or not ours to read
        found.append(int(entry.name))
    return found


def end_class(pid: int | None, mark: str, seconds: float = STOP_SECONDS) -> None:
    """The class's server asked to stop (it shuts its kernels down), then whatever of it and its
    kernels is left after ``seconds`` killed: nothing of the class runs after."""
    def alive() -> list[int]:
        found = [process for process in class_processes(mark) if _live(process)]
        return found + [pid] if pid is not None and pid not in found and _live(pid) else found

    servers = [found for found in alive() if _is_server(found)]
    for target in {*servers, *([pid] if pid is not None and _live(pid) else [])}:
        _signal(target, signal.SIGTERM)
    deadline = time.monotonic() + seconds
    while alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    for target in alive():
        _signal(target, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while alive() and time.monotonic() < deadline:
        time.sleep(0.1)


def _live(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _is_server(pid: int) -> bool:
    try:
        return b"capital_lux.serve" in (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return False


def _signal(pid: int, sign: signal.Signals) -> None:
    try:
        os.kill(pid, sign)
    except (ProcessLookupError, PermissionError):
        pass


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
    check_listening(listen, port, t)

    environment = dict(os.environ)
    named = environment.get(DATABASE_VARIABLE, "").strip()
    database = named or str(paths["database"])
    environment[DATABASE_VARIABLE] = database
    mark = str(paths["pid"].parent)
    environment[MARK_VARIABLE] = mark  # the server's and its kernels': the class's processes, found whatever happens
    leftover = class_processes(mark)
    if leftover:  # a start that went wrong before this code stopped everything
        end_class(None, mark)
    try:
        storage = open_storage(database)  # the schema made, or why the database cannot be used said now
        try:
            needs_list = needs_class_list(storage)
        finally:
            storage.close()
    except StorageError as error:
        why = t.gettext("The class cannot start: {reason}").format(reason=t.refusal(error))
        if isinstance(error, StorageMisconfigured):  # what is wrong in the teacher's words, then the driver's
            why = t.refusal(error.what) + " " + why
        raise Refused(why) from None
    key = class_key(paths["key"], t)
    if not os.environ.get(TEACHER_KEY_VARIABLE, "").strip():  # read from the file at every check:
        environment.pop(TEACHER_KEY_VARIABLE, None)           # make class-key changes it while the class runs
        environment[TEACHER_KEY_FILE_VARIABLE] = str(paths["key"])
    environment[KEY_FAILURES_VARIABLE] = str(key_failures_folder())
    reset_key_failures()  # a class starts with no address kept waiting

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
        exited = server.poll() is not None
        if exited or time.monotonic() > deadline:
            end_class(server.pid, mark)  # the server and every kernel it started
            server.wait()
            paths["pid"].unlink(missing_ok=True)
            why = (t.gettext("The class server stopped as it started, and nothing of it runs now; the end of its log "
                             "({log}) follows.") if exited else
                   t.gettext("The class server did not answer within {seconds} seconds: it is stopped with everything it "
                             "started, and the end of its log ({log}) follows.")).format(
                                 log=paths["log"], seconds=STARTUP_SECONDS)
            raise Refused("\n".join((why, log_tail(paths["log"]))))
        time.sleep(0.2)
    return opened(address, port, key, server.pid, database, bool(named), paths["log"], t, needs_list)


def needs_class_list(storage: Storage) -> bool:
    """Learners join with a class list's codes (the default) and the class list is empty."""
    return identity_mode(storage) == "roster" and not storage.roster()


def opened(address: str, port: int, key: str, pid: int, database: str, named: bool, log: Path,
           t: Translator, needs_list: bool = False) -> list[str]:
    """What the teacher reads once the class is open; ``needs_list``: learners join with a class
    list's codes and the class list is empty, so none could join yet."""
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
    language = f"?lang={t.lang}"  # the pages open in the class's language (a learner may change theirs)
    lines += [
        t.gettext("Give the learners this address: {url}").format(url=f"{base}voila/render/{LEARNERS_PAGE}{language}"),
        t.gettext("The teacher’s page: {url}").format(url=f"{base}voila/render/{TEACHERS_PAGE}{language}"),
        t.gettext("The teacher’s key, to type on that page: {key}").format(key=key),
        t.gettext("All the learners’ pages (the tutorial, the probability exercises and the what-if explorer) are "
                  "listed at {url}").format(url=base),
        (t.gettext("The class database is the one {variable} names.").format(variable=DATABASE_VARIABLE)
         if named else t.gettext("The class database is {path}").format(path=database)),
        t.gettext("The server’s log is {path}").format(path=log),
        t.gettext("To stop the class: make class-stop (or kill {pid}).").format(pid=pid),
    ]
    if needs_list:
        lines.append(t.gettext("Learners join with the personal codes of a class list, and the class list is "
                               "empty: on the teacher’s page, add the learners’ names and print their join slips, "
                               "or choose “Open lesson, names only” there for a quick lesson."))
    return lines


def stop(t: Translator) -> list[str]:
    """Stop the class the PID file names; the lines to print."""
    path = files()["pid"]
    pid = pid_in(path)
    mark = str(path.parent)
    if pid is not None and not running(pid):
        pid = None
    strays = class_processes(mark)
    if pid is None and not strays:
        path.unlink(missing_ok=True)
        return [t.gettext("No class is running.")]
    if pid is None:
        pid = next((found for found in strays if _is_server(found)), strays[0])
    end_class(pid, mark)  # Voila shuts its kernels down, then exits; what is left is killed
    path.unlink(missing_ok=True)
    return [t.gettext("The class is stopped (process {pid}).").format(pid=pid)]


def fresh_key(t: Translator) -> list[str]:
    """A new teacher's key in the class's key file, and every wrong key typed so far forgotten;
    the lines to print. A class that runs takes the new key at once."""
    paths = files()
    private_folder(paths["key"].parent)
    reset_key_failures()
    if os.environ.get(TEACHER_KEY_VARIABLE, "").strip():
        return [t.gettext("The teacher’s key is the one {variable} sets, so no new key is drawn; the wrong keys "
                          "typed so far are forgotten.").format(variable=TEACHER_KEY_VARIABLE)]
    key = new_key()
    write_private(paths["key"], key + "\n")
    return [t.gettext("The teacher’s new key, to type on the teacher’s page: {key}").format(key=key),
            t.gettext("The wrong keys typed so far are forgotten, and the old key no longer opens the page.")]


def parser(t: Translator) -> argparse.ArgumentParser:
    commands = argparse.ArgumentParser(prog="python -m capital_lux.serve.classroom", description=t.gettext(
        "Start a class (the exercises and the teacher’s page, served to the room’s network), or stop it."))
    commands.add_argument("action", nargs="?", choices=("start", "stop", "key"), default="start",
                          help=t.gettext("start (the default) or stop the class, or draw a new teacher’s key"))
    commands.add_argument("--address", default="", help=t.gettext(
        "the address to listen on (default: every interface of this machine)"))
    commands.add_argument("--port", default=str(DEFAULT_PORT),
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
        if options.action == "key":
            lines = fresh_key(t)
        elif options.action == "stop":
            lines = stop(t)
        else:
            lines = start(options.address, port_number(options.port, t), warm + voila_options, t)
    except Refused as refusal:
        print(refusal, file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
