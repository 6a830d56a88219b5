"""Learners playing each other: class tables whose one truth is the class database.

A table has 2 to 4 seats and a short code; each seat is held by a learner (their class
identity: the class list's person id, or the row of an open lesson's learner, never a
typed name) or by a bot chosen when the table is opened. The game is the engine's
(``engine.game.Game``, its seed kept here and never shown while the game runs), rebuilt
from the decisions stored in the class database:

- ``game_tables(id, code, seats, seed, opened_by, opened, started, closed, closed_why,
  away_seconds, aids, hotseat, moves)``: ``moves`` is the table's move number, which
  every page polls to learn that something happened;
- ``table_seats(table_id, seat, learner, name, bot, seen)``: ``seen`` is when the seat's
  page was last heard from (seconds since the epoch);
- ``table_moves(table_id, number, seat, turn, action, made_by, at)``: every decision in
  the order it was made; ``turn`` counts the seat's own decisions (unique per seat: the
  same decision sent twice is stored once), ``made_by`` is ``learner``, ``bot`` or
  ``stand-in`` (the rule-of-thumb bot playing for a learner who is away).

**One truth.** A decision is stored in one transaction that first locks the table's row
(``BEGIN IMMEDIATE`` in SQLite, ``SELECT … FOR UPDATE`` in PostgreSQL), reads every
move stored since, and checks the seat, its learner, the seat's turn number the page
showed and the rules; only then is it stored, and only what is stored is ever shown.
A second click, or a page reloaded mid-move, sends a turn number already used: it is
refused with a sentence and changes nothing.

**The draft and the gold are simultaneous.** The engine asks the seats in turn order, but
their picks and gold choices are hidden until all have chosen; so a learner may pick as
soon as the cards reach them, and the replay takes each seat's decisions from its own
queue, in its own order, when the engine asks that seat. The draft waits for every
human's pick.

**Away seats.** A learner whose page has not been heard from for the table's
``away_seconds`` is played by the rule-of-thumb bot while the game waits for them; the
moves say so (``made_by = 'stand-in'``) and the log shows it. A table whose learners
are all away is closed, and kept.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..engine.cards import N_, CapitalLuxError
from ..engine.game import Game, GameRecord
from ..engine.notation import Action, parse_action
from ..engine.rules import draft_picks, gold_options
from ..engine.state import DRAFT, GOLD, GameState
from ..engine.views import LogItem, PlayerView, public_log, view
from ..players.bots import RuleOfThumbBot, parse_bot
from .storage import Cursor, Row, Storage, _first, _int, _now, _str, _str_or_none

#: Letters of a table's code: no 0/O, 1/I/L, to be read aloud across a classroom.
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 5
#: Seconds a learner may be away before the rule-of-thumb bot plays for them (the default).
AWAY_SECONDS = 120
#: The tutor's aids a table may allow at every seat (never the undo: the others have seen the move).
AIDS = ("risk", "hint", "compare", "review")
#: The teacher's setting (the class database's ``settings``) naming, as a JSON list, the aids the
#: lesson allows at its tables; a table's opener chooses among them. None stored: every aid.
AIDS_SETTING = "table_aids"
#: Seconds between two notes that a seat's page is still there (a write; a poll is a read).
SEEN_EVERY = 5.0
#: Seconds between two reads of a table's move number by a page (``tutor.tables_app``). With
#: ``bench tables`` (8 tables of 4 learners) the others see a move within 0.39 s (p90) at 0.4 s,
#: and 0.75 s at 0.8 s: too near the 1 s target for a loaded machine.
POLL_SECONDS = 0.4
#: A process keeps each table's rebuilt game (``Tables._live``) while it is read; one not read
#: for this many seconds is let go (a finished game sooner), and at most ``LIVE_MOST`` are kept,
#: the least recently read let go first. Letting one go costs only a replay of its stored moves
#: the next time it is read.
LIVE_IDLE_SECONDS = 600.0
LIVE_OVER_SECONDS = 60.0
LIVE_MOST = 32
#: The bot that plays for a learner who is away.
STAND_IN = "rule"
MADE_BY = ("learner", "bot", "stand-in")


class TableRefusal(CapitalLuxError):
    """A table act refused; the message says why, in the reader's language, and nothing changed."""


@dataclass(frozen=True)
class Seat:
    seat: int
    learner: str | None
    name: str | None
    bot: str | None
    seen: float | None

    @property
    def free(self) -> bool:
        return self.learner is None and self.bot is None


