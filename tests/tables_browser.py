"""Class tables in real browsers: the helpers of ``test_tables_browser`` and the benchmark of a
whole game of four learners, each in a browser context of their own (``bench tables_browser``).

Every byte each browser receives (the page's HTML with its widgets' state, then every websocket
frame) is scanned for what its seat may not know: cards only other seats hold, of kinds the seat
has never seen (the game replayed decision by decision from the table's history), and face-down
modifier values it cannot know.
"""

from __future__ import annotations

import io
import os
import random
import re
import resource
import time
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, Collection

from capital_lux.cli.main import main as cli
from capital_lux.engine.cards import ALL_CARDS, COLOURS, KIND, ROLES, Card, format_modifier
from capital_lux.engine.game import resolve_chance
from capital_lux.engine.phases import GOLD
from capital_lux.engine.notation import Action, Pick, PlaceModifier, Play, SaveWithGold, TakeLowest, parse_action
from capital_lux.engine.position import dumps_record
from capital_lux.engine.state import GameState, new_game
from capital_lux.engine.views import view
from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE, add_to_roster
from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import Frame, Tables
import browser as B

READY = ".cl-tables.cl-ready"
NAMES = ["Ana", "Bea", "Caio", "Dora", "Eli", "Fia"]
#: Each name's personal code, once the class list is made (``enrol``).
CODES: dict[str, str] = {}
GAME = ".cl-tables-game "
#: What the pages showed when a click came to nothing (``Driver``).
STALLED: list[str] = []


def enrol(database: Path | str) -> None:
    with Storage(str(database)) as storage:
        CODES.update({name: code for _, name, code in add_to_roster(storage, NAMES)})


class Received:
    """Everything one browser was sent: the page's HTML (the widgets' state in it), then every
    websocket frame (Jupyter's v1 framing: JSON in UTF-8 after the offsets)."""

    def __init__(self, page: Any) -> None:
        self.parts: list[str] = []
        page.on("response", self._response)
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _response(self, response: Any) -> None:
        if "/voila/render/" in response.url:
            try:
                self.parts.append(response.text())
            except Exception:  # a response the page navigated away from has no body any more
                pass

    def _frame(self, payload: Any) -> None:
        self.parts.append(payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload))

    def take(self) -> str:
        text, self.parts = "\n".join(self.parts), []
        return text


