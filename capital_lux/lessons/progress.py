"""A learner's progress through the exercises, and the file a learner may take home.

The app keeps each learner's progress in the class database (``storage``); a
learner may also download it as a JSON file and upload it again later. Such a
file is checked against ``schemas/progress.schema.json`` and then against the
exercises themselves (an answer recorded as solving an exercise must solve it),
so a forged file is refused with the reason and changes nothing. Each learner works
on their own cards, so a solving answer is kept with the seed of the instance it
solved (``instance``; absent or null: the base position) and checked against it.

>>> Progress.from_json('{"format": "capital-lux-exercise-progress", "version": 1, "exercises": {}}')
Progress(attempts={}, solved={}, instances={})
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..engine.cards import N_, CapitalLuxError
from .exercises import EXERCISES, EXERCISES_BY_ID, Checked, check_answer

if TYPE_CHECKING:
    import jsonschema

PROGRESS_FORMAT = "capital-lux-exercise-progress"
#: Uploads larger than this are refused unread (a file with every exercise is about 2 KB).
MAX_PROGRESS_BYTES = 64 * 1024
MAX_ATTEMPTS = 100_000  # as in the schema


class ProgressError(CapitalLuxError):
    """A progress file that cannot be read; the message says why."""


@cache
def progress_schema() -> dict[str, Any]:
    text = resources.files("capital_lux.lessons").joinpath("schemas/progress.schema.json").read_text("utf-8")
    result: dict[str, Any] = json.loads(text)
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
    #: the seed of the instance each solving answer solved (none: the base position)
    instances: dict[str, int] = field(default_factory=dict)

    @classmethod
    def empty(cls) -> Progress:
        return cls({}, {})

    def record(self, exercise_id: str, answer: str, checked: Checked, instance: int | None = None) -> None:
        """Count a correct or wrong answer on the cards of ``instance``; an invalid one changes nothing."""
        if checked.status == "invalid":
            return
        self.attempts[exercise_id] = self.attempts.get(exercise_id, 0) + 1
        if checked.status == "correct" and exercise_id not in self.solved:
            self.solved[exercise_id] = answer.strip()
            if instance is not None:
                self.instances[exercise_id] = instance

    def to_json(self) -> str:
        exercises = {
            ex.id: {"attempts": self.attempts.get(ex.id, 0), "solved": self.solved.get(ex.id),
                    "instance": self.instances.get(ex.id)}
            for ex in EXERCISES
            if ex.id in self.attempts
        }
        return json.dumps({"format": PROGRESS_FORMAT, "version": 1, "exercises": exercises}, indent=1)

    @classmethod
    def from_json(cls, text: str | bytes) -> Progress:
        """Read a progress file; refuse anything that is not one, naming the problem."""
        if len(text) > MAX_PROGRESS_BYTES:
            raise ProgressError(N_("the file is {size} bytes; a progress file has at most {limit}"),
                                size=len(text), limit=MAX_PROGRESS_BYTES)
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError) as error:
            raise ProgressError(N_("not a progress file: {problem}"), problem=error) from None
        if not isinstance(data, dict) or data.get("format") != PROGRESS_FORMAT or data.get("version") != 1:
            raise ProgressError(N_("not a progress file: expected format {format}, version 1"),
                                format=repr(PROGRESS_FORMAT))
        from jsonschema import Draft202012Validator  # on first use: see engine.position._validator
        from jsonschema.exceptions import best_match

        mismatch = best_match(Draft202012Validator(progress_schema()).iter_errors(data))
        if mismatch is not None:
            _refuse(mismatch)
        progress = cls.empty()
        for key, entry in data["exercises"].items():
            ex = EXERCISES_BY_ID.get(key)
            if ex is None:
                raise ProgressError(N_("{key} is not an exercise; known: {known}"), key=repr(key),
                                    known=", ".join(EXERCISES_BY_ID))
            solved, seed = entry["solved"], entry.get("instance")
            if solved is not None:
                # Only an answer that solves the exercise, on the cards it was given for, may say it is solved.
                try:
                    ex = ex.instance(seed)
                except CapitalLuxError:
                    raise ProgressError(N_("exercise {key}: {answer} does not solve it"), key=repr(key),
                                        answer=repr(solved)) from None
                if check_answer(solved, ex.exact(), probability=ex.probability).status != "correct":
                    raise ProgressError(N_("exercise {key}: {answer} does not solve it"), key=repr(key),
                                        answer=repr(solved))
                if entry["attempts"] < 1:
                    raise ProgressError(N_("exercise {key}: solved without any attempt"), key=repr(key))
                progress.solved[key] = solved.strip()
                if seed is not None:
                    progress.instances[key] = seed
            progress.attempts[key] = entry["attempts"]
        return progress
