"""A learner's progress through the exercises, and the file a learner may take home.

The app keeps each learner's progress in the class database (``storage``); a
learner may also download it as a JSON file and upload it again later. The file
names the learner and what they solved, never the cards they solved it on (their
seeds stay on the server: see ``classroom``), and carries an HMAC of its contents
under the server's key, the learner's name and their row in the lesson (``bound``), so a
file carries no work from one lesson into another. An upload is checked against
``schemas/progress.schema.json``, then its signature, so a file written or changed by
hand, another learner's, another lesson's or another server's is refused with the
reason and changes nothing; one accepted adds what it proves and hides nothing
(``merged``; in a class, ``Storage.replace_progress``).

>>> key = bytes(32)
>>> mine = Progress({"two-scholars": 2}, {"two-scholars": "1/4"})
>>> Progress.from_json(mine.to_json(key, "Ana"), key, "Ana") == mine
True
>>> forged = mine.to_json(key, "Ana").replace('"attempts": 2', '"attempts": 1')
>>> Progress.from_json(forged, key, "Ana")
Traceback (most recent call last):
...
capital_lux.lessons.progress.ProgressError: this progress file was not written for you by this server, or it was changed since
>>> Progress.from_json(mine.to_json(key, "Ana", "row 1"), key, "Ana", "row 2")
Traceback (most recent call last):
...
capital_lux.lessons.progress.ProgressError: this progress file was not written for you in this lesson by this server, or it was changed since
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, TypedDict, cast

from ..engine.cards import N_, CapitalLuxError
from ..engine.position import JSON, import_jsonschema
from .exercises import EXERCISES, EXERCISES_BY_ID, Checked

if TYPE_CHECKING:
    import jsonschema

PROGRESS_FORMAT = "capital-lux-exercise-progress"
#: Version 2 files are signed and hold no seeds; version 1 files held seeds and no signature.
VERSION = 2
#: Uploads larger than this are refused unread (a file with every exercise is about 2 KB).
MAX_PROGRESS_BYTES = 64 * 1024
MAX_ATTEMPTS = 100_000  # as in the schema


class ProgressError(CapitalLuxError):
    """A progress file that cannot be read; the message says why."""


class ExerciseProgress(TypedDict):
    attempts: int
    solved: str | None


class ProgressFile(TypedDict):
    """A progress file as ``schemas/progress.schema.json`` accepts it (test_classroom holds the two together)."""

    format: str
    version: int
    learner: str
    exercises: dict[str, ExerciseProgress]
    signature: str


@cache
def progress_schema() -> dict[str, JSON]:
    text = resources.files("capital_lux.lessons").joinpath("schemas/progress.schema.json").read_text("utf-8")
    result: dict[str, JSON] = json.loads(text)
    return result


def _refuse(mismatch: jsonschema.ValidationError) -> None:
    """Say what is wrong in the reader's words where we can: the schema's own text is English."""
    path = [str(p) for p in mismatch.absolute_path]
    if len(path) >= 3 and path[0] == "exercises" and path[2] == "solved":
        raise ProgressError(N_("exercise {key}: solved must be the answer that solved it (a number), or null"),
                            key=repr(path[1]))
    if len(path) >= 3 and path[0] == "exercises" and path[2] == "attempts":
        raise ProgressError(N_("exercise {key}: attempts must be a whole number from 0 to {limit}"),
                            key=repr(path[1]), limit=MAX_ATTEMPTS)
    raise ProgressError(N_("the progress file does not match its schema at {where}: {problem}"),
                        where="/".join(path) or "/", problem=mismatch.message)


@dataclass
class Progress:
    """Attempts per exercise and the answers that solved them (by exercise id)."""

    attempts: dict[str, int]
    solved: dict[str, str]

    @classmethod
    def empty(cls) -> Progress:
        return cls({}, {})

    def record(self, exercise_id: str, answer: str, checked: Checked) -> None:
        """Count a correct or wrong answer; an invalid one changes nothing."""
        if checked.status == "invalid":
            return
        self.attempts[exercise_id] = self.attempts.get(exercise_id, 0) + 1
        if checked.status == "correct" and exercise_id not in self.solved:
            self.solved[exercise_id] = answer.strip()

    def merged(self, other: Progress) -> Progress:
        """What both prove: per exercise the larger count of answers, and every solving answer
        (this one's first)."""
        attempts = {e: max(self.attempts.get(e, 0), other.attempts.get(e, 0))
                    for e in {*self.attempts, *other.attempts}}
        return Progress(attempts, {**other.solved, **self.solved})

    def _exercises(self) -> dict[str, ExerciseProgress]:
        return {ex.id: {"attempts": self.attempts.get(ex.id, 0), "solved": self.solved.get(ex.id)}
                for ex in EXERCISES if ex.id in self.attempts}

    def to_json(self, key: bytes, learner: str, bound: str = "") -> str:
        """The file a learner downloads: their name, what they did, and the server's signature
        (of those and of ``bound``, their row in the lesson, which the file does not show)."""
        exercises = self._exercises()
        return json.dumps({"format": PROGRESS_FORMAT, "version": VERSION, "learner": learner,
                           "exercises": exercises, "signature": signature(key, learner, exercises, bound)}, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes, key: bytes, learner: str, bound: str = "") -> Progress:
        """Read a progress file signed by ``key`` for ``learner`` (and ``bound``, their row in the
        lesson); refuse anything else, naming the problem."""
        if len(text) > MAX_PROGRESS_BYTES:
            raise ProgressError(N_("the file is {size} bytes; a progress file has at most {limit}"),
                                size=len(text), limit=MAX_PROGRESS_BYTES)
        try:
            parsed: JSON = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            raise ProgressError(N_("not a progress file: {problem}"), problem=error) from None
        if not isinstance(parsed, dict) or parsed.get("format") != PROGRESS_FORMAT:
            raise ProgressError(N_("not a progress file: expected format {format}, version {version}"),
                                format=repr(PROGRESS_FORMAT), version=VERSION)
        if parsed.get("version") != VERSION:
            raise ProgressError(N_("this progress file was written by an earlier version of the tutor, "
                                   "which did not sign it, so it cannot be loaded"))
        import_jsonschema()  # on first use, without its IRI grammars
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import best_match

        mismatch = best_match(Draft202012Validator(progress_schema()).iter_errors(parsed))
        if mismatch is not None:
            _refuse(mismatch)
        # What the schema has just checked. It takes 2.0 for a whole number, but the signature
        # below does not: this server writes 2.
        data = cast(ProgressFile, parsed)
        for key_name in data["exercises"]:
            if key_name not in EXERCISES_BY_ID:
                raise ProgressError(N_("{key} is not an exercise; known: {known}"), key=repr(key_name),
                                    known=", ".join(EXERCISES_BY_ID))
        if data["learner"] != learner:
            raise ProgressError(N_("this progress file is {name}'s: type that name first to load it"),
                                name=repr(data["learner"]))
        if not hmac.compare_digest(data["signature"], signature(key, learner, data["exercises"], bound)):
            if bound:
                raise ProgressError(N_("this progress file was not written for you in this lesson by this server, "
                                       "or it was changed since"))
            raise ProgressError(N_("this progress file was not written for you by this server, "
                                   "or it was changed since"))
        progress = cls.empty()
        for key_name, entry in data["exercises"].items():
            if entry["solved"] is not None:
                progress.solved[key_name] = entry["solved"].strip()
            progress.attempts[key_name] = entry["attempts"]
        return progress


def signature(key: bytes, learner: str, exercises: dict[str, ExerciseProgress], bound: str = "") -> str:
    """The server's HMAC of a learner's name and exercises (canonical JSON), and of ``bound``
    (their row in the lesson) when there is one."""
    message = json.dumps([PROGRESS_FORMAT, VERSION, learner, exercises, *([bound] if bound else [])],
                         sort_keys=True).encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()