def arrive(browser: Any, url: str) -> tuple[Any, Received]:
    """A learner's browser (a context of its own) asks for the tables' page; it loads on while
    the next one arrives, as a class's pages do (each page's kernel runs the notebook)."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    received = Received(page)
    page.goto(f"{url}voila/render/tables.ipynb", wait_until="commit", timeout=120_000)
    return page, received


def join(page: Any, name: str) -> None:
    """The learner on ``page`` (``arrive``) joins the class with her name and personal code."""
    page.wait_for_selector(READY, timeout=120_000)
    page.fill(".cl-learner-name input", name)
    page.fill(".cl-learner-code input", CODES[name])
    page.click(".cl-learner-join")
    page.wait_for_selector(f".cl-learner-note:has-text('{name}')", timeout=30_000)


def learner(browser: Any, url: str, name: str) -> tuple[Any, Received]:
    page, received = arrive(browser, url)
    join(page, name)
    return page, received


def wait(check: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the table did not move on"
        time.sleep(0.1)


def move_number(page: Any) -> str | None:
    found = page.query_selector(GAME + B.TABLE)
    return None if found is None else found.get_attribute("data-move")


def over(page: Any) -> bool:
    return page.query_selector(GAME + '.cl-scores[data-final="1"]') is not None


def kind(action: Action) -> str:
    """What a decision exercises: the draft, a card home, a card to the Capital (by colour: the
    Agent, the Scholar, the Cleric, the Merchant), the Agent's modifier, the Cleric's take, gold."""
    words = str(action).split()
    if words[0] == "capital":
        return f"capital {words[1][0]}"
    if words[0] == "save":
        return "save none" if words[1:] == ["none"] else "save"
    return words[0]


#: What a whole game's learners must have decided at least once (``Driver`` aims at it).
EVERY_KIND = {"pick", "home", "capital B", "capital G", "capital P", "place", "take", "save"}


def gold_ahead(game: Any, action: Action, used: Counter[str]) -> bool:
    """Whether ``game``, after ``action`` and then each decision of the kind made least, comes to
    a gold decision before its round ends (on copies: the game is left as it is)."""
    state, rng = game.state.clone(), random.Random()
    rng.setstate(game.rng.getstate())
    used, round_ = Counter(used), state.round
    while True:
        used[kind(action)] += 1
        state.apply_action(action)
        resolve_chance(state, rng)
        if state.phase == GOLD:
            return True
        if state.is_terminal() or state.round != round_:
            return False
        action = min(state.legal_actions(), key=lambda a: (used[kind(a)], str(a)))


class Driver:
    """Plays the learners' seats through their pages, led by the class database: it reads each
    seat's frame (what that seat's page is sent), waits until the page shows that move number
    (its ``data-move``), and clicks the decision it chose there: the kind of decision made least
    so far, so that a game goes through every kind (``EVERY_KIND``). No page is asked what it
    shows unless its seat has something to decide."""

    def __init__(self, tables: Tables, table: int, pages: list[Any], received: list[Received | None],
                 seen: Seen) -> None:
        self.tables, self.table, self.pages, self.received, self.seen = tables, table, pages, received, seen
        info = tables.info(table)
        self.learners = [s.learner for s in info.seats]
        self.used: Counter[str] = Counter()
        self.clicks: Counter[int] = Counter()  # decisions clicked, by seat
        self.clicked: dict[int, tuple[int, float, str]] = {}  # seat: (its turn clicked, when, what)
        self.checks = 0
        self._frames: dict[int, Any] = {}
        self._moves = -1

    def frames(self) -> dict[int, Any]:
        moves = self.tables.moves(self.table)
        if moves != self._moves:  # read again only when the table moved
            self._moves = moves
            self._frames = {seat: self.tables.frame(self.table, seat, who)
                            for seat, who in enumerate(self.learners) if who is not None}
            self.checks += scan_all(self.received, self.tables, self.table, self.seen)
        return self._frames

    def step(self, seats: Collection[int] | None = None) -> bool:
        """One decision at each seat (of ``seats``) whose page has caught up with a decision to
        make; True if any was clicked."""
        clicked = False
        for seat, frame in self.frames().items():
            page = self.pages[seat]
            if page is None or (seats is not None and seat not in seats):
                continue
            if not frame.choices or frame.waiting or frame.over or frame.closed:
                continue
            last = self.clicked.get(seat)
            if last is not None and last[0] == frame.turn and time.monotonic() - last[1] < 60:
                continue  # clicked, not stored yet
            if last is not None and last[0] == frame.turn:  # what was clicked, the page's move and message
                STALLED.append(f"seat {seat}: {last[2]} at move {frame.moves}, the page at {move_number(page)}: "
                               + page.inner_text(".cl-tables-message"))
                assert len(STALLED) < 5, STALLED
            if move_number(page) != str(frame.moves):
                continue  # the page has not drawn this move yet (or drew a later one: read again)
            action = self.decide(page, frame)
            self.clicks[seat] += 1
            self.clicked[seat] = (frame.turn, time.monotonic(), str(action))
            clicked = True
        return clicked

    def choose(self, frame: Frame) -> Action:
        """The kind of decision made least so far; until a gold decision has come, one from which
        the game, played on that way, reaches one this round (the test's copy of the game, its
        chance included, tells: the class database's game in this process)."""
        order: list[Action] = sorted(frame.choices, key=lambda a: (self.used[kind(a)], str(a)))
        game = self.tables._live[self.table].game  # brought up to this frame's move by ``frames``
        if not self.used["save"] + self.used["save none"] and game.state.current == frame.seat:
            for action in order:
                if gold_ahead(game, action, self.used):
                    return action
        return order[0]

    def decide(self, page: Any, frame: Frame) -> Action:
        """Clicks ``choose``'s decision on the page; returns it."""
        action = self.choose(frame)
        self.used[kind(action)] += 1
        if page.locator(GAME + ".cl-continue").is_visible():  # a round end read first
            page.click(GAME + ".cl-continue")
            page.wait_for_selector(GAME + ".cl-continue", state="hidden")
        v = frame.view
        if isinstance(action, Pick):
            chosen = page.eval_on_selector_all(GAME + ".cl-draft-card",
                                               "bs => bs.map(b => b.classList.contains('cl-selected'))")
            want, cards = set(), list(v.draft_hand)
            for card in action.cards:
                want.add(next(i for i, c in enumerate(cards) if c == card and i not in want))
            for i in sorted(i for i in range(len(cards)) if (i in want) != chosen[i]):
                page.locator(GAME + ".cl-draft-card").nth(i).click()
            page.click(GAME + ".cl-confirm-pick")  # waits until the kernel enables it
        elif isinstance(action, Play):
            page.locator(GAME + ".cl-hand-card").nth(list(v.hand).index(action.card)).click()
            page.click(GAME + (".cl-to-home" if action.to == "home" else ".cl-to-capital"))
        else:
            others: list[Action] = [a for a in frame.choices if isinstance(a, (PlaceModifier, TakeLowest, SaveWithGold))]
            page.locator(GAME + ".cl-choice").nth(others.index(action)).click()
        return action

    def play(self, until: Any, seats: Collection[int] | None = None, minutes: float = 8) -> None:
        """Decide at the learners' seats until ``until()`` holds."""
        deadline = time.monotonic() + minutes * 60
        while not until():
            assert time.monotonic() < deadline, "the game did not move on in time"
            if not self.step(seats):
                time.sleep(0.05)
        self.frames()


class Seen:
    """What each seat has ever seen of the cards (by kind): the game replayed decision by decision
    from the table's history, each seat's view read at every step (a card seen in the draft and
    passed on stays seen)."""

    def __init__(self, players: int) -> None:
        self.told = new_game(players)
        self.kinds: list[set[int]] = [set() for _ in range(players)]

    def catch_up(self, state: GameState) -> None:
        for action in state.history[len(self.told.history):]:
            self._note()
            self.told.apply_action(action)
        self._note()

    def _note(self) -> None:
        for seat, kinds in enumerate(self.kinds):
            v = view(self.told, seat)
            visible = list(v.hand) + list(v.draft_hand) + list(v.draft_picks) + list(v.discards)
            visible += [c for b in v.bonus for c in b]
            visible += [Card(c, x) for c in COLOURS for x in v.capital[c]]
            visible += [Card(c, x) for town in v.hometowns for c in COLOURS for x in town[c]]
            kinds |= {KIND[c] for c in visible}


def hidden_from(state: GameState, seat: int, seen: Seen) -> tuple[list[re.Pattern[str]], list[str]]:
    """What ``seat`` may not know now: patterns of cards held only by other seats (their hands,
    draft hands and picks), of kinds no copy of which the seat has ever seen; and face-down
    modifier values of others it cannot know (round 1, before any reveal, as the tutor's scan)."""
    v = view(state, seat)
    others = [p for p in range(state.players) if p != seat]
    hidden = [c for p in others for c in state.hands[p] + state.draft_hands[p] + state.draft_picks[p]]
    patterns = [re.compile(rf"{ROLES[ALL_CARDS[k].colour]}\s*(?:<b>)?{ALL_CARDS[k].value}\b|\b{ALL_CARDS[k]}\b")
                for k in {KIND[c] for c in hidden} - seen.kinds[seat]]
    mods: list[str] = []
    if not state.modifiers_revealed() and state.round == 1:
        known = {m.value for c in COLOURS for m in v.modifiers_above[c] if m.value is not None}
        if v.pending_modifier is not None:
            known.add(v.pending_modifier)
        down = {val for c in COLOURS for o, val in state.modifiers_above[c] if o != seat}
        mods = [format_modifier(x) for x in down - known]
    return patterns, mods


def scan(text: str, state: GameState, seat: int, seen: Seen) -> int:
    patterns, mods = hidden_from(state, seat, seen)
    for pattern in patterns:
        found = pattern.search(text)
        assert not found, f"seat {seat} was sent {found.group(0)}: {text[max(0, found.start() - 300):found.end() + 100]}"
    for value in mods:
        # "Bea: +4", ">+4<" as the table writes a modifier; not a colour's "limit: -1 + ?", the sum of
        # the Capital's cards and the modifiers this seat knows, which may happen to equal one it does not
        shown = re.compile(rf"(?:(?<!limit):\s*|>){re.escape(value)}(?![\d])")
        found = shown.search(text)
        assert not found, f"seat {seat} was sent the modifier {value}: {text[max(0, found.start() - 400):found.end() + 200]}"
    return len(patterns) + len(mods)


def scan_all(received: list[Received | None], tables: Tables, table: int, seen: Seen) -> int:
    """Each browser's bytes since the last scan, read against the table as it stands after them:
    the bytes first, then the state (a frame may arrive between the two reads; read the other way
    round, a round end's reveal could be read against the round before it)."""
    texts = [(seat, got.take()) for seat, got in enumerate(received) if got is not None]
    state = tables.state(table)
    seen.catch_up(state)
    return sum(scan(text, state, seat, seen) for seat, text in texts)


def review_reads(tables: Tables, table: int, seat: int, folder: Path) -> str:
    """``capital-lux review`` on the table's record, from ``seat``: what it prints."""
    path = folder / "table.json"
    path.write_text(dumps_record(tables.record(table)))
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli(["review", str(path), "--seat", str(seat), "--games", "2", "--horizon", "round"]) == 0
    return out.getvalue()




def open_table(page: Any, aids: tuple[str, ...] | None = None) -> str:
    """The learner on ``page`` opens a table as it is set on the page; its code."""
    if aids is not None:
        for aid in ("risk", "hint", "compare", "review"):
            if aid not in aids and page.locator(f".cl-tables-aid-{aid}").is_visible():  # offered: unchecked
                page.uncheck(f".cl-tables-aid-{aid} input")
    page.click(".cl-tables-open")
    page.wait_for_selector(".cl-tables-table:has-text('Table ')", timeout=30_000)
    found = re.search(r"Table (\w+)", page.inner_text(".cl-tables-table"))
    assert found is not None
    return found.group(1)


def sit(page: Any, code: str) -> None:
    page.fill(".cl-tables-code input", code)
    page.click(".cl-tables-join")
    page.wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)


