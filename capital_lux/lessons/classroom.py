"""The class as the teacher sees it: who may see solutions, figures per exercise, a CSV.

The teacher's page is unlocked by a key set in the server's environment
(``CAPITAL_LUX_TEACHER_KEY``); with no key set, it stays locked.

Each learner gets their own numbers: the seed of their instance of each exercise is
an HMAC, under the server's key, of the class seed, the exercise and their identity
(name and session id), so it is the same every time it is asked for, another
learner's is another, and one exercise's cards say nothing of another's. The teacher
can put the whole class on the same numbers instead (``NUMBERS_SETTING``). The key
(``server_key``) is drawn once and never leaves the server: it lives in the class
database, or without one in an owner-only file; neither the seeds nor the key reach
a learner's page, a download or a printed sheet, so nothing a learner holds
regenerates an answer. Attempts keep the instance's seed on the server, so the
dashboard grades each answer against the cards its learner saw (``regrade``).

>>> key = bytes(32)
>>> ana = instance_seed("learner", key, 7, "two-scholars", "Ana", "s1")
>>> ana == instance_seed("learner", key, 7, "two-scholars", "Ana", "s1") != instance_seed(
...     "learner", key, 7, "two-scholars", "Ana", "s2")
True
>>> instance_seed("class", key, 7, "two-scholars", "Ana", "s1") == instance_seed(
...     "class", key, 7, "two-scholars", "Bea", "s2") != instance_seed("class", key, 7, "bonus-tie", "Ana", "s1")
True
>>> ana != instance_seed("learner", bytes([1]) * 32, 7, "two-scholars", "Ana", "s1")
True

>>> solution_open("after_attempt", attempts=0), solution_open("after_attempt", attempts=1)
(False, True)
>>> s = summarise([_demo("a", "x", "1/2", False), _demo("a", "x", "1/3", True), _demo("b", "x", "1/2", False)])
>>> s["x"].attempted, s["x"].solved, s["x"].median_attempts, s["x"].wrong[0][:2], s["x"].outcomes
(2, 1, Fraction(3, 2), ('1/2', 2), (0, 1, 0, 0, 1))
"""

from __future__ import annotations

import csv
import functools
import hashlib
from html import escape as html_escape
import hmac
import io
import json
import os
import re
import secrets
import statistics
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone, tzinfo
from fractions import Fraction
from pathlib import Path

from ..engine.cards import N_, CapitalLuxError
from ..i18n import Translator, translator
from ..i18n.formatting import spreadsheet_delimiter
from .storage import MAX_NAME as MAX_NAME_LENGTH
from .storage import EPOCH, Attempt, Storage, StorageError, clean_name, data_folder, name_key

TEACHER_KEY_VARIABLE = "CAPITAL_LUX_TEACHER_KEY"
#: A shorter key could be guessed by trying; the teacher page refuses to open with one.
MIN_TEACHER_KEY = 12
#: A file holding the key (``make class`` names its ``teacher.key``), read at every check, so
#: ``make class-key`` changes the key of a class that runs; the variable above comes first.
TEACHER_KEY_FILE_VARIABLE = "CAPITAL_LUX_TEACHER_KEY_FILE"
#: Wrong keys the pages served to one client address may type in a window, then that address
#: waits it out. Never the whole server's: a learner's guesses once locked the teacher out.
MAX_ADDRESS_KEY_FAILURES = 20
KEY_FAILURE_WINDOW = 15 * 60
#: The address of the browser a page was served to, set in its kernel by the class server.
CLIENT_VARIABLE = "CAPITAL_LUX_CLIENT"
#: The folder of the wrong keys counted per address (default: ``key-failures`` in the data
#: folder), emptied when a class starts and by ``make class-key``.
KEY_FAILURES_VARIABLE = "CAPITAL_LUX_KEY_FAILURES"

SOLUTIONS_SETTING = "solutions"
#: When a learner may open an exercise's worked solution and its simulation.
SOLUTION_POLICIES: dict[str, str] = {
    "after_attempt": N_("after an attempt"),
    "never": N_("never"),
    "always": N_("always"),
}
DEFAULT_POLICY = "after_attempt"

SERVER_KEY_SETTING = "server_key"
KEY_FILE_VARIABLE = "CAPITAL_LUX_KEY_FILE"
KEY_BYTES = 32

NUMBERS_SETTING = "numbers"
CLASS_SEED_SETTING = "class_seed"
#: Whose numbers each learner's exercises are on.
NUMBERS_POLICIES: dict[str, str] = {
    "learner": N_("each learner their own"),
    "class": N_("everyone the same (the class seed)"),
}
DEFAULT_NUMBERS = "learner"
#: Seeds run from 0 to MAX_SEED - 1 (a class seed the teacher types, or one drawn for a learner).
MAX_SEED = 10**9
_NUMBER = re.compile(r"-[0-9.,/ ]+%?")
CSV_COLUMNS = ("learner", "session", "exercise", "instance", "answer", "correct", "mistake", "time",
               "saw_solution")


