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
import re
import resource
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

from capital_lux.cli.main import main as cli
from capital_lux.engine.cards import ALL_CARDS, COLOURS, KIND, ROLES, Card, format_modifier
from capital_lux.engine.position import dumps_record
from capital_lux.engine.state import GameState, new_game
from capital_lux.engine.views import view
from capital_lux.lessons.classroom import add_to_roster
from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import Tables
import browser as B

READY = ".cl-tables.cl-ready"
NAMES = ["Ana", "Bea", "Caio", "Dora", "Eli", "Fia"]
#: Each name's personal code, once the class list is made (``enrol``).
CODES: dict[str, str] = {}
GAME = ".cl-tables-game "
#: What the pages showed when a click came to nothing (``decide``).
STALLED: list[str] = []


def enrol(database: Path) -> None:
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


def learner(browser: Any, url: str, name: str, page: Any = None) -> tuple[Any, Received | None]:
    received = None
    if page is None:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        received = Received(page)
    page.goto(f"{url}voila/render/tables.ipynb", timeout=120_000)
    page.wait_for_selector(READY, timeout=90_000)
    page.fill(".cl-learner-name input", name)
    page.fill(".cl-learner-code input", CODES[name])
    page.click(".cl-learner-join")
    page.wait_for_selector(f".cl-learner-note:has-text('{name}')", timeout=30_000)
    return page, received


def pick(page: Any) -> None:
    """Click draft cards until the pick can be set aside, then set it aside."""
    cards = page.locator(".cl-draft-card:visible")
    for i in range(cards.count()):
        if page.locator(".cl-confirm-pick button:enabled, button.cl-confirm-pick:enabled").count():
            break
        cards.nth(i).click()
        time.sleep(0.2)
    page.locator(".cl-confirm-pick").first.click()