TEACHER_KEY = "the teacher's key for the tables"
#: What a seat's page would show of each aid (the risk lines, the hint, "compare my moves").
AID_SELECTORS = {"risk": ".cl-risk", "hint": ".cl-hint", "compare": ".cl-risk-compare"}


def teacher_allows(browser: Any, url: str, database: str, aids: tuple[str, ...]) -> None:
    """The teacher, on the teacher's page, allows only ``aids`` at the lesson's tables."""
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(f"{url}voila/render/teacher.ipynb", timeout=120_000)
    page.wait_for_selector(".cl-teacher-page.cl-ready", timeout=90_000)
    page.fill(".cl-teacher-key input", TEACHER_KEY)
    page.click(".cl-teacher-unlock")
    page.wait_for_selector(".cl-tables-teacher .cl-tables-lesson-aid-risk input", timeout=60_000)
    for aid in ("risk", "hint", "compare", "review"):
        if aid not in aids:
            page.uncheck(f".cl-tables-lesson-aid-{aid} input")
    wait(lambda: Tables(Storage(database)).lesson_aids() == aids)  # the teacher's kernel stores it at the click
    page.context.close()


def whole_game(url: str, database: str, browser: Any, folder: Path) -> dict[str, float]:
    """Four learners, each in a browser context of their own, play a whole game at one table:

    - the teacher allows the risk lines and the review only; the opener's page offers no other,
      and she keeps only the review: no seat's page has the risk lines, the hint or the comparison;
    - two sit by the table's code, one from the list of open tables (her page was drawn before
      the table was opened: the list follows the class); each page draws exactly its own draft cards;
    - every decision clicked on the pages (the draft, the Agent, the Scholar, the Cleric, gold, three
      rounds: ``EVERY_KIND``); in round 2 Dora's page is closed without a goodbye (her kernel lives
      on), the rule-of-thumb bot plays her seat after the table's 10 s, the others' pages say so,
      and she comes back mid-round on a new page with her own code: her seat, the table as it
      stands, and she decides again;
    - every page ends on the same final scores; the record is read by ``capital-lux review``;
    - every byte each browser received is scanned for the other seats' hidden cards, picks and modifiers.

    Returns the game's figures."""
    teacher_allows(browser, url, database, ("risk", "review"))
    learners = [arrive(browser, url) for _ in NAMES[:4]]  # the four pages load at once
    for (page, _), name in zip(learners, NAMES):
        join(page, name)
    pages: list[Any] = [page for page, _ in learners]
    received: list[Received | None] = [got for _, got in learners]
    ana = pages[0]
    assert ana.locator(".cl-tables-aid-hint").is_hidden() and ana.locator(".cl-tables-aid-compare").is_hidden()
    assert ana.locator(".cl-tables-aid-risk").is_visible() and ana.locator(".cl-tables-aid-review").is_visible()
    ana.fill(".cl-tables-away input", "10")
    ana.locator(".cl-tables-away input").press("Tab")
    code = open_table(ana, aids=("review",))  # the opener keeps the review only: four kernels drawing little
    for page in pages[1:3]:
        sit(page, code)
    dora = pages[3]  # she joined the class before the table was opened: her list follows the class
    listed = dora.locator(f".cl-tables-list option:has-text('{code}')")
    listed.wait_for(state="attached", timeout=30_000)
    dora.select_option(".cl-tables-list select", label=listed.inner_text())
    dora.click(".cl-tables-join-listed")
    dora.wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)
    tables = Tables(Storage(database))
    table = next(t for t in tables.all_tables() if t.code == code)
    assert [s.name for s in table.seats] == NAMES[:4]  # each seat a class list entry, in joining order
    assert table.aids == ("review",) and table.away_seconds == 10
    for page in pages:  # the game started: every page draws its own draft cards, and no aid withheld
        page.wait_for_selector(GAME + ".cl-draft-card:visible", timeout=30_000)
        assert all(page.locator(GAME + css).count() == 0 for css in AID_SELECTORS.values())
    state = tables.state(table.id)
    for seat, page in enumerate(pages):
        wait(lambda: page.locator(GAME + ".cl-draft-card:visible").count() == len(state.draft_hands[seat]))
    seen = Seen(4)
    driver = Driver(tables, table.id, pages, received, seen)
    start, own = time.perf_counter(), time.process_time()
    driver.play(lambda: tables.state(table.id).round >= 2)
    # Dora's page is gone, without a goodbye to the server: her kernel lives on, her page ticks no more
    pages[3].context.close()
    pages[3] = received[3] = None
    driver.play(lambda: any(by == "stand-in" and seat == 3 for _, seat, by, _ in tables.who_made(table.id)))
    away = "Player 3 was away: the rule-of-thumb bot played for them."
    pages[0].wait_for_selector(f".cl-tables-table:has-text('{away}')", timeout=30_000)
    pages[3], received[3] = learner(browser, url, "Dora")  # back, on a new page, with her own code
    pages[3].wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)
    assert "Dora (you)" in pages[3].inner_text(".cl-tables-table")
    driver.play(lambda: tables.state(table.id).is_terminal())
    seconds, own_seconds = time.perf_counter() - start, time.process_time() - own
    for page in pages:
        page.wait_for_selector(GAME + '.cl-scores[data-final="1"]', timeout=30_000)
    final = tables.state(table.id)
    for page in pages:
        sheet = page.inner_text(GAME + ".cl-scores")
        assert all(str(x) in sheet for x in final.scores()), sheet
        assert page.locator(".cl-review-start").is_visible()  # each seat's own review, offered
    made = tables.who_made(table.id)
    stood = [n for n, seat, by, _ in made if by == "stand-in"]
    assert stood and all(seat == 3 for n, seat, by, _ in made if by != "learner")  # only Dora's seat, only away
    assert any(seat == 3 and by == "learner" and n > max(stood) for n, seat, by, _ in made)  # hers again
    assert EVERY_KIND <= {kind(parse_action(a)) for _, _, by, a in made if by == "learner"}, driver.used
    for seat in range(4):  # every decision clicked was stored, once: none refused, none lost, none doubled
        assert len([m for m in made if m[1] == seat and m[2] == "learner"]) == driver.clicks[seat], (seat, STALLED)
    assert driver.checks > 100
    assert review_reads(tables, table.id, 2, folder).strip()
    for page in pages:
        page.context.close()
    return {"decisions": float(len(made)), "checks": float(driver.checks), "game_wall_s": round(seconds, 1),
            "game_cpu_s_driving": round(own_seconds, 1), "clicks_that_came_to_nothing": float(len(STALLED))}