def solution_open(policy: str, attempts: int) -> bool:
    """May a learner with this many checked answers see the solution? Unknown policies close it."""
    return policy == "always" or (policy == "after_attempt" and attempts > 0)


def instance_seed(policy: str, key: bytes, class_seed: int, exercise: str, name: str, session: str) -> int:
    """The seed of one exercise's cards for one learner, under the teacher's numbers ``policy``:
    the same for everyone (``"class"``), else the learner's own; an HMAC under the server's ``key``."""
    learner = None if policy == "class" else [name, session]
    message = json.dumps([class_seed, exercise, learner]).encode()
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % MAX_SEED


def server_key(storage: Storage | None) -> bytes:
    """The server's secret: drawn once, kept in the class database (every page of the class
    reads the same one) or, with no database, in the owner-only file ``key_file()``."""
    if storage is not None:
        drawn = secrets.token_hex(KEY_BYTES)
        stored = storage.setting_or_default(SERVER_KEY_SETTING, drawn)
        try:
            key = bytes.fromhex(stored)
        except ValueError:
            key = b""
        if len(key) != KEY_BYTES:
            raise StorageError(N_("the class database's key is damaged: start a new class database"))
        return key
    return file_key(key_file())


def key_file() -> Path:
    """Where a server with no class database keeps its key (``CAPITAL_LUX_KEY_FILE``)."""
    named = os.environ.get(KEY_FILE_VARIABLE)
    if named:
        return Path(named)
    return data_folder() / "server.key"


def file_key(path: Path) -> bytes:
    """The key in ``path`` (0600), drawn and written there first if there is none."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        os.chmod(path, 0o600)  # a copy made readable to others is closed again
        try:
            key = bytes.fromhex(path.read_text().strip())
        except ValueError:
            key = b""
        if len(key) != KEY_BYTES:
            raise StorageError(N_("the server's key file {path} is damaged: remove it to draw a new key"),
                               path=str(path)) from None
        return key
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(descriptor, "w") as out:
        out.write(key.hex())
    return key


def class_numbers(storage: Storage) -> tuple[str, int]:
    """The teacher's numbers policy and the class seed; the first page to ask draws the
    class seed at random and stores it, so every page of the class then reads the same one."""
    policy = storage.setting(NUMBERS_SETTING, DEFAULT_NUMBERS)
    drawn = str(secrets.randbelow(MAX_SEED))
    stored = storage.setting_or_default(CLASS_SEED_SETTING, drawn)
    try:
        seed = int(stored) % MAX_SEED
    except ValueError:
        seed = int(drawn)
    return (policy if policy in NUMBERS_POLICIES else DEFAULT_NUMBERS), seed


def set_class_numbers(storage: Storage, policy: str, class_seed: int) -> None:
    """The teacher's choice: whose numbers, and the class seed (raises ``StorageError``)."""
    if policy not in NUMBERS_POLICIES or not 0 <= class_seed < MAX_SEED:
        raise StorageError(N_("the class seed is a whole number from 0 to {limit}"), limit=MAX_SEED - 1)
    storage.set_setting(NUMBERS_SETTING, policy)
    storage.set_setting(CLASS_SEED_SETTING, str(class_seed))


def parse_instance(text: str | None) -> int | None:
    """The seed an attempt's ``instance`` column holds (``None``: the base positions)."""
    if text is None or not text.strip().isdigit():
        return None
    return int(text)


@functools.lru_cache(maxsize=8192)
def _graded(exercise: str, seed: int | None, answer: str) -> tuple[bool, str | None] | None:
    from .problems import EXERCISES_BY_ID, check, diagnose

    if exercise not in EXERCISES_BY_ID:
        return None
    try:
        ex = EXERCISES_BY_ID[exercise].instance(seed)
    except CapitalLuxError:
        return None
    checked = check(ex, answer)
    if checked.status == "invalid":
        return None
    mistake = diagnose(ex, answer) if checked.status == "wrong" else None
    return checked.status == "correct", None if mistake is None else mistake.id


def regrade(attempt: Attempt) -> Attempt:
    """The attempt checked and diagnosed afresh against the instance its learner saw
    (its stored seed); an attempt at an exercise that no longer exists stays as stored."""
    if attempt.instance is not None and parse_instance(attempt.instance) is None:
        return attempt  # not a seed this version wrote: keep what was stored
    graded = _graded(attempt.exercise, parse_instance(attempt.instance), attempt.answer)
    if graded is None:
        return attempt
    correct, mistake = graded
    return replace(attempt, correct=correct, mistake=mistake)