@dataclass(frozen=True)
class TableInfo:
    """A table as its list and the teacher's view show it (nothing hidden in it)."""

    id: int
    code: str
    seats: tuple[Seat, ...]
    opened_by: str
    opened: str
    started: str | None
    closed: str | None
    closed_why: str | None
    away_seconds: int
    aids: tuple[str, ...]
    hotseat: bool
    moves: int

    @property
    def open(self) -> bool:
        return self.started is None and self.closed is None

    def seat_of(self, learner: str) -> int | None:
        for s in self.seats:
            if s.learner == learner:
                return s.seat
        return None


@dataclass(frozen=True)
class Frame:
    """All that one seat's page is sent: the seat's own view of the game, the story as
    that seat may read it, and the table's public facts. Nothing of another seat's hand,
    picks or face-down modifiers, nor the deck's order, is in it."""

    table: int
    #: the table's number when read: every decision stored, seat taken or closing moves it on
    moves: int
    seat: int
    view: PlayerView
    log: tuple[LogItem, ...]
    #: this seat's decisions stored and not yet reached by the game (a pick made early)
    waiting: tuple[Action, ...]
    #: what this seat may decide now (its legal actions, or an early pick's options)
    choices: tuple[Action, ...]
    #: the seat's turn number: a decision is sent with it, and refused if it is stale
    turn: int
    names: tuple[str, ...]
    #: the moves the rule-of-thumb bot made for a learner away: ``(number, seat)``
    stand_ins: tuple[tuple[int, int], ...]
    over: bool
    scores: tuple[int, ...] | None
    closed: bool


@dataclass
class _Live:
    """A table's game as rebuilt from its stored moves (one per table and process)."""

    game: Game
    number: int = 0  # the last stored move read
    queues: list[deque[Action]] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)  # decisions stored per seat
    stand_ins: list[tuple[int, int]] = field(default_factory=list)  # (number, seat)
    read: float = 0.0  # when this process last read it (``Tables.clock``)


def new_code(taken: Callable[[str], bool]) -> str:
    while True:
        code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
        if not taken(code):
            return code


def early_choices(state: GameState, seat: int) -> list[Action]:
    """What ``seat`` may decide now though the engine has not asked it yet: a draft pick
    from the cards it holds (its place in this step still to come), or its gold choice."""
    if state.current == seat or state.is_terminal():
        return []
    if state.phase == DRAFT:
        order = (seat - state.starting_player) % state.players
        if order > (state.current - state.starting_player) % state.players and state.draft_hands[seat]:
            return list(draft_picks(state.draft_hands[seat]))
    if state.phase == GOLD and seat in state.gold_queue and state.gold_choices[seat] is None:
        return list(gold_options(state, seat))
    return []


