"""Learners playing each other: the class tables' page, and pass-and-play on one screen.

**Class tables.** The learner joins the class (``LearnerPanel``: their class list entry and
personal code), then opens a table (2 to 4 seats, a bot or a learner at each) or joins one
with its code or from the list of open tables. Each seat is drawn by the free-play game
panel (``GamePanel``) over a ``TableSeat``: the game rebuilt from the class database
(``lessons.tables``), told from that seat only. The tutor's aids are the table's: the risk
lines, the hint and "compare my moves" where the table allows them; no undo (the others
have seen the move). After the game, the seat's own review.

**How a page learns of a move: a measured poll.** Every ``POLL_SECONDS`` the page reads the
table's move number (one row, one column, no lock: SQLite's WAL readers wait for no
writer), and only when it changed does it read the moves and redraw. The poll runs in the
learner's kernel, on the server: nothing extra reaches the browser until something changed.
Why not a push: SQLite, the default class database, has none; PostgreSQL's LISTEN/NOTIFY
would need a connection held open per page and a second code path; and the poll's cost is
measured (``bench tables``: 32 learners polling at once, the time until the others see a
move). At ``POLL_SECONDS`` = 0.4 s that time's p90 is 0.39 s; at 0.8 s it was 0.75 s, too near
the 1 s target for a loaded machine, so a slower poll was not taken; a page whose learner has nothing to decide polls at the same
pace, since the game moves on without them (bots, a stand-in).

**Pass-and-play (hotseat).** ``HotseatApp``: 2 to 4 learners share one screen; between two
seats' decisions a cover hides everything ("Pass to Player 2"), and nothing of the next
hand is drawn until they click.
"""

from __future__ import annotations

import base64
import dataclasses
import os
import threading
import time
from html import escape
from typing import Callable, Collection

import ipywidgets as W

from ..engine.cards import N_, CapitalLuxError
from ..engine.game import Game, GameRecord
from ..engine.notation import Action
from ..engine.position import dumps_record
from ..engine.state import GameState, new_game
from ..engine.views import PlayerView
from ..i18n import Translator
from ..i18n.sentences import player_name
from ..lessons.storage import Storage, StorageError, StorageMisconfigured, open_or_why
from ..lessons.tables import AIDS, AWAY_SECONDS, POLL_SECONDS, TableInfo, TableRefusal, Tables
from .base import Page, page_root, tagged
from .classroom import LearnerPanel
from .panel import GamePanel
from .reviewpanel import ReviewPanel
from .session import GameSeat, Narrator, PlacementMemory, bot_kind_label, new_seed

#: The page's pulse: once seated, the browser ticks a hidden ``Play`` widget every ``PULSE_MS``
#: (its timer runs in the browser: ipywidgets' own, no script of ours). Each tick says the learner's
#: page is there (``Tables.seen``): a closed page stops ticking, so its seat goes away after the
#: table's time even while its kernel lives on (a closed laptop, a lost network).
PULSE_MS = 2000
#: Seconds without a tick after which the page is taken as closed and its poll thread ends. Chromium
#: runs a hidden tab's timers as rarely as once a minute, so well past that; a tick after it (a tab
#: woken) starts the poll again.
GONE_SECONDS = 150.0
#: The environment variable that sets the pages' poll, in seconds, from 0.05 to 5 (``POLL_SECONDS``
#: when unset): a faster pace where a few tables share a machine, and for the browser tests, whose
#: waits are the poll's.
POLL_SECONDS_VARIABLE = "CAPITAL_LUX_TABLES_POLL"
#: What a seat may be given before the start: a learner, or one of the bots.
SEAT_KINDS = ("learner", "random", "rule", "search")


#: Each aid as the opener's and the teacher's check boxes say it.
AID_LABELS = {
    "risk": N_("Risk lines under the hand"),
    "hint": N_("Hint"),
    "compare": N_("Compare my moves at the round end"),
    "review": N_("Review after the game"),
}