def _normal_key(key: str) -> str:
    """A key as compared: NFC (an accent typed as one character or two is the same), no space
    at either end."""
    return unicodedata.normalize("NFC", key).strip()


def teacher_key() -> str | None:
    """The key set for the server, or None when none (or too short a one, blanks not counted) is set.

    >>> saved = os.environ.get(TEACHER_KEY_VARIABLE)
    >>> os.environ[TEACHER_KEY_VARIABLE] = " " * 12
    >>> teacher_key() is None
    True
    >>> os.environ[TEACHER_KEY_VARIABLE] = "clé du professeur"   # é as one character
    >>> teacher_key_matches("cle\u0301 du professeur ")            # é typed as e + accent
    True
    >>> _ = os.environ.pop(TEACHER_KEY_VARIABLE) if saved is None else os.environ.update({TEACHER_KEY_VARIABLE: saved})
    """
    key = _normal_key(os.environ.get(TEACHER_KEY_VARIABLE, ""))
    named = os.environ.get(TEACHER_KEY_FILE_VARIABLE, "").strip()
    if not key and named:
        try:
            key = _normal_key(Path(named).read_text(errors="replace"))
        except OSError:
            key = ""
    return key if len(key) >= MIN_TEACHER_KEY else None


def teacher_key_matches(typed: str) -> bool:
    key = teacher_key()
    # compare_digest: the time taken does not tell how much of a guess was right.
    return key is not None and hmac.compare_digest(_normal_key(typed).encode(), key.encode())


def key_failures_folder() -> Path:
    named = os.environ.get(KEY_FAILURES_VARIABLE, "").strip()
    return Path(named) if named else data_folder() / "key-failures"


def _failures_file(address: str) -> Path:
    return key_failures_folder() / hashlib.sha256(address.encode()).hexdigest()[:32]


