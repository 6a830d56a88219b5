"""Answers the class database could not take yet, kept on the server's disk until it does.

A learner's page checks an answer at once; storing it needs the class database, which may
be away (a PostgreSQL restarting, a SQLite file held by a backup). Such an answer is kept
here, not only in the page's memory: a reload, a closed tab, a culled or crashed kernel or
a restarted server would lose it there. Each page appends its answers to a file of its own
(one JSON line each, written through to the disk), in the server's own folder
(``storage.data_folder()``), in a folder per class database (answers never reach another
class's database). The first page of the server that reaches the database sends every file
there, oldest first; each answer carries the time it was typed and an id of its own, so
one sent twice (two pages sending together, a send cut short) is stored once.

The server's disk, not the browser's: the answer was checked on the server, which alone
holds the cards it was checked on, and a learner's browser storage is theirs to edit.

>>> import tempfile
>>> box = Outbox(Path(tempfile.mkdtemp()))
>>> box.keep("a1", {"session": "s", "exercise": "x", "answer": "1/2", "correct": False})
>>> [a["answer"] for a in box.waiting("a1")], box.waiting("b2")
(['1/2'], [])
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
import secrets
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .storage import Storage, StorageError, StorageUnavailable, data_folder

LOG = logging.getLogger("capital_lux.outbox")
_PAGE = re.compile(r"[0-9a-f]{1,64}")


#: Where the answers wait, if not in ``data_folder()``'s ``outbox`` (the tests' own folder, say).
FOLDER_VARIABLE = "CAPITAL_LUX_OUTBOX"


def outbox_folder(url: str) -> Path:
    """The folder of the answers waiting for the class database at ``url``."""
    base = os.environ.get(FOLDER_VARIABLE, "").strip()
    return (Path(base) if base else data_folder() / "outbox") / hashlib.sha256(url.encode()).hexdigest()[:16]


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def new_token() -> str:
    return secrets.token_hex(16)


class Outbox:
    """The answers kept on the disk, one file per page."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _file(self, page: str) -> Path:
        name = page if _PAGE.fullmatch(page) else hashlib.sha256(page.encode()).hexdigest()  # never a path
        return self.folder / f"{name}.jsonl"

    def keep(self, page: str, answer: dict[str, Any]) -> None:
        """Keep one answer of ``page`` (written through to the disk before this returns)."""
        self._append(self._file(page), answer)

    def _refused_file(self, session: str) -> Path:
        return self.folder / f"{hashlib.sha256(session.encode()).hexdigest()}.refused"

    def take_refused(self, session: str) -> list[dict[str, Any]]:
        """The kept answers of ``session``'s row that the class database refused for good, once:
        whichever page sent them, the learner's own page tells them (their teacher does not see them)."""
        path = self._refused_file(session)
        found = _read(path)
        path.unlink(missing_ok=True)
        return found

    def _append(self, path: Path, answer: dict[str, Any]) -> None:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        line = json.dumps(answer, ensure_ascii=False) + "\n"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(descriptor, line.encode())
            os.fsync(descriptor)
        finally:
            os.close(descriptor)

    def waiting(self, page: str | None = None) -> list[dict[str, Any]]:
        """The answers kept (of ``page``, or of every page), oldest first."""
        files = [self._file(page)] if page is not None else self._files()
        found: list[dict[str, Any]] = []
        for path in files:
            found += _read(path)
        return found

    def _files(self) -> list[Path]:
        try:
            paths = [p for p in self.folder.iterdir() if p.suffix == ".jsonl"]
        except FileNotFoundError:
            return []
        return sorted(paths, key=lambda p: (p.stat().st_mtime, p.name))

    def send(self, storage: Storage) -> int:
        """Store every kept answer, page by page, oldest first; a page's file goes once all its
        answers are stored. Stops at the first the database cannot take (``StorageUnavailable``
        is raised; what was stored stays stored). An answer the database refuses for good is
        logged and kept aside for its learner's page to tell (``take_refused``). Returns the
        answers newly stored."""
        stored = 0
        for path in self._files():
            try:
                handle = path.open("r+", encoding="utf-8")
            except FileNotFoundError:
                continue  # another page sent it meanwhile
            with handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # another page is sending it now
                if not path.exists():
                    continue
                for answer in _read(path):
                    try:
                        stored += storage.record_attempt(
                            str(answer["session"]), str(answer["exercise"]), str(answer["answer"]),
                            bool(answer["correct"]), answer.get("instance"), answer.get("mistake"), answer.get("at"),
                            answer.get("token"), answer.get("page"))
                    except (KeyError, TypeError):
                        LOG.warning("A kept answer could not be read and was left out: %r", answer)
                    except StorageUnavailable:
                        raise
                    except StorageError as error:
                        LOG.warning("An answer kept for the class database was refused: %s", error)
                        self._append(self._refused_file(str(answer.get("session", ""))), answer)
                path.unlink()
        return stored


def _read(path: Path) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    found = []
    for line in text.splitlines():
        try:
            answer = json.loads(line)
        except ValueError:
            continue  # a line cut by a crash mid-write: the answer after it still counts
        if isinstance(answer, dict):
            found.append(answer)
    return found