class Tables:
    """The class's tables, kept in the class database ``storage``; ``clock`` gives seconds
    since the epoch (the tests move it)."""

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        self._live: dict[int, _Live] = {}
        self._lock = threading.RLock()
        self._said_seen: dict[tuple[int, str], float] = {}

    # -- plumbing ---------------------------------------------------------------------------------
    def _run(self, cursor: Cursor, statement: str, params: tuple[object, ...] = ()) -> Cursor:
        return self.storage._run(cursor, statement, params)  # type: ignore[arg-type]

    def _lock_row(self, cursor: Cursor, table: int) -> Row:
        """The table's row, locked until the transaction ends (SQLite's BEGIN IMMEDIATE locks all)."""
        suffix = " FOR UPDATE" if self.storage.dialect == "postgresql" else ""
        row = self._run(cursor, "SELECT seats, seed, started, closed, moves, away_seconds FROM game_tables "
                                "WHERE id = ?" + suffix, (table,)).fetchone()
        if row is None:
            raise TableRefusal(N_("There is no such table."))
        return row

    # -- opening, joining, the lists --------------------------------------------------------------
    def open(self, opened_by: str, seats: int, bots: Sequence[str | None] = (), away_seconds: int = AWAY_SECONDS,
             aids: Sequence[str] | None = None, seed: int | None = None, hotseat: bool = False) -> TableInfo:
        """A new table of ``seats`` seats; ``bots[i]`` names the bot of seat ``i`` (None: a learner's
        seat); ``aids``: the tutor's aids at its seats, among those the lesson allows (None: all of
        those). The table starts when every learner's seat is taken."""
        if seats not in (2, 3, 4):
            raise TableRefusal(N_("A table has 2, 3 or 4 seats."))
        bots = list(bots) + [None] * (seats - len(bots))
        if len(bots) != seats:
            raise TableRefusal(N_("A table has 2, 3 or 4 seats."))
        for spec in bots:
            if spec is not None:
                parse_bot(spec)  # refuses an unknown bot, saying which kinds there are
        if all(spec is not None for spec in bots):
            raise TableRefusal(N_("A table needs at least one learner's seat."))
        if not 10 <= away_seconds <= 3600:
            raise TableRefusal(N_("The time a seat may be away must be between 10 seconds and an hour."))
        allowed = self.lesson_aids()
        aids = allowed if aids is None else tuple(aids)
        unknown = [aid for aid in aids if aid not in AIDS]
        if unknown:
            raise TableRefusal(N_("Unknown tutor aid: {aid}."), aid=unknown[0])
        if any(aid not in allowed for aid in aids):
            raise TableRefusal(N_("Your teacher does not allow some of these aids at this lesson's tables."))
        seed = secrets.randbelow(2**62) if seed is None else seed
        with self.storage._transaction() as cursor:
            code = new_code(lambda c: self._run(cursor, "SELECT 1 FROM game_tables WHERE code = ?",
                                                (c,)).fetchone() is not None)
            self._run(cursor, "INSERT INTO game_tables (code, seats, seed, opened_by, opened, away_seconds, aids, "
                              "hotseat) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                      (code, seats, seed, opened_by, _now(), away_seconds, json.dumps(list(aids)), int(hotseat)))
            table = _int(_first(self._run(cursor, "SELECT id FROM game_tables WHERE code = ?", (code,)).fetchone()))
            for seat, spec in enumerate(bots):
                self._run(cursor, "INSERT INTO table_seats (table_id, seat, bot) VALUES (?, ?, ?)",
                          (table, seat, spec))
        return self.info(table)

    def lesson_aids(self) -> tuple[str, ...]:
        """The aids the teacher allows at the lesson's tables (every aid until the teacher says)."""
        try:
            chosen = json.loads(self.storage.setting(AIDS_SETTING, json.dumps(list(AIDS))))
        except ValueError:
            chosen = list(AIDS)
        return tuple(aid for aid in AIDS if isinstance(chosen, list) and aid in chosen)

    def set_lesson_aids(self, aids: Sequence[str]) -> None:
        """The teacher allows ``aids`` at the lesson's tables: tables opened from now on choose among
        them, and a page sitting at any table shows no other (``tutor.tables_app``)."""
        unknown = [aid for aid in aids if aid not in AIDS]
        if unknown:
            raise TableRefusal(N_("Unknown tutor aid: {aid}."), aid=unknown[0])
        self.storage.set_setting(AIDS_SETTING, json.dumps([aid for aid in AIDS if aid in aids]))

    def join(self, code: str, learner: str, name: str, seat: int | None = None) -> tuple[TableInfo, int]:
        """Seat ``learner`` at the table with ``code`` (the first free seat, or ``seat``); a learner
        already seated there gets their seat back (a reload, another computer)."""
        if not learner:
            raise TableRefusal(N_("Join the class with your name and code before you sit at a table."))
        with self.storage._transaction() as cursor:
            row = self._run(cursor, "SELECT id FROM game_tables WHERE code = ?",
                            (code.strip().upper(),)).fetchone()
            if row is None:
                raise TableRefusal(N_("No table has the code {code}."), code=code.strip())
            table = _int(row[0])
            seats_n, _, started, closed, _, _ = self._lock_row(cursor, table)
            seats = self._seats(cursor, table)
            mine = [s for s in seats if s.learner == learner]
            if mine:
                self._run(cursor, "UPDATE table_seats SET seen = ? WHERE table_id = ? AND seat = ?",
                          (self.clock(), table, mine[0].seat))
                taken = mine[0].seat
            else:
                if closed is not None:
                    raise TableRefusal(N_("This table is closed."))
                if started is not None:
                    raise TableRefusal(N_("This game has started: only its players can sit at it."))
                free = [s.seat for s in seats if s.free and (seat is None or s.seat == seat)]
                if not free:
                    raise TableRefusal(N_("This table has no free seat."))
                taken = free[0]
                self._run(cursor, "UPDATE table_seats SET learner = ?, name = ?, seen = ? "
                                  "WHERE table_id = ? AND seat = ?", (learner, name, self.clock(), table, taken))
                # the table's number moves on: the pages waiting at it redraw its seats (and its start)
                self._run(cursor, "UPDATE game_tables SET moves = moves + 1 WHERE id = ?", (table,))
                if all(not s.free for s in seats if s.seat != taken):
                    self._run(cursor, "UPDATE game_tables SET started = ? WHERE id = ?", (_now(), table))
        self.advance(table)
        return self.info(table), taken

    def leave(self, table: int, learner: str) -> None:
        """A learner leaves a table that has not started: their seat is free again."""
        with self.storage._transaction() as cursor:
            self._lock_row(cursor, table)
            self._run(cursor, "UPDATE table_seats SET learner = NULL, name = NULL, seen = NULL "
                              "WHERE table_id = ? AND learner = ? AND table_id IN "
                              "(SELECT id FROM game_tables WHERE started IS NULL)", (table, learner))
            self._run(cursor, "UPDATE game_tables SET moves = moves + 1 WHERE id = ?", (table,))

    def close(self, table: int, why: str = "teacher") -> None:
        """Close a table (the teacher, or all its learners gone); it is kept, with its moves."""
        with self.storage._transaction() as cursor:
            self._lock_row(cursor, table)
            self._run(cursor, "UPDATE game_tables SET closed = ?, closed_why = ?, moves = moves + 1 "
                              "WHERE id = ? AND closed IS NULL", (_now(), why, table))

    def _seats(self, cursor: Cursor, table: int) -> list[Seat]:
        rows = self._run(cursor, "SELECT seat, learner, name, bot, seen FROM table_seats WHERE table_id = ? "
                                 "ORDER BY seat", (table,)).fetchall()
        return [Seat(_int(r[0]), _str_or_none(r[1]), _str_or_none(r[2]), _str_or_none(r[3]),
                     None if r[4] is None else float(r[4])) for r in rows]  # type: ignore[arg-type]

    def _infos(self, where: str, params: tuple[object, ...]) -> list[TableInfo]:
        with self.storage._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT id, code, opened_by, opened, started, closed, closed_why, "
                                     "away_seconds, aids, hotseat, moves FROM game_tables " + where +
                             " ORDER BY id", params).fetchall()
            return [TableInfo(_int(r[0]), _str(r[1]), tuple(self._seats(cursor, _int(r[0]))), _str(r[2]),
                              _str(r[3]), _str_or_none(r[4]), _str_or_none(r[5]), _str_or_none(r[6]), _int(r[7]),
                              tuple(json.loads(_str(r[8]))), bool(r[9]), _int(r[10])) for r in rows]

    def info(self, table: int) -> TableInfo:
        found = self._infos("WHERE id = ?", (table,))
        if not found:
            raise TableRefusal(N_("There is no such table."))
        return found[0]

    def open_tables(self) -> list[TableInfo]:
        """Tables waiting for players, oldest first (the list a learner joins from)."""
        return self._infos("WHERE started IS NULL AND closed IS NULL", ())

    def all_tables(self) -> list[TableInfo]:
        """Every table, open, playing, finished or closed (the teacher's view)."""
        return self._infos("", ())

    def tables_of(self, learner: str) -> list[TableInfo]:
        """The tables ``learner`` sits at, still running (a reload finds its seat again)."""
        return [i for i in self._infos("WHERE closed IS NULL AND id IN (SELECT table_id FROM table_seats "
                                       "WHERE learner = ?)", (learner,))]

    # -- the game -----------------------------------------------------------------------------------
    def moves(self, table: int) -> int:
        """The table's move number: what a page polls (one small read) to learn of a move."""
        with self.storage._transaction(write=False) as cursor:
            row = self._run(cursor, "SELECT moves FROM game_tables WHERE id = ?", (table,)).fetchone()
        if row is None:
            raise TableRefusal(N_("There is no such table."))
        return _int(row[0])

    def _sync(self, cursor: Cursor, table: int) -> _Live:
        """This process's copy of the table's game, brought up to the stored moves."""
        live = self._live.get(table)
        if live is None:
            row = self._run(cursor, "SELECT seats, seed FROM game_tables WHERE id = ?", (table,)).fetchone()
            if row is None:
                raise TableRefusal(N_("There is no such table."))
            players = _int(row[0])
            live = _Live(Game(players, _int(row[1])), 0, [deque() for _ in range(players)], [0] * players)
        rows = self._run(cursor, "SELECT number, seat, action, made_by FROM table_moves WHERE table_id = ? "
                                 "AND number > ? ORDER BY number", (table, live.number)).fetchall()
        for number, seat, action, made_by in rows:
            s = _int(seat)
            live.queues[s].append(parse_action(_str(action)))
            live.turns[s] += 1
            live.number = _int(number)
            if made_by == "stand-in":
                live.stand_ins.append((live.number, s))
        state = live.game.state
        while not state.is_terminal() and live.queues[state.current]:
            live.game.play(live.queues[state.current].popleft())
            state = live.game.state
        live.read = self.clock()
        self._live[table] = live
        self._let_go(keep=table)
        return live

    def _let_go(self, keep: int) -> None:
        """Forget the rebuilt games this process has not read for a while (a finished one sooner),
        and the least recently read past ``LIVE_MOST``; never ``keep``, the one being read."""
        now = self.clock()
        for table, live in list(self._live.items()):
            idle = now - live.read
            if table != keep and (idle > LIVE_IDLE_SECONDS or
                                  (idle > LIVE_OVER_SECONDS and live.game.state.is_terminal())):
                del self._live[table]
        if len(self._live) > LIVE_MOST:
            for table in sorted((t for t in self._live if t != keep), key=lambda t: self._live[t].read)[
                    : len(self._live) - LIVE_MOST]:
                del self._live[table]
        for key in [k for k in self._said_seen if k[0] not in self._live]:
            del self._said_seen[key]

    def kept(self) -> int:
        """How many rebuilt games this process keeps now."""
        return len(self._live)

    def _store(self, table: int, seat: int, action: Action, turn: int, made_by: str, learner: str | None) -> int:
        """Store one decision of ``seat``, after every check, in one transaction that holds the table."""
        with self._lock, self.storage._transaction() as cursor:
            _, _, started, closed, moves, _ = self._lock_row(cursor, table)
            if closed is not None:
                raise TableRefusal(N_("This table is closed."))
            if started is None:
                raise TableRefusal(N_("The game has not started: every seat must be taken first."))
            seats = self._seats(cursor, table)
            if not 0 <= seat < len(seats):
                raise TableRefusal(N_("There is no such seat at this table."))
            if made_by == "learner" and (learner is None or seats[seat].learner != learner):
                raise TableRefusal(N_("This seat is not yours: only its player decides for it."))
            live = self._sync(cursor, table)
            if turn != live.turns[seat]:
                raise TableRefusal(N_("This move was already made, or the table has moved on: "
                                      "look at the table as it stands now."))
            state = live.game.state
            if state.is_terminal():
                raise TableRefusal(N_("The game is over."))
            if state.current == seat:
                allowed = list(state.legal_actions()) if not live.queues[seat] else []
            else:
                allowed = early_choices(state, seat) if not live.queues[seat] else []
            if action not in allowed:
                if not allowed:
                    raise TableRefusal(N_("It is not your turn to decide."))
                raise TableRefusal(N_("{action} is not a legal move now."), action=str(action))
            number = _int(moves) + 1
            self._run(cursor, "INSERT INTO table_moves (table_id, number, seat, turn, action, made_by, at) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?)", (table, number, seat, turn, str(action), made_by, _now()))
            self._run(cursor, "UPDATE game_tables SET moves = ? WHERE id = ?", (number, table))
            if made_by == "learner":
                self._run(cursor, "UPDATE table_seats SET seen = ? WHERE table_id = ? AND seat = ?",
                          (self.clock(), table, seat))
        return number

    def play(self, table: int, seat: int, learner: str, action: Action | str, turn: int) -> int:
        """``learner`` decides ``action`` for their ``seat``, as the page showed it at the seat's
        ``turn``; the bots (and stand-ins for learners away) then play until a learner must decide.
        Returns the move's number."""
        if isinstance(action, str):
            action = parse_action(action)
        number = self._store(table, seat, action, turn, "learner", learner)
        self.advance(table)
        return number

    def advance(self, table: int) -> int:
        """Let the bots play, and the stand-in for a learner away, until a present learner must
        decide; close the table if its learners are all away. Any page may call it (a poll that
        sees the table wait calls it): what one process stores, another refuses as stale.
        Returns the moves made."""
        made = 0
        while True:
            with self._lock, self.storage._transaction(write=False) as cursor:
                row = self._run(cursor, "SELECT started, closed, away_seconds, seed FROM game_tables WHERE id = ?",
                                (table,)).fetchone()
                if row is None or row[0] is None or row[1] is not None:
                    return made
                seats = self._seats(cursor, table)
                live = self._sync(cursor, table)
                state = live.game.state.clone()
                turns = list(live.turns)
            if state.is_terminal():
                return made
            now, away = self.clock(), _int(row[2])
            humans = [s for s in seats if s.learner is not None]
            if humans and all(s.seen is None or now - s.seen > away for s in humans):
                self.close(table, "away")
                return made
            seat = seats[state.current]
            if seat.bot is not None:
                bot, made_by = parse_bot(seat.bot), "bot"
            elif seat.seen is None or now - seat.seen > away:
                bot, made_by = RuleOfThumbBot(), "stand-in"
            else:
                return made
            rng = random.Random(f"{_int(row[3])}/{turns[state.current]}/{state.current}")
            action = bot.choose(view(state, state.current), rng)
            try:
                self._store(table, state.current, action, turns[state.current], made_by, None)
            except TableRefusal:
                pass  # another page played it first: look again
            made += 1

    def sweep(self) -> None:
        """Every running table moved on as its pages' polls would: a table whose learners have all
        left has no page polling it, so the teacher's view and the tables' list call this."""
        for info in self._infos("WHERE started IS NOT NULL AND closed IS NULL", ()):
            self.advance(info.id)

    def poll(self, table: int, learner: str, known: int, here: bool = True) -> int:
        """One poll of a seated page that last drew move number ``known``: the table's move number.
        While it has not changed, the page lets the bots, and the stand-in for a learner away, play
        (any page may: what one stores, another refuses), and with ``here`` also says its learner is
        there (a page whose browser ticks says so with each tick instead: ``tutor.tables_app``)."""
        number = self.moves(table)
        if number != known:
            return number
        if here:
            self.seen(table, learner)
        self.advance(table)
        return self.moves(table)

    def seen(self, table: int, learner: str) -> None:
        """The learner's page is there (sent with its polls; written at most every ``SEEN_EVERY`` s)."""
        now = self.clock()
        if now - self._said_seen.get((table, learner), -SEEN_EVERY) < SEEN_EVERY:
            return
        with self.storage._transaction() as cursor:
            self._run(cursor, "UPDATE table_seats SET seen = ? WHERE table_id = ? AND learner = ?",
                      (now, table, learner))
        self._said_seen[(table, learner)] = now

    def frame(self, table: int, seat: int, learner: str | None) -> Frame:
        """What the page of ``learner`` at ``seat`` is sent: refused for anyone else's seat."""
        info = self.info(table)
        if not 0 <= seat < len(info.seats):
            raise TableRefusal(N_("There is no such seat at this table."))
        if info.seats[seat].learner is None or info.seats[seat].learner != learner:
            raise TableRefusal(N_("This seat is not yours: only its player decides for it."))
        with self._lock, self.storage._transaction(write=False) as cursor:
            number = _int(_first(self._run(cursor, "SELECT moves FROM game_tables WHERE id = ?", (table,)).fetchone()))
            live = self._sync(cursor, table)
            state = live.game.state
            waiting = tuple(live.queues[seat])
            v = view(state, seat)
            choices = () if waiting or info.started is None else (
                v.legal_actions if state.current == seat else tuple(early_choices(state, seat)))
            return Frame(table, max(number, live.number), seat, v, tuple(public_log(state, seat)), waiting, choices,
                         live.turns[seat], tuple(s.name or s.bot or "" for s in info.seats),
                         tuple(live.stand_ins), state.is_terminal(),
                         tuple(state.scores()) if state.is_terminal() else None, info.closed is not None)

    def state(self, table: int) -> GameState:
        """The whole table as the stored moves make it: for the server's own work (a page's kernel
        telling its seat's log, the teacher's view), never sent to a learner as it is."""
        with self._lock, self.storage._transaction(write=False) as cursor:
            return self._sync(cursor, table).game.state.clone()

    def record(self, table: int) -> GameRecord:
        """The record of a finished game, as ``capital-lux review`` reads it (with its seed: the
        game is over, nothing is hidden any more). Refused while the game runs."""
        with self._lock, self.storage._transaction(write=False) as cursor:
            live = self._sync(cursor, table)
            if not live.game.state.is_terminal():
                raise TableRefusal(N_("The game is not over: its record is kept until it ends."))
            return live.game.record()

    def who_made(self, table: int) -> list[tuple[int, int, str, str]]:
        """Every stored decision's (number, seat, made_by, action): the teacher's view, once over."""
        with self.storage._transaction(write=False) as cursor:
            rows = self._run(cursor, "SELECT number, seat, made_by, action FROM table_moves WHERE table_id = ? "
                                     "ORDER BY number", (table,)).fetchall()
        return [(_int(r[0]), _int(r[1]), _str(r[2]), _str(r[3])) for r in rows]