def note_key_failure(address: str, now: float) -> None:
    """A wrong key typed on a page served to ``address`` (nothing kept for an unknown address:
    its page's own limit holds)."""
    if not address:
        return
    try:
        folder = key_failures_folder()
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(_failures_file(address), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(descriptor, "a") as out:
            out.write(f"{now}\n")
    except OSError:
        pass  # the page's own limit still holds


def key_wait(address: str, now: float) -> int:
    """Minutes before the pages served to ``address`` may try another teacher's key, 0 if now:
    at most ``MAX_ADDRESS_KEY_FAILURES`` wrong keys in ``KEY_FAILURE_WINDOW`` seconds from one
    address. Another address, the teacher's, is never kept waiting by it."""
    if not address:
        return 0
    try:
        times = [float(line) for line in _failures_file(address).read_text().split() if line]
    except (OSError, ValueError):
        return 0
    recent = sorted(at for at in times if at >= now - KEY_FAILURE_WINDOW)
    if len(recent) < MAX_ADDRESS_KEY_FAILURES:
        return 0
    oldest = recent[-MAX_ADDRESS_KEY_FAILURES]
    return max(1, -(-int(oldest + KEY_FAILURE_WINDOW - now) // 60))


def reset_key_failures() -> None:
    """Every address's wrong keys forgotten (a class starts, or the teacher draws a new key)."""
    folder = key_failures_folder()
    for path in folder.glob("*") if folder.is_dir() else ():
        path.unlink(missing_ok=True)


@dataclass(frozen=True)
class ExerciseSummary:
    """The class's figures for one exercise."""

    exercise: str
    attempted: int  # learners with at least one checked answer
    solved: int  # learners with a correct one
    median_attempts: Fraction  # per learner who attempted: answers up to the first correct one
    wrong: tuple[tuple[str, int, str | None], ...]  # (answer, how many learners gave it, mistake) most common first
    #: learners who solved it at the 1st, 2nd, 3rd, 4th or later answer, and who have not solved it yet
    outcomes: tuple[int, int, int, int, int]
    #: (mistake, how many learners made it) most common first: on their own cards, learners who
    #: make the same mistake give different numbers, so the mistakes are counted apart
    mistakes: tuple[tuple[str, int], ...] = ()


def summarise(attempts: list[Attempt], top: int = 3) -> dict[str, ExerciseSummary]:
    """Figures per exercise from the class's attempts, in the order of ``attempts``: the
    reference for ``class_figures``, which has the database compute the same."""
    per_learner: dict[str, dict[str, list[Attempt]]] = {}
    for a in attempts:
        per_learner.setdefault(a.exercise, {}).setdefault(a.session, []).append(a)
    wrong: dict[str, Counter[str]] = {}
    made: dict[str, Counter[str]] = {}
    mistakes: dict[tuple[str, str], str | None] = {}
    seen: set[tuple[str, str, str | None, str]] = set()
    for a in attempts:  # learners, not clicks, in the order each was first given
        if a.correct:
            continue
        if ("answer", a.exercise, a.answer, a.session) not in seen:
            seen.add(("answer", a.exercise, a.answer, a.session))
            wrong.setdefault(a.exercise, Counter())[a.answer] += 1
        key = (a.exercise, a.answer)
        mistakes[key] = max(filter(None, (mistakes.get(key), a.mistake)), default=None)
        if a.mistake and ("mistake", a.exercise, a.mistake, a.session) not in seen:
            seen.add(("mistake", a.exercise, a.mistake, a.session))
            made.setdefault(a.exercise, Counter())[a.mistake] += 1
    rows = []
    for exercise, learners in per_learner.items():
        for tries in learners.values():
            solved_at = next((i for i, a in enumerate(tries) if a.correct), None)
            rows.append((exercise, len(tries) if solved_at is None else solved_at + 1, solved_at is not None))
    return _summaries(rows, {e: [(answer, n, mistakes[e, answer]) for answer, n in c.most_common()]
                             for e, c in wrong.items()},
                      {e: c.most_common() for e, c in made.items()}, top)


def _summaries(rows: list[tuple[str, int, bool]], wrong: dict[str, list[tuple[str, int, str | None]]],
               made: dict[str, list[tuple[str, int]]], top: int) -> dict[str, ExerciseSummary]:
    """The summaries from, per exercise and learner, (exercise, answers up to the first correct
    one, solved), and per exercise the wrong answers and mistakes counted by learners, most first."""
    per_exercise: dict[str, list[tuple[int, bool]]] = {}
    for exercise, count, solved in rows:
        per_exercise.setdefault(exercise, []).append((count, solved))
    result = {}
    for exercise, learners in per_exercise.items():
        outcomes = [0] * 5
        for count, solved in learners:
            outcomes[min(count - 1, 3) if solved else 4] += 1
        result[exercise] = ExerciseSummary(
            exercise, len(learners), sum(solved for _, solved in learners),
            Fraction(statistics.median(count for count, _ in learners)).limit_denominator(2),
            tuple(wrong.get(exercise, [])[:top]),
            (outcomes[0], outcomes[1], outcomes[2], outcomes[3], outcomes[4]),
            tuple(made.get(exercise, [])[:top]),
        )
    return result


#: An exercise solved after this many answers or more is flagged to the teacher with the count:
#: where the checker says nothing orderable, a search is a walk of guesses (simple fractions one
#: after the other), and it lands, if at all, after many answers. Only the teacher can ask how
#: the answer was worked out; the flag says where to ask.
SEARCHED_AFTER = 6


def searched(answers: int, solved: bool) -> bool:
    """Whether a learner's cell (answers given to one exercise, solved) looks like a search."""
    return solved and answers >= SEARCHED_AFTER


@dataclass(frozen=True)
class ClassFigures:
    """What the teacher's dashboard shows, as the database computed it."""

    summaries: dict[str, ExerciseSummary]
    #: (session, name, exercises solved, answers checked, solutions seen before solving), per learner
    learners: list[tuple[str, str, int, int, int]]
    answers: int
    #: per (session, exercise) a learner answered: (answers checked, solved)
    cells: dict[tuple[str, str], tuple[int, bool]] = field(default_factory=dict)
    #: (session, exercise) whose worked solution the learner read before solving it
    seen: frozenset[tuple[str, str]] = frozenset()


def class_figures(storage: Storage, top: int = 3, since: str | None = None) -> ClassFigures:
    """The dashboard's figures, aggregated by the database (per exercise and learner, from an
    index), so a class with 300,000 answers reads as fast as one with 300; ``summarise`` is the
    same from the attempts themselves (raises ``StorageError``)."""
    if since is None:
        since = lesson(storage)[1]  # the lesson under way
    rows = storage.learner_exercises(since)
    wrong: dict[str, list[tuple[str, int, str | None]]] = {}
    for exercise, answer, learners, mistake in storage.wrong_answers(since):
        wrong.setdefault(exercise, []).append((answer, learners, mistake))
    made: dict[str, list[tuple[str, int]]] = {}
    for exercise, mistake, learners in storage.mistakes_made(since):
        made.setdefault(exercise, []).append((mistake, learners))
    summaries = _summaries([(e, until, solved) for e, _, _, _, until, solved in rows], wrong, made, top)
    people: dict[str, tuple[str, int, int]] = {}
    for _, session, name, answers, _, solved in rows:
        _, done, total = people.get(session, (name, 0, 0))
        people[session] = (name, done + solved, total + answers)
    read_first = storage.solutions_seen(since)
    seen = Counter(session for session, _ in read_first)
    return ClassFigures(summaries, [(session, *figures, seen[session]) for session, figures in people.items()],
                        sum(total for _, _, total in people.values()),
                        {(session, e): (answers, solved) for e, session, _, answers, _, solved in rows},
                        frozenset(read_first))


def _spreadsheet(rows: list[list[str | int]], lang: str) -> str:
    """A CSV file a spreadsheet set to ``lang``'s locale opens as columns: its separator, a
    byte-order mark (so accents survive), and no cell a spreadsheet would run as a formula."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=spreadsheet_delimiter(lang), lineterminator="\n")
    for row in rows:
        writer.writerow([_inert(c) if isinstance(c, str) else c for c in row])
    return "\ufeff" + out.getvalue()


def _time(at: str, zone: tzinfo | None = timezone.utc) -> str:
    """A stored time (ISO 8601, UTC) in ``zone`` (None: the server's own, the teacher's clock) as
    every spreadsheet reads a date and time: 2026-11-25 00:27:41."""
    try:
        return datetime.fromisoformat(at).astimezone(zone).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return at


def results_time(at: str, zone: tzinfo | None = None) -> str:
    """A stored time in ``zone`` (the teacher's browser's; None: the server's clock), as the exports give it."""
    return _time(at, zone)


def zone_name(zone: tzinfo | None = None) -> str:
    """The time zone's name as a column heads it: "CET", or "UTC+05:30" where it has none."""
    now = datetime.now(timezone.utc).astimezone(zone)
    name = now.tzname() or ""
    if not name or name[0] in "+-":
        offset = now.strftime("%z")
        name = f"UTC{offset[:3]}:{offset[3:]}" if offset not in ("+0000", "") else "UTC"
    return name


def _right_answer(exercise: str, instance: str | None) -> str:
    from .problems import EXERCISES_BY_ID, format_number

    if exercise not in EXERCISES_BY_ID or (instance is not None and parse_instance(instance) is None):
        return ""
    try:
        return format_number(EXERCISES_BY_ID[exercise].instance(parse_instance(instance)).exact())
    except CapitalLuxError:
        return ""


@functools.lru_cache(maxsize=1)
def _mistake_ids() -> dict[str, str]:
    from .problems import EXERCISES
    from .problems.checker import PERCENT_OF_FRACTION, PERCENT_WITHOUT_SIGN
    from .problems.core import COMPLEMENT

    known = [m for ex in EXERCISES for m in ex.mistakes] + [COMPLEMENT, PERCENT_OF_FRACTION, PERCENT_WITHOUT_SIGN]
    return {m.text: m.id for m in known}


def mistake_id(stored: str | None) -> str:
    """A stored mistake as its stable id (``binomial``): older rows hold the learner's sentence."""
    if not stored:
        return ""
    return _mistake_ids().get(stored, stored)


def mistake_label(t: Translator, stored: str | None) -> str:
    """A stored mistake's short label in the teacher's language (its id if it has none)."""
    from .problems.mistakes import LABELS

    key = mistake_id(stored)
    return t.gettext(LABELS[key]) if key in LABELS else key


@functools.lru_cache(maxsize=1)
def _numbers() -> dict[str, int]:
    from .problems import EXERCISES

    return {ex.id: k for k, ex in enumerate(EXERCISES, 1)}


def exercise_number(exercise: str) -> int | None:
    """The exercise's number on the learners' page, the worksheet and the gradebook (1 for the first)."""
    return _numbers().get(exercise)


#: A learner is stuck on an exercise after this many answers without a right one, the last
#: given within the last ``STUCK_MINUTES`` minutes.
STUCK_ANSWERS = 3
STUCK_MINUTES = 10


def stuck_now(storage: Storage, now: datetime | None = None) -> list[tuple[str, str, str, int, int]]:
    """Who is stuck right now: (session, name, exercise, answers, minutes since the last one)."""
    moment = now or datetime.now(timezone.utc)
    since = (moment - timedelta(minutes=STUCK_MINUTES)).isoformat(timespec="milliseconds")
    found = []
    for session, name, exercise, answers, last in storage.stuck(since, STUCK_ANSWERS, lesson(storage)[1]):
        try:
            minutes = int((moment - datetime.fromisoformat(last)).total_seconds() // 60)
        except ValueError:
            minutes = 0
        found.append((session, name, exercise, answers, max(0, minutes)))
    return found


#: The lesson under way: the code learners type with their name, and when it started
#: (learners who started before belong to earlier lessons: kept, not shown).
LESSON_CODE_SETTING = "lesson_code"
LESSON_STARTED_SETTING = "lesson_started"
#: Letters and digits that cannot be misread for one another on a board (no 0/O, 1/I, 2/Z, 5/S, 8/B).
CODE_ALPHABET = "ACDEFGHJKLMNPQRTUVWXY34679"
CODE_LENGTH = 5


def lesson(storage: Storage) -> tuple[str, str]:
    """The lesson's code ("" when the teacher has not started one: names alone) and start."""
    return storage.setting(LESSON_CODE_SETTING, ""), storage.setting(LESSON_STARTED_SETTING, EPOCH)


LESSON_CLOSED_SETTING = "lesson_closed"


def close_lesson(storage: Storage) -> None:
    """The teacher closes the lesson under way: learners' pages check answers but store no
    more (a new lesson opens again)."""
    storage.set_setting(LESSON_CLOSED_SETTING, lesson(storage)[1])


def lesson_closed(storage: Storage) -> bool:
    return storage.setting(LESSON_CLOSED_SETTING, "") == lesson(storage)[1]


def new_lesson(storage: Storage) -> str:
    """Start a new lesson: a new code for learners to type, and a dashboard that starts
    empty; the earlier lessons' answers stay in the database. Returns the code."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    storage.set_setting(LESSON_STARTED_SETTING, datetime.now(timezone.utc).isoformat(timespec="milliseconds"))
    storage.set_setting(LESSON_CODE_SETTING, code)
    return code


#: The exercises of the lesson (ids, space-separated; empty: all of them), and whether
#: answers must be exact fractions ("fractions") or may be decimals too ("decimals").
LESSON_EXERCISES_SETTING = "lesson_exercises"
ANSWER_FORMS_SETTING = "answer_forms"
ANSWER_FORMS = {"decimals": N_("Fractions, decimals and percentages"), "fractions": N_("Exact fractions only")}


def lesson_exercises(storage: Storage | None) -> tuple[str, ...]:
    """The ids of today's exercises, in the page's order (all when the teacher chose none)."""
    from .problems import EXERCISES

    chosen = set(storage.setting(LESSON_EXERCISES_SETTING, "").split()) if storage is not None else set()
    return tuple(ex.id for ex in EXERCISES if not chosen or ex.id in chosen)


def set_lesson_exercises(storage: Storage, exercises: list[str]) -> None:
    from .problems import EXERCISES_BY_ID

    storage.set_setting(LESSON_EXERCISES_SETTING, " ".join(e for e in exercises if e in EXERCISES_BY_ID))


def fractions_only(storage: Storage | None) -> bool:
    return storage is not None and storage.setting(ANSWER_FORMS_SETTING, "decimals") == "fractions"


def code_matches(typed: str, code: str) -> bool:
    """The code as a learner types it: any case, spaces ignored."""
    return hmac.compare_digest(typed_code(typed).encode(), code.encode())


def typed_code(typed: str) -> str:
    """A code as typed, as stored: no spaces, capitals."""
    return "".join(typed.split()).upper()


#: How learners say who they are: the class list's personal codes (the default), or their
#: names alone in an open lesson (a quick lesson, chosen by the teacher).
IDENTITY_SETTING = "identity"
IDENTITY_MODES: dict[str, str] = {
    "roster": N_("Class list: each learner joins with the code on their slip"),
    "open": N_("Open lesson, names only: anyone joins with a name (a quick lesson)"),
}
DEFAULT_IDENTITY = "roster"
#: A personal code: longer than the lesson's, from the same unambiguous alphabet (26^6, about
#: 300 million: a classmate does not guess one).
PERSONAL_CODE_LENGTH = 6
#: The environment variable a JupyterHub single-user server is started with: its user's name.
HUB_USER_VARIABLE = "JUPYTERHUB_USER"


def identity_mode(storage: Storage) -> str:
    mode = storage.setting(IDENTITY_SETTING, DEFAULT_IDENTITY)
    return mode if mode in IDENTITY_MODES else DEFAULT_IDENTITY


def set_identity_mode(storage: Storage, mode: str) -> None:
    if mode not in IDENTITY_MODES:
        raise StorageError(N_("Choose how learners join: the class list or an open lesson."))
    storage.set_setting(IDENTITY_SETTING, mode)


def new_personal_code(storage: Storage) -> str:
    """A personal code no one in the class has."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(PERSONAL_CODE_LENGTH))
        if not storage.code_taken(code):
            return code


def add_to_roster(storage: Storage, names: list[str]) -> list[tuple[str, str, str]]:
    """Put ``names`` on the class list, each with a personal code (a name twice: two learners).
    Returns (person, name, code) for each; a name refused (too long, say) raises and adds none after it."""
    added = []
    for name in names:
        code = new_personal_code(storage)
        person = storage.add_person(name, code)
        added.append((person, clean_name(name), code))
    return added


#: A first row holding one of these is a header, not a learner.
_HEADERS = {"name", "names", "learner", "learners", "student", "students", "nom", "nombre", "nome", "prénom",
            "élève", "alumno", "aluno", "estudiante", "estudante", "first name", "full name"}


def roster_names(text: str) -> list[str]:
    """The names of a class list pasted one per line or exported as CSV (comma, semicolon or
    tab; the first column, or "first name" and "last name" columns joined); a header row is skipped."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(lines[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = [[cell.strip() for cell in row] for row in csv.reader(lines, dialect)]
    rows = [row for row in rows if any(row)]
    head = [cell.lstrip("\ufeff").casefold() for cell in rows[0]] if rows else []
    columns = [0]
    if head and any(cell in _HEADERS or cell in ("last name", "surname", "nom de famille", "apellido", "sobrenome")
                    for cell in head):
        first = next((k for k, cell in enumerate(head) if cell in ("first name", "prénom", "nombre", "nome")), None)
        last = next((k for k, cell in enumerate(head)
                     if cell in ("last name", "surname", "nom de famille", "apellido", "sobrenome")), None)
        columns = [k for k in (first, last) if k is not None] or [0]
        rows = rows[1:]
    names = [" ".join(row[k] for k in columns if k < len(row) and row[k]) for row in rows]
    return [name for name in names if name.strip()]


def slips_html(people: list[tuple[str, str, str, str | None]], lang: str) -> str:
    """A page of slips to print and cut, one per learner on the class list: their name and
    their personal code, in the teacher's language. ``people`` is ``Storage.roster()``."""
    t = translator(lang)
    how = t.gettext("On the probability exercises page, type your name and this code. Keep it to yourself: "
                    "it is your place in the class, on any computer.")
    slips = "".join(
        f'<div class="slip"><div class="name">{html_escape(name)}</div>'
        f'<div class="code">{html_escape(" ".join((code[:3], code[3:])))}</div>'
        f'<p>{html_escape(how)}</p></div>' for _, name, code, _ in people)
    title = html_escape(t.gettext("Join codes of the class"))
    return (f'<!DOCTYPE html><html lang="{lang.replace("_", "-")}"><head><meta charset="utf-8"><title>{title}</title>'
            "<style>body{font:12pt sans-serif;margin:1cm}.slips{display:flex;flex-wrap:wrap;gap:0}"
            ".slip{box-sizing:border-box;width:50%;padding:.6cm;border:1px dashed #555;page-break-inside:avoid}"
            ".name{font-size:14pt;font-weight:bold}.code{font:bold 22pt monospace;letter-spacing:.15em;margin:.2cm 0}"
            "p{margin:0;font-size:10pt}@media print{h1{display:none}}</style></head>"
            f'<body><h1>{title}</h1><div class="slips">{slips}</div></body></html>')


@dataclass(frozen=True)
class Joined:
    """A page joined to a learner's row: the row, the name kept, whether the row was there
    before (a later visit), the personal code to show (an open lesson's learner's, to come
    back with), and the person on the class list (their numbers follow them)."""

    session: str
    name: str
    came_back: bool
    code: str = ""
    person: str | None = None


def join(storage: Storage, session: str, name: str, code: str, hub_user: str | None = None) -> Joined:
    """A page joins its learner's row in the lesson under way, and nobody else's.

    - On JupyterHub (``hub_user``) the hub's user name is the learner: nothing to type.
    - A personal code from the class list joins its learner's row, with the name it was
      given for (any case, spacing or accent form): a classmate's code with one's own name
      is refused, and so is a name with no code.
    - In an open lesson (the teacher's explicit choice) a name with the lesson code (or
      alone, before the teacher starts a lesson with a code) makes a new row (two learners with one name are two rows) and gives the learner a personal
      code; that code and the name continue the row later (a reload, another computer).

    The answers the page gave before joining join the row. Anything refused raises
    ``StorageError`` and changes nothing."""
    lesson_code, since = lesson(storage)
    if hub_user:
        found = storage.person(hub_user=hub_user)
        if found is None:
            found = (storage.add_person(hub_user[:MAX_NAME_LENGTH], new_personal_code(storage), hub_user),
                     clean_name(hub_user[:MAX_NAME_LENGTH]))
        return _continue(storage, session, since, *found)
    typed = typed_code(code)
    open_lesson = identity_mode(storage) == "open"
    if not typed and not (open_lesson and not lesson_code):
        raise StorageError(N_("Type your code too: the one on your slip, or the lesson code on the board."))
    found = storage.person(code=typed) if typed else None
    if found is not None:
        if name_key(name) != name_key(found[1]):
            raise StorageError(N_("This code is not for that name: type your own name and the code on your own slip."))
        return _continue(storage, session, since, *found)
    if not open_lesson:
        raise StorageError(N_("This is not a code of the class list: type the code on your slip from your teacher."))
    row = storage.lesson_row(since, code=typed) if typed else None
    if row is not None:
        if name_key(name) != name_key(row[1]):
            raise StorageError(N_("This code is not for that name: type your own name and the code on your own slip."))
        storage.merge_learner(session, row[0])
        return Joined(row[0], row[1], True, typed)
    if lesson_code and not code_matches(typed, lesson_code):
        raise StorageError(N_("Type the lesson code your teacher shows, or your own code, then your name again."))
    personal = new_personal_code(storage)
    return Joined(session, storage.take_row(session, name, code=personal), False, personal)


def _continue(storage: Storage, session: str, since: str, person: str, name: str) -> Joined:
    """The page continues ``person``'s row in the lesson, or becomes it."""
    row = storage.lesson_row(since, person=person)
    if row is None:
        return Joined(session, storage.take_row(session, name, person=person), False, "", person)
    if row[0] != session:
        storage.merge_learner(session, row[0])
    return Joined(row[0], row[1], True, "", person)


def join_lesson(storage: Storage, session: str, name: str, code: str) -> tuple[str, str, bool]:
    """``join`` as (session, name kept, known)."""
    joined = join(storage, session, name, code)
    return joined.session, joined.name, joined.came_back


def results_csv(attempts: list[Attempt], lang: str = "en", zone: tzinfo | None = timezone.utc) -> str:
    """Every attempt, one row each, for a spreadsheet in the teacher's language: the exercise's
    number and its title, the learner's answer and the right answer on their cards, 1 or 0, the
    mistake's id, the time (in ``zone``; None: the server's own, the teacher's clock), whether the solution had been read, and whether the teacher removed
    the learner (archived: 1; their answers are kept), and the teacher's own mark where they
    gave one (1 right, 0 wrong: the score then follows it)."""
    t = translator(lang)
    rows: list[list[str | int]] = [[
        t.gettext("Learner"), t.gettext("Session"), t.gettext("Exercise number"), t.gettext("Exercise"),
        t.gettext("Exercise title"), t.gettext("Answer"), t.gettext("Right answer"), t.gettext("Score"), t.gettext("Mistake"),
        t.gettext("Time ({zone})").format(zone=zone_name(zone)), t.gettext("Solution read before"),
        t.gettext("Archived"), t.gettext("Marked by the teacher")]]
    for a in attempts:
        rows.append([a.name, a.session, exercise_number(a.exercise) or "", a.exercise, _title(a.exercise, t), a.answer,
                     _right_answer(a.exercise, a.instance), int(a.correct if a.marked is None else a.marked),
                     mistake_id(a.mistake), _time(a.at, zone), int(a.saw_solution), int(a.archived),
                     "" if a.marked is None else int(a.marked)])
    return _spreadsheet(rows, lang)


def _title(exercise: str, t: Translator) -> str:
    from .problems import EXERCISES_BY_ID

    return t.gettext(EXERCISES_BY_ID[exercise].title) if exercise in EXERCISES_BY_ID else exercise


def gradebook_csv(figures: ClassFigures, rows: list[tuple[str, str, str, int, int, bool]], lang: str = "en",
                  today: tuple[str, ...] | None = None) -> str:
    """One row per learner, one column per exercise of ``today`` (all if None), headed by its
    number and title (1 solved, 0 tried and not solved yet, empty not tried), the total
    solved and the solutions read before solving: a gradebook. ``rows`` are
    ``Storage.learner_exercises()``."""
    from .problems import EXERCISES

    t = translator(lang)
    cells: dict[str, dict[str, int]] = {}
    for exercise, session, _, _, _, done in rows:
        cells.setdefault(session, {})[exercise] = int(done)
    shown = [(k, ex) for k, ex in enumerate(EXERCISES, 1) if today is None or ex.id in today]
    head: list[str | int] = [t.gettext("Learner")]
    head += [f"{k}. {t.gettext(ex.title)}" for k, ex in shown]
    head += [t.gettext("Total solved"), t.gettext("Solutions read before solving")]
    table: list[list[str | int]] = [head]
    for session, name, solved, _, seen in sorted(figures.learners, key=lambda row: (row[1].casefold(), row[0])):
        mine = cells.get(session, {})
        table.append([name, *(mine.get(ex.id, "") for _, ex in shown), solved, seen])
    return _spreadsheet(table, lang)


def _inert(cell: str) -> str:
    """A spreadsheet runs a cell starting with = + - @ as a formula: quote those, but keep -4/3 a number."""
    if cell[:1] in ("=", "+", "@", "\t", "\r") or (cell[:1] == "-" and not _NUMBER.fullmatch(cell)):
        return "'" + cell
    return cell


def _demo(session: str, exercise: str, answer: str, correct: bool) -> Attempt:
    return Attempt(0, session, session, exercise, None, answer, correct, None, "")
