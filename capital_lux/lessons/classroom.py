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
from datetime import datetime, timedelta, timezone
from fractions import Fraction
from pathlib import Path

from ..engine.cards import N_, CapitalLuxError
from ..i18n import Translator, translator
from ..i18n.formatting import spreadsheet_delimiter
from .storage import EPOCH, Attempt, Storage, StorageError, data_folder

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


def _time(at: str) -> str:
    """A stored time (ISO 8601, UTC) as every spreadsheet reads a date and time: 2026-11-25 00:27:41."""
    try:
        return datetime.fromisoformat(at).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return at


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
    return hmac.compare_digest("".join(typed.split()).upper().encode(), code.encode())


def join_lesson(storage: Storage, session: str, name: str, code: str) -> tuple[str, str, bool]:
    """A learner names themselves in the lesson under way: (session, name kept, known), where
    ``known`` says the name already had a row in the lesson (this page's own, asked again, too).

    In a lesson a name is a learner: when the name (any case, spacing or accent form) is
    already there, the page continues that learner's row, and what it answered before the
    name joins it; else ``session`` takes the name. A lesson with a code refuses a wrong one
    (``StorageError``), and nothing changes."""
    lesson_code, since = lesson(storage)
    if lesson_code and not code_matches(code, lesson_code):
        raise StorageError(N_("Type the lesson code your teacher shows, then your name again."))
    same = storage.find_learner(name, since)
    if same is not None and same[0] != session:
        storage.merge_learner(session, same[0])
        return same[0], same[1], True  # the name as first given: the teacher's row
    return session, storage.set_name(session, name), same is not None


def results_csv(attempts: list[Attempt], lang: str = "en") -> str:
    """Every attempt, one row each, for a spreadsheet in the teacher's language: the exercise's
    number, the learner's answer and the right answer on their cards, 1 or 0, the mistake's
    id, the time (UTC) and whether the solution had been read."""
    t = translator(lang)
    rows: list[list[str | int]] = [[
        t.gettext("Learner"), t.gettext("Session"), t.gettext("Exercise number"), t.gettext("Exercise"),
        t.gettext("Answer"), t.gettext("Right answer"), t.gettext("Score"), t.gettext("Mistake"),
        t.gettext("Time (UTC)"), t.gettext("Solution read before")]]
    for a in attempts:
        rows.append([a.name, a.session, exercise_number(a.exercise) or "", a.exercise, a.answer,
                     _right_answer(a.exercise, a.instance), int(a.correct), mistake_id(a.mistake),
                     _time(a.at), int(a.saw_solution)])
    return _spreadsheet(rows, lang)


def gradebook_csv(figures: ClassFigures, rows: list[tuple[str, str, str, int, int, bool]], lang: str = "en") -> str:
    """One row per learner, one column per exercise (1 solved, 0 tried and not solved yet,
    empty not tried), the total solved and the solutions read before solving: a gradebook.
    ``rows`` are ``Storage.learner_exercises()``."""
    from .problems import EXERCISES

    t = translator(lang)
    cells: dict[str, dict[str, int]] = {}
    for exercise, session, _, _, _, done in rows:
        cells.setdefault(session, {})[exercise] = int(done)
    head: list[str | int] = [t.gettext("Learner")]
    head += [t.gettext("Exercise {number}").format(number=k) for k in range(1, len(EXERCISES) + 1)]
    head += [t.gettext("Total solved"), t.gettext("Solutions read before solving")]
    table: list[list[str | int]] = [head]
    for session, name, solved, _, seen in sorted(figures.learners, key=lambda row: (row[1].casefold(), row[0])):
        mine = cells.get(session, {})
        table.append([name, *(mine.get(ex.id, "") for ex in EXERCISES), solved, seen])
    return _spreadsheet(table, lang)


def _inert(cell: str) -> str:
    """A spreadsheet runs a cell starting with = + - @ as a formula: quote those, but keep -4/3 a number."""
    if cell[:1] in ("=", "+", "@", "\t", "\r") or (cell[:1] == "-" and not _NUMBER.fullmatch(cell)):
        return "'" + cell
    return cell


def _demo(session: str, exercise: str, answer: str, correct: bool) -> Attempt:
    return Attempt(0, session, session, exercise, None, answer, correct, None, "")