def withhold_aids(panel: GamePanel, aids: Collection[str]) -> None:
    """Take out of ``panel`` each aid not in ``aids``: its widgets leave the page and are closed,
    so nothing of it is left to unhide ("compare my moves" is part of the risk panel: it goes
    with it)."""
    gone: list[W.Widget] = []
    if panel.risk is not None and ("compare" not in aids or "risk" not in aids):
        gone += [panel.risk.compare_button, panel.risk.comparison.box]
    if panel.risk is not None and "risk" not in aids:
        gone += [panel.risk.box, panel.risk.lines]
        panel.risk = None
    if panel.hint is not None and "hint" not in aids:
        gone.append(panel.hint.box)
        panel.hint = None
    if not gone:
        return

    def prune(widget: W.Widget) -> None:
        children = getattr(widget, "children", None)
        if children:
            kept = tuple(c for c in children if all(c is not g for g in gone))
            if len(kept) != len(children):
                widget.children = kept
            for child in kept:
                prune(child)

    prune(panel.box)
    for widget in gone:
        close_widgets(widget)


def seat_kind_label(t: Translator, kind: str) -> str:
    return t.gettext("A learner") if kind == "learner" else bot_kind_label(t, kind)


@dataclasses.dataclass(frozen=True)
class FinishedGame:
    """What the review reads of a game: its record."""

    game_record: GameRecord

    def record(self) -> GameRecord:
        return self.game_record


class ToldSeat:
    """A seat told the game from its own chair, in the shape the game panel draws (a
    ``Session``'s): its log and round ends (``Narrator``) and where others' modifiers went down
    (``PlacementMemory``), from the whole game's state, which stays on the server."""

    def __init__(self, players: int, seat: int) -> None:
        self.seat = seat
        self.narrator = Narrator(seat, new_game(players))
        self.placements = PlacementMemory(seat)
        self._told = new_game(players)

    def catch_up(self, state: GameState) -> None:
        """Tell the seat what ``state`` played since it was last told."""
        for action in state.history[len(self._told.history):]:
            self.placements.note(self._told, self._told.current_player(), action)
            self._told.apply_action(action)
        self.narrator.tell(state, watch=False)

    @property
    def log(self) -> list:  # type: ignore[type-arg]
        return self.narrator.log

    @property
    def reports(self) -> list:  # type: ignore[type-arg]
        return self.narrator.reports

    def can_undo(self) -> bool:
        return False  # the other players have seen the move

    def undo(self) -> Action:
        raise TableRefusal(N_("At a table with other players, a move cannot be taken back."))

    def placement_views(self) -> dict[tuple[str, int], PlayerView]:
        return self.placements.views(self._told)


class TableSeat(ToldSeat):
    """One seat of a class table: the game as the class database holds it, told from this seat;
    decisions go to the database."""

    def __init__(self, tables: Tables, table: int, seat: int, learner: str) -> None:
        super().__init__(len(tables.info(table).seats), seat)
        self.tables, self.table, self.learner = tables, table, learner
        self.moves = -1
        self.refused: TableRefusal | None = None  # the last decision's refusal, if it was refused
        self._reading = threading.Lock()
        #: told of a decision the table refused (the page says why)
        self.on_refused: Callable[[TableRefusal], None] = lambda refusal: None
        self.frame = tables.frame(table, seat, learner)
        self.refresh(force=True)

    def refresh(self, force: bool = False) -> bool:
        """Read the table again; True if something changed. The page's poll thread and its clicks
        both read: one at a time, and a read older than the one shown is dropped (it would show a
        table already gone by, and a click on it would be refused as stale)."""
        with self._reading:
            frame = self.tables.frame(self.table, self.seat, self.learner)
            if frame.moves < self.moves or (not force and frame.moves == self.moves
                                            and frame.turn == self.frame.turn):
                return False
            self.catch_up(self.tables.state(self.table))
            self.frame, self.moves = frame, frame.moves
            return True

    # -- what the game panel reads ------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The whole table: the game panel reads it only once the game is over (its winners)."""
        return self._told

    def view(self) -> PlayerView:
        v, f = self.frame.view, self.frame
        if f.waiting or f.closed:
            return dataclasses.replace(v, legal_actions=())
        return dataclasses.replace(v, legal_actions=tuple(f.choices))

    def learner_to_move(self) -> bool:
        return bool(self.frame.choices) and not self.frame.waiting and not self.frame.closed

    def is_over(self) -> bool:
        return self.frame.over

    @property
    def game(self) -> FinishedGame:
        """The finished game's record, for the seat's own review (refused while the game runs)."""
        return FinishedGame(self.tables.record(self.table))

    def play(self, action: Action) -> None:
        """The seat's decision, as the page showed the table; a stale or repeated one is refused,
        the refusal goes to ``on_refused`` (the page says it, ``refused`` keeps it until the next
        decision stored) and the table is read again."""
        try:
            self.tables.play(self.table, self.seat, self.learner, action, self.frame.turn)
        except TableRefusal as refusal:
            self.refused = refusal
            self.refresh(force=True)
            self.on_refused(refusal)
            return
        self.refused = None
        self.refresh(force=True)