def wait(check: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the table did not move on"
        time.sleep(0.2)


def move_number(page: Any) -> str | None:
    found = page.query_selector(GAME + B.TABLE)
    return None if found is None else found.get_attribute("data-move")


def decide(page: Any, turn: int) -> bool:
    """One decision on ``page`` if it has one (a round end it pauses on is read first): the
    first cards of the draft, the first playable card alternately home and to the Capital, the
    first choice. False if the page has nothing to decide now."""
    if page.query_selector(GAME + ".cl-continue:visible"):
        page.click(GAME + ".cl-continue")
        page.wait_for_selector(GAME + ".cl-continue", state="hidden", timeout=60_000)
        return True
    before = move_number(page)
    draft = B.visible(page, GAME + ".cl-draft-card")
    confirm = B.visible(page, GAME + ".cl-confirm-pick")
    hand = [b for b in B.visible(page, GAME + ".cl-hand-card") if b.is_enabled()]
    choices = B.visible(page, GAME + ".cl-choice")
    try:
        if draft and confirm:
            need = int("".join(ch for ch in confirm[0].inner_text() if ch.isdigit()) or "2")
            chosen = [b for b in draft if "cl-selected" in (b.get_attribute("class") or "")]
            for b in chosen[need:]:  # the page keeps a choice across redraws: complete it, never undo it
                b.click(timeout=10_000)
            for b in [b for b in draft if b not in chosen][: max(0, need - len(chosen))]:
                b.click(timeout=10_000)
            confirm[0].click(timeout=10_000)
        elif hand:
            hand[0].click(timeout=10_000)
            target = GAME + (".cl-to-home" if turn % 2 == 0 else ".cl-to-capital")
            page.wait_for_selector(target + ":enabled", state="visible", timeout=10_000)
            page.click(target, timeout=10_000)
        elif choices:
            choices[0].click(timeout=10_000)
        else:
            return False
    except Exception:  # the table moved under the click (the page redrew): look again
        return True
    # the decision stored (the table's move number moves on) or refused (the page says why)
    try:
        page.wait_for_function(
            "([sel, before]) => { const t = document.querySelector(sel);"
            " return (t && t.dataset.move !== before) || document.querySelector('.cl-tutor .cl-error'); }",
            arg=[GAME + B.TABLE, before], timeout=60_000)
    except Exception:  # a click that came to nothing (the page redrew under it): kept for a look, then again
        STALLED.append(page.inner_text(".cl-tables-message") + " | " + page.inner_text(GAME + ".cl-controls"))
        page.screenshot(path=str(B.ROOT / "test-artifacts" / f"tables-stalled-{len(STALLED)}.png"), full_page=True)
        assert len(STALLED) < 5, STALLED
    said = page.query_selector(".cl-tutor .cl-error")
    if said is not None and said.is_visible():  # a refusal (a stale click) or a failure: kept to be reported
        STALLED.append("said: " + said.inner_text())
        assert "did not work" not in STALLED[-1], STALLED  # a click that failed on the server is a bug
    return True


def over(page: Any) -> bool:
    return page.query_selector(GAME + '.cl-scores[data-final="1"]') is not None


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


def scan(received: Received, state: GameState, seat: int, seen: Seen) -> int:
    text = received.take()
    patterns, mods = hidden_from(state, seat, seen)
    for pattern in patterns:
        found = pattern.search(text)
        assert not found, f"seat {seat} was sent {found.group(0)}: {text[max(0, found.start() - 300):found.end() + 100]}"
    for value in mods:
        shown = re.compile(rf"(?::\s*|>){re.escape(value)}(?![\d])")  # "Bea: +4", ">+4<" as the table writes it
        assert not shown.search(text), f"seat {seat} was sent the modifier {value}"
    return len(patterns) + len(mods)


def scan_all(received: list[Received | None], tables: Tables, table: int, seen: Seen) -> int:
    state = tables.state(table)
    seen.catch_up(state)
    return sum(scan(got, state, seat, seen) for seat, got in enumerate(received) if got is not None)


def play_to_the_end(pages: list[Any], received: list[Received | None], tables: Tables, table: int,
                    seen: Seen, minutes: float = 12) -> int:
    """Every page decides in turn until every page shows the final score sheet; each seat's
    received bytes are scanned against the table as it stands after each round of decisions
    (``seen``: the card kinds each seat has seen so far). Returns the number of checks made."""
    deadline, turn, checks = time.monotonic() + minutes * 60, 0, 0
    while not all(over(page) for page in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        moved = False
        for seat, page in enumerate(pages):
            if not over(page) and decide(page, turn):
                moved, turn = True, turn + 1
        checks += scan_all(received, tables, table, seen)
        if not moved:
            time.sleep(0.3)
    return checks


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
            if aid not in aids:
                page.uncheck(f".cl-tables-aid-{aid} input")
        time.sleep(0.5)  # the boxes reach the kernel before the click
    page.click(".cl-tables-open")
    page.wait_for_selector(".cl-tables-table:has-text('Table ')", timeout=30_000)
    found = re.search(r"Table (\w+)", page.inner_text(".cl-tables-table"))
    assert found is not None
    return found.group(1)


def sit(page: Any, code: str) -> None:
    page.fill(".cl-tables-code input", code)
    page.click(".cl-tables-join")
    page.wait_for_selector(f".cl-tables-table:has-text('{code}')", timeout=30_000)


def four_learners(url: str, database: Path, browser: Any, folder: Path) -> dict[str, float]:
    """Four learners, each in a browser context of their own, sit at one table by its code and
    play every decision to the end; every byte each browser received scanned for others' hidden
    cards, picks and modifiers; the same score sheet on every page and the record read by
    ``capital-lux review``. Returns the game's figures."""
    learners = [learner(browser, url, name) for name in NAMES[:4]]
    pages = [page for page, _ in learners]
    received = [got for _, got in learners]
    code = open_table(pages[0], aids=("review",))  # four kernels drawing the table only
    for page in pages[1:]:
        sit(page, code)
    tables = Tables(Storage(str(database)))
    table = next(t for t in tables.all_tables() if t.code == code)
    assert [s.name for s in table.seats] == NAMES[:4]
    seen = Seen(4)
    start = time.perf_counter()
    checks = play_to_the_end(pages, received, tables, table.id, seen)
    seconds = time.perf_counter() - start
    final = tables.state(table.id)
    made = tables.who_made(table.id)
    assert final.is_terminal() and {by for _, _, by, _ in made} == {"learner"}
    for page in pages:
        sheet = page.inner_text(GAME + ".cl-scores")
        assert all(str(x) in sheet for x in final.scores()), sheet
    assert review_reads(tables, table.id, 2, folder).strip()
    for page in pages:
        page.context.close()
    return {"decisions": float(len(made)), "checks": float(checks), "game_wall_s": round(seconds, 1),
            "clicks_that_came_to_nothing": float(len([x for x in STALLED if not x.startswith("said: ")])),
            "clicks_refused": float(len([x for x in STALLED if x.startswith("said: ")]))}


def figures() -> dict[str, float]:
    """``bench tables_browser``: the whole four-learner game (``four_learners``) on its own server
    and Chromium; wall time, and CPU time of this process and of everything it started (the
    server, its kernels, the browser), measured once they have all ended."""
    import tempfile

    from playwright.sync_api import sync_playwright

    wall, own = time.perf_counter(), time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    notebook, database_was = B.NOTEBOOK, os.environ.get("CAPITAL_LUX_DB")
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "class.sqlite3"
        enrol(database)
        B.NOTEBOOK, os.environ["CAPITAL_LUX_DB"] = "notebooks", str(database)
        try:
            with B.voila_server() as url, sync_playwright() as p:
                browser = B.launch(p)
                try:
                    found = four_learners(url, database, browser, Path(folder))
                finally:
                    browser.close()
        finally:
            B.NOTEBOOK = notebook
            if database_was is None:
                os.environ.pop("CAPITAL_LUX_DB", None)
            else:
                os.environ["CAPITAL_LUX_DB"] = database_was
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found.update({
        "wall_s": round(time.perf_counter() - wall, 1),
        "cpu_s_this_process": round(time.process_time() - own, 1),
        "cpu_s_server_kernels_browser": round(after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime, 1),
    })
    return found