def figures() -> dict[str, float]:
    """``bench tables_browser``: the whole four-learner game (``whole_game``) on its own server
    and Chromium; wall time, and CPU time of this process and of everything it started (the
    server, its kernels, the browser), measured once they have all ended."""
    import tempfile

    from playwright.sync_api import sync_playwright

    wall, own = time.perf_counter(), time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    notebook, database_was, key_was = B.NOTEBOOK, os.environ.get("CAPITAL_LUX_DB"), os.environ.get(TEACHER_KEY_VARIABLE)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "class.sqlite3"
        enrol(database)
        B.NOTEBOOK, os.environ["CAPITAL_LUX_DB"], os.environ[TEACHER_KEY_VARIABLE] = "notebooks", str(database), TEACHER_KEY
        try:
            with B.voila_server() as url, sync_playwright() as p:
                browser = B.launch(p)
                try:
                    found = whole_game(url, str(database), browser, Path(folder))
                finally:
                    browser.close()
        finally:
            B.NOTEBOOK = notebook
            for variable, was in (("CAPITAL_LUX_DB", database_was), (TEACHER_KEY_VARIABLE, key_was)):
                if was is None:
                    os.environ.pop(variable, None)
                else:
                    os.environ[variable] = was
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found.update({
        "wall_s": round(time.perf_counter() - wall, 1),
        "cpu_s_this_process": round(time.process_time() - own, 1),
        "cpu_s_server_kernels_browser": round(after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime, 1),
    })
    return found