def player_label(seat: int) -> Callable[[Translator], str]:
    """The label "Player N" of ``seat`` (0-based), said in the page's language."""
    return lambda t: player_name(t, seat, None, bots=False)  # the one name of a seat, as every page says it


def seats_html(t: Translator, info: TableInfo, me: int | None) -> str:
    """Who sits where (a name, a bot, or a free seat), the viewer's seat marked in words."""
    rows = []
    for s in info.seats:
        if s.learner is not None:
            who = escape(s.name or "")
        elif s.bot is not None:
            who = escape(seat_kind_label(t, s.bot.split(":")[0]))
        else:
            who = escape(t.gettext("free seat"))
        mark = " " + escape(t.gettext("(you)")) if me == s.seat else ""
        rows.append("<li>{}</li>".format(t.gettext("{player}: {value}").format(
            player=escape(player_name(t, s.seat, None, bots=False)), value=who + mark)))
    return '<ul class="cl-seats">' + "".join(rows) + "</ul>"


class TablesApp(Page):
    """The class tables' page: join the class, open or join a table, play at it."""
    manual = "learner.html#playing-your-classmates"  # the part of the manual its help link opens

    def __init__(self, lang: str, storage: Storage | None, error: StorageError | None = None,
                 poll: bool = True) -> None:
        super().__init__(lang)
        label = self.labels
        self.storage = storage
        self.tables = Tables(storage) if storage is not None else None
        self.learner = LearnerPanel(self.t, storage)
        self.learner.on_name = self._joined_class
        self.message = tagged(W.HTML(), "cl-tables-message")
        self._notice: tuple[str, str, dict[str, object]] | None = None
        self._refusal: TableRefusal | None = None  # said until the next act
        # opening a table
        self.seat_count = label(tagged(W.Dropdown(options=[2, 3, 4], value=4, layout=W.Layout(width="auto")),
                                       "cl-tables-seats"), N_("Players"))
        self.seat_count.observe(self.heard(self._show_seat_kinds), names="value")
        self.seat_kinds = [label.choice(label(tagged(W.Dropdown(layout=W.Layout(width="auto")),
                                                     f"cl-tables-seat-{i}"), player_label(i)),
                                        lambda t: [(seat_kind_label(t, k), k) for k in SEAT_KINDS], "learner")
                           for i in range(1, 4)]
        self.away = label(tagged(W.BoundedIntText(value=AWAY_SECONDS, min=10, max=3600, layout=W.Layout(width="16em")),
                                 "cl-tables-away"), N_("Away after (seconds)"))
        self.aid_boxes = {aid: label(tagged(W.Checkbox(value=True, indent=False, layout=W.Layout(width="auto")),
                                            f"cl-tables-aid-{aid}"), AID_LABELS[aid]) for aid in AIDS}
        self.open_button = label(tagged(W.Button(button_style="success", layout=W.Layout(width="auto")),
                                        "cl-tables-open"), N_("Open a table"))
        self.open_button.on_click(lambda _: self._guard(self.open_table))
        # joining one
        self.code = label(tagged(W.Text(layout=W.Layout(width="14em")), "cl-tables-code"), N_("Table code"))
        self.join_button = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-tables-join"),
                                 N_("Join the table"))
        self.join_button.on_click(lambda _: self._guard(lambda: self.join_table(self.code.value)))
        self.open_list = tagged(W.Select(rows=5, layout=W.Layout(width="28em")), "cl-tables-list")
        self.join_listed = label(tagged(W.Button(layout=W.Layout(width="auto")), "cl-tables-join-listed"),
                                 N_("Join the table chosen"))
        self.join_listed.on_click(lambda _: self._guard(
            lambda: self.join_table(str(self.open_list.value or ""))))
        self.lobby_title = label(W.HTML(), lambda t: f"<h3>{escape(t.gettext('Play with your class'))}</h3>", "value")
        row = W.Layout(flex_flow="row wrap", align_items="center")
        self.lobby = tagged(W.VBox([
            self.lobby_title,
            W.HBox([self.seat_count, *self.seat_kinds, self.away, self.open_button], layout=row),
            W.HBox(list(self.aid_boxes.values()), layout=row),
            W.HBox([self.code, self.join_button], layout=row),
            W.HBox([self.open_list, self.join_listed], layout=row),
        ]), "cl-tables-lobby")
        # at a table
        self.table_text = tagged(W.HTML(), "cl-tables-table")
        self.seat: TableSeat | None = None
        self.panel: GamePanel | None = None
        self.aids: tuple[str, ...] = ()  # the aids at the seat: the table's, within the lesson's
        self.game_box = tagged(W.VBox([]), "cl-tables-game")
        self.review = ReviewPanel()  # the seat's own review, once the game is over
        self.review.bots = False  # the others are classmates
        self.title = self.own_header(lambda t: f"<h2>{escape(t.gettext('Class tables'))}</h2>")
        self.root = page_root("tables", [self.title, self.language], self.learner.box, self.message,
                              self.lobby, self.table_text, self.game_box)
        self.pulse = tagged(W.Play(value=0, min=0, max=2**31 - 1, step=1, interval=PULSE_MS, repeat=True,
                                   layout=W.Layout(display="none")), "cl-tables-pulse")
        self.pulse.observe(self._ticked, names="value")
        self.root.children += (self.pulse,)
        self.clock = time.monotonic
        self.ticked: float | None = None  # when the browser last ticked (None: not yet, or no browser)
        self._stop = threading.Event()
        self._poller: threading.Thread | None = None
        self.poll = poll
        self.poll_seconds = POLL_SECONDS
        setting = os.environ.get(POLL_SECONDS_VARIABLE, "").strip()
        if setting:
            try:
                self.poll_seconds = float(setting)
            except ValueError:
                self.poll_seconds = -1.0
            if not 0.05 <= self.poll_seconds <= 5:
                self.poll_seconds = POLL_SECONDS
                self._say(N_("The setting {variable}={value} is not a number of seconds from 0.05 to 5, so the "
                             "page looks for the others' moves at its usual pace."), error=True,
                          variable=POLL_SECONDS_VARIABLE, value=setting)
        if self.tables is None:
            self._say(N_("The class database cannot be used, so there are no class tables: {reason}"), error=True,
                      reason=(error.what if isinstance(error, StorageMisconfigured) else error) or "")
        self.relabel()
        self._show_seat_kinds()
        self.render()
        self.root.add_class("cl-ready")

    # -- the learner ---------------------------------------------------------------------------------
    @property
    def who(self) -> str | None:
        """The learner's class identity (their class list entry, or their row in an open lesson)."""
        if not self.learner.joined:
            return None
        return self.learner.person or self.learner.session

    def _joined_class(self) -> None:
        """Joined the class: a table they sit at (a reload, another computer) is theirs again."""
        if self.tables is None or self.who is None:
            return
        for info in self.tables.tables_of(self.who):
            seat = info.seat_of(self.who)
            if seat is not None:
                self._sit(info.id, seat)
                return
        self.render()
        self.pulse.playing = True  # the list of open tables follows the class from now on (``_ticked``)

    # -- acts ----------------------------------------------------------------------------------------
    def _need_learner(self) -> tuple[Tables, str]:
        if self.tables is None:
            raise TableRefusal(N_("There are no class tables without the class database."))
        if self.who is None:
            raise TableRefusal(N_("Join the class with your name and code before you sit at a table."))
        return self.tables, self.who

    def open_table(self) -> None:
        tables, who = self._need_learner()
        seats = int(self.seat_count.value)
        bots = [None] + [None if w.value == "learner" else str(w.value) for w in self.seat_kinds[: seats - 1]]
        allowed = tables.lesson_aids()
        aids = [aid for aid, box in self.aid_boxes.items() if box.value and aid in allowed]
        info = tables.open(who, seats, bots, away_seconds=int(self.away.value), aids=aids)
        _, seat = tables.join(info.code, who, self.learner.joined, seat=0)
        self._say(N_("Your table is open. Its code is {code}: your classmates join with it."), code=info.code)
        self._sit(info.id, seat)

    def join_table(self, code: str) -> None:
        tables, who = self._need_learner()
        if not code.strip():
            raise TableRefusal(N_("Type the table's code, or choose a table from the list."))
        info, seat = tables.join(code, who, self.learner.joined)
        self._say(None)
        self._sit(info.id, seat)

    def _sit(self, table: int, seat: int) -> None:
        assert self.tables is not None and self.who is not None
        self.seat = TableSeat(self.tables, table, seat, self.who)
        self.seat.on_refused = self._refused
        info = self.tables.info(table)
        allowed = self.tables.lesson_aids()  # the teacher's word now, over what the table was opened with
        self.aids = tuple(aid for aid in info.aids if aid in allowed)
        self.panel = GamePanel(self.t, self.seat, extras="hint" in self.aids or "risk" in self.aids)  # type: ignore
        self.panel.undoable = False  # never at a table of people: the others have seen the move
        self.panel.people = True
        withhold_aids(self.panel, self.aids)
        self.panel.on_move.append(lambda panel, action: self._moved())  # the seats' list, the review
        self.game_box.children = [self.panel.box] + ([self.review.box] if "review" in self.aids else [])
        self.render()
        self.pulse.playing = True  # the browser ticks from now on
        self._start_polling()

    def _moved(self) -> None:
        """After a decision at the seat: a refusal stays said, a stored decision clears the last one."""
        if self.seat is not None and self.seat.refused is None:
            self._refusal = None
        self.render()

    def _start_polling(self) -> None:
        if self.poll and self.seat is not None and not self.polling:
            self._poller = threading.Thread(target=self._poll_loop, daemon=True, name="table-poll")
            self._poller.start()

    @property
    def polling(self) -> bool:
        return self._poller is not None and self._poller.is_alive()

    def _ticked(self, change: dict[str, object]) -> None:
        """The browser's pulse: the learner's page is there (and a poll ended by a long silence, a
        tab asleep, starts again)."""
        self.ticked = self.clock()
        seat, tables, who = self.seat, self.tables, self.who
        if seat is not None and tables is not None and who is not None:
            self._guard(lambda: tables.seen(seat.table, who))
            self._start_polling()
        elif seat is None:
            self._guard(self._list_open_tables)  # a table opened since shows in the list

    def gone(self) -> bool:
        """The browser has ticked, and not for ``GONE_SECONDS``: the page was closed."""
        return self.ticked is not None and self.clock() - self.ticked > GONE_SECONDS

    def check(self) -> bool:
        """One poll: let bots and stand-ins play, redraw if the table moved; the learner is noted
        as there by the browser's ticks (by the poll itself while no tick was heard)."""
        if self.seat is None or self.tables is None or self.who is None:
            return False
        if self.tables.poll(self.seat.table, self.who, self.seat.moves, here=self.ticked is None) == self.seat.moves:
            return False
        changed = self.seat.refresh()
        if changed:
            self.render()
        return changed

    def _poll_loop(self) -> None:
        while not self._stop.wait(self.poll_seconds) and not self.gone():
            self._guard(self.check)

    def stop(self) -> None:
        self._stop.set()

    # -- drawing -------------------------------------------------------------------------------------
    def _say(self, msgid: str | None, error: bool = False, **params: object) -> None:
        self._refusal = None
        self._notice = None if msgid is None else ("cl-error" if error else "cl-note", msgid, params)
        self._show_notice()

    def _show_notice(self) -> None:
        if self._refusal is not None:
            self.message.value = f'<div class="cl-error">{escape(self.t.refusal(self._refusal))}</div>'
            return
        if self._notice is None:
            self.message.value = ""
            return
        css, msgid, params = self._notice
        params = {name: self.t.refusal(value) if isinstance(value, CapitalLuxError) else value  # the reader's language
                  for name, value in params.items()}
        self.message.value = f'<div class="{css}">{escape(self.t.gettext(msgid).format(**params))}</div>'

    def _guard(self, work: Callable[[], object]) -> None:
        def attempt() -> None:
            try:
                work()
            except TableRefusal as refusal:
                self._refused(refusal)

        self.guard(attempt, N_("Sorry, that did not work. The game is unchanged; please try again."),
                   lambda sorry: self._say(sorry, error=True))

    def _refused(self, refusal: TableRefusal) -> None:
        """Say why an act was refused, and keep saying it through redraws until the next act."""
        self._notice, self._refusal = None, refusal
        self._show_notice()

    def _show_seat_kinds(self) -> None:
        for i, widget in enumerate(self.seat_kinds):
            widget.layout.display = None if i + 1 < int(self.seat_count.value) else "none"

    def render(self) -> None:
        self._show_notice()
        t = self.t
        if self.seat is None:
            self._list_open_tables()
        seated = self.seat is not None
        self.lobby.layout.display = "none" if seated else None
        allowed = self.tables.lesson_aids() if self.tables is not None and not seated else AIDS
        for aid, box in self.aid_boxes.items():  # the opener chooses among the aids the lesson allows
            box.layout.display = None if aid in allowed else "none"
        if self.seat is not None and self.tables is not None:
            info = self.tables.info(self.seat.table)
            lines = [t.gettext("Table {code}").format(code=info.code)]
            if info.started is None:
                lines.append(t.gettext("Waiting for every seat to be taken."))
            if info.closed is not None:
                lines.append(t.gettext("This table is closed."))
            stood = sorted({seat for _, seat in self.seat.frame.stand_ins})
            for seat in stood:
                lines.append(t.gettext("Player {number} was away: the rule-of-thumb bot played for them.").format(
                    number=seat))
            self.table_text.value = ("<h3>" + escape(lines[0]) + "</h3>"
                                     + "".join(f'<div class="cl-note">{escape(x)}</div>' for x in lines[1:])
                                     + seats_html(t, info, self.seat.seat))
            if self.seat.frame.waiting:
                self._say(N_("Your pick is made. Waiting for the others' picks."))
            if self.panel is not None:
                self.panel.t = t
                self.panel.render()
                if "review" in self.aids:
                    self.review.show(t, self.seat)  # type: ignore[arg-type]  # a seat reads as a session

    def _list_open_tables(self) -> None:
        """The list of open tables, as the class database has it now; set only when it changed
        (setting it would drop the learner's choice in it)."""
        if self.tables is None:
            return
        listed = tuple((self._listed(self.t, info), info.code) for info in self.tables.open_tables())
        if listed != tuple(tuple(option) for option in self.open_list.options):
            self.open_list.options = listed

    @staticmethod
    def _listed(t: Translator, info: TableInfo) -> str:
        taken = sum(1 for s in info.seats if not s.free)
        return t.gettext("Table {code}: {taken} of {seats} seats taken").format(
            code=info.code, taken=taken, seats=len(info.seats))

    def set_language(self, language: str | Translator) -> None:
        super().set_language(language)
        self.learner.relabel(self.t)
        if self.panel is not None:
            self.panel.set_language(self.t)


class TablesOverview:
    """The teacher's view of the class's tables: who sits where, the round and the scores, each
    finished game's record (what ``capital-lux review`` reads); the teacher closes a table."""

    def __init__(self, t: Translator, tables: Tables | None) -> None:
        self.t, self.tables = t, tables
        self.title = W.HTML()
        self.html = tagged(W.HTML(), "cl-tables-overview")
        self.picker = tagged(W.Dropdown(layout=W.Layout(width="auto")), "cl-tables-close-pick")
        self.close_button = tagged(W.Button(layout=W.Layout(width="auto")), "cl-tables-close")
        self.close_button.on_click(lambda _: self.close())
        self.note = W.HTML()
        self.aids_title = W.HTML()
        self.aid_boxes = {aid: tagged(W.Checkbox(value=aid in (tables.lesson_aids() if tables else AIDS),
                                                 indent=False, layout=W.Layout(width="auto")),
                                      f"cl-tables-lesson-aid-{aid}") for aid in AIDS}
        for box in self.aid_boxes.values():
            box.observe(lambda _: self.allow(), names="value")
        self.aids_note = W.HTML()
        self.box = tagged(W.VBox([self.title, self.html, W.HBox([self.picker, self.close_button, self.note]),
                                  self.aids_title, W.HBox(list(self.aid_boxes.values()),
                                                          layout=W.Layout(flex_flow="row wrap")), self.aids_note]),
                          "cl-tables-teacher")

    def allow(self) -> None:
        """The teacher's choice of the aids at the lesson's tables, stored at once."""
        if self.tables is None:
            return
        self.tables.set_lesson_aids([aid for aid, box in self.aid_boxes.items() if box.value])
        self.aids_note.value = '<span class="cl-note">{}</span>'.format(escape(self.t.gettext(
            "Saved: tables opened from now on offer these aids, and a page sitting at any table shows no other "
            "from its next load.")))

    def close(self) -> None:
        if self.tables is not None and self.picker.value is not None:
            self.tables.close(int(self.picker.value))
            self.note.value = '<span class="cl-note">{}</span>'.format(escape(self.t.gettext("The table is closed.")))
            self.render(self.t)

    def render(self, t: Translator) -> None:
        self.t = t
        self.title.value = f"<h3>{escape(t.gettext('Class tables'))}</h3>"
        self.close_button.description = t.gettext("Close the table")
        self.aids_title.value = "<b>{}</b> {}".format(
            escape(t.gettext("The tutor's aids at the lesson's tables:")),
            escape(t.gettext("(the undo is never offered at a table of people)")))
        for aid, box in self.aid_boxes.items():
            box.description = t.gettext(AID_LABELS[aid])
        if self.tables is None:
            self.html.value = ""
            return
        rows, running = [], []
        self.tables.sweep()  # tables whose learners all left are closed, kept
        for info in self.tables.all_tables():
            state = self.tables.state(info.id) if info.started else None
            if info.closed is not None:
                status = t.gettext("closed")
            elif info.started is None:
                status = t.gettext("waiting for players")
            elif state is not None and state.is_terminal():
                status = t.gettext("over")
            else:
                status = t.gettext("round {number}").format(number=max(1, state.round if state else 1))
            if info.closed is None and (state is None or not state.is_terminal()):
                running.append((t.gettext("Table {code}").format(code=info.code), info.id))
            scores = ", ".join(str(x) for x in state.scores()) if state is not None else ""
            record = ""
            if state is not None and state.is_terminal():
                data = base64.b64encode(dumps_record(self.tables.record(info.id)).encode()).decode()
                record = (f'<a download="table_{info.code}.json" href="data:application/json;base64,{data}">'
                          f"{escape(t.gettext('Record'))}</a>")
            rows.append("<tr>" + "".join(f"<td>{x}</td>" for x in (
                escape(info.code), seats_html(t, info, None), escape(status), escape(scores), record)) + "</tr>")
        head = "".join(f"<th>{escape(t.gettext(x))}</th>" for x in (
            N_("Table code"), N_("Seats"), N_("Where the game is"), N_("Scores"), N_("Record")))
        self.html.value = f'<table class="cl-table"><tr>{head}</tr>{"".join(rows)}</table>' if rows else escape(
            t.gettext("No table has been opened yet."))
        self.picker.options = running
        self.close_button.disabled = not running


class HotseatSeat(ToldSeat, GameSeat):
    """One seat of a pass-and-play game: the shared game, told from this seat only (what it
    sees and whether it decides: ``GameSeat``'s, as a learner's session)."""

    def __init__(self, game: Game, seat: int) -> None:
        super().__init__(game.players, seat)
        self.game = game
        self.moves = 0
        self.catch_up(game.state)

    def play(self, action: Action) -> None:
        if not self.learner_to_move():
            raise TableRefusal(N_("It is not your turn to decide."))
        self.game.play(action)
        self.moves += 1
        self.catch_up(self.game.state)


def close_widgets(widget: W.Widget) -> None:
    """Close ``widget`` and everything in it: the browser forgets their values (a hand)."""
    for child in getattr(widget, "children", ()):
        close_widgets(child)
    widget.close()


class HotseatApp(Page):
    """Pass-and-play: 2 to 4 learners on one screen, each seat with the tutor's aids; between two
    seats' decisions a cover, and the next hand drawn only when its player asks."""
    manual = "learner.html#playing-your-classmates"  # the part of the manual its help link opens

    def __init__(self, lang: str, players: int = 2, seed: int | None = None) -> None:
        super().__init__(lang)
        label = self.labels
        self.players = label(tagged(W.Dropdown(options=[2, 3, 4], value=players, layout=W.Layout(width="auto")),
                                    "cl-hotseat-players"), N_("Players"))
        self.start_button = label(tagged(W.Button(button_style="success", layout=W.Layout(width="auto")),
                                         "cl-hotseat-start"), N_("New game"))
        self.start_button.on_click(lambda _: self.start())
        self.cover_text = tagged(W.HTML(), "cl-hotseat-cover-text")
        self.reveal_button = tagged(W.Button(button_style="primary", layout=W.Layout(width="auto")),
                                    "cl-hotseat-reveal")
        self.reveal_button.on_click(lambda _: self.reveal())
        self.cover = tagged(W.VBox([self.cover_text, self.reveal_button], layout=W.Layout(display="none")),
                            "cl-hotseat-cover")
        self.game_box = tagged(W.VBox([]), "cl-hotseat-game")
        self.title = self.own_header(lambda t: f"<h2>{escape(t.gettext('Pass and play'))}</h2>")
        intro = label(W.HTML(), lambda t: '<div class="cl-note">{}</div>'.format(escape(t.gettext(
            "Two to four players share this screen. After each decision the screen is covered: pass it to the "
            "player named, who uncovers their own hand."))), "value")
        self.root = page_root("hotseat", [self.title, self.language], intro,
                              W.HBox([self.players, self.start_button], layout=W.Layout(flex_flow="row wrap")),
                              self.cover, self.game_box)
        self.seats: list[HotseatSeat] = []
        self.panel: GamePanel | None = None
        self.shown: int | None = None  # the seat whose hand is on screen, None while covered
        self._seed = seed
        self.relabel()
        self.start()

    def start(self) -> None:
        seed = new_seed() if self._seed is None else self._seed
        self._seed = None
        game = Game(int(self.players.value), seed)
        self.seats = [HotseatSeat(game, seat) for seat in range(game.players)]
        self.cover_for(game.state.current_player())

    def cover_for(self, seat: int) -> None:
        """Hide everything, closing the last seat's widgets, and ask for ``seat``'s player."""
        if self.panel is not None:
            close_widgets(self.panel.box)
            self.panel = None
        self.game_box.children = []
        self.shown = None
        self._waiting = seat
        self.cover.layout.display = None
        self.render()

    def reveal(self) -> None:
        """The player named on the cover uncovers their own seat."""
        seat = self.seats[self._waiting]
        seat.catch_up(seat.game.state)
        self.panel = GamePanel(self.t, seat)  # type: ignore[arg-type]  # a seat reads as a session
        self.panel.people = True
        self.panel.undoable = False
        self.panel.on_move.append(lambda panel, action: self._moved())
        self.shown = seat.seat
        self.cover.layout.display = "none"
        self.game_box.children = [self.panel.box]
        self.render()

    def _moved(self) -> None:
        state = self.seats[0].game.state
        for seat in self.seats:
            seat.catch_up(state)
        if not state.is_terminal() and state.current_player() != self.shown:
            self.cover_for(state.current_player())

    def render(self) -> None:
        t = self.t
        if self.shown is None:
            number = self._waiting
            self.cover_text.value = '<div class="cl-note cl-cover"><b>{}</b><br>{}</div>'.format(
                escape(t.gettext("Pass to Player {number}").format(number=number)),
                escape(t.gettext("Nothing of the last hand is shown. Player {number}, click when only you can see "
                                 "the screen.").format(number=number)))
            self.reveal_button.description = t.gettext("I am Player {number}: show my hand").format(number=number)
        elif self.panel is not None:
            self.panel.set_language(t)


def build_hotseat(lang: str = "en", players: int = 2) -> W.VBox:
    """The pass-and-play page; ``root._hotseat`` is the app."""
    app = HotseatApp(lang, players)
    app.root._hotseat = app
    return app.root


def build_app(lang: str = "en", storage: Storage | None = None, poll: bool = True) -> W.VBox:
    """The class tables' page; ``root._tables`` is the app."""
    storage, error = open_or_why(storage)
    app = TablesApp(lang, storage, error, poll)
    app.root._tables = app
    return app.root
