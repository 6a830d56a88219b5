"""Class tables (``lessons.tables``): four learners play a whole game through the class
database, each seat sees only its own, a move sent twice is stored once, away seats are
played by the rule-of-thumb bot, and the same on PostgreSQL."""

from __future__ import annotations

import dataclasses
import random
import threading
from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest

from capital_lux.engine.cards import Card
from capital_lux.engine.game import Game
from capital_lux.engine.notation import PlaceModifier, SaveWithGold, TakeLowest
from capital_lux.engine.position import dumps_record, loads_record
from capital_lux.engine.state import AGENT, DRAFT, GameState
from capital_lux.engine.views import view
from capital_lux.i18n import translator
from capital_lux.lessons.storage import Storage
from capital_lux.lessons.tables import Frame, TableRefusal, Tables

from test_storage import postgres  # noqa: F401  (the fixture: a throwaway PostgreSQL server)

LEARNERS = [("p-ada", "Ada"), ("p-bo", "Bo"), ("p-cy", "Cy"), ("p-di", "Di")]
#: A seed whose game, played by the learners' choices below, has every kind of decision.
SEED = 73_519_664_021


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _url(tmp_path: Path, kind: str, server: str | None = None) -> str:
    if kind == "sqlite":
        return str(tmp_path / "class.sqlite3")
    import psycopg

    assert server is not None
    name = f"tables_{random.randrange(10**9)}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return server.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return _url(tmp_path, "sqlite")
    return _url(tmp_path, "postgresql", request.getfixturevalue("postgres"))


def _seated(tables: Tables, seats: int = 4, bots: list[str | None] | None = None, seed: int = SEED) -> int:
    info = tables.open("teacher", seats, bots or [], seed=seed)
    for seat in info.seats:
        if seat.bot is None:
            tables.join(info.code, *LEARNERS[seat.seat], seat=seat.seat)
    return info.id


def _hidden_truth(state: GameState, viewer: int) -> tuple[Counter[Card], list[tuple[int, int]]]:
    """What ``viewer`` may not see: the cards only others hold, and others' face-down modifiers."""
    seen = Counter(list(state.hands[viewer]) + list(state.draft_hands[viewer]) + list(state.draft_picks[viewer]))
    v = view(state, viewer)
    visible = Counter(seen)
    for c, values in v.capital.items():
        visible.update(Card(c, x) for x in values)
    for town in v.hometowns:
        for c, values in town.items():
            visible.update(Card(c, x) for x in values)
    visible.update(v.discards)
    visible.update(card for b in v.bonus for card in b)
    others: Counter[Card] = Counter()
    for q in range(state.players):
        if q != viewer:
            others.update(list(state.hands[q]) + list(state.draft_hands[q]) + list(state.draft_picks[q]))
    hidden = Counter({card: n for card, n in others.items() if card not in visible})
    mods = [(o, x) for c in state.modifiers_above for o, x in state.modifiers_above[c]
            if o != viewer and not state.modifiers_revealed()]
    return hidden, mods


def _walk(value: object) -> Iterator[object]:
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name))
    elif isinstance(value, dict):
        for k, x in value.items():
            yield from _walk(k)
            yield from _walk(x)
    elif isinstance(value, (tuple, list)) and not isinstance(value, Card):
        for x in value:
            yield from _walk(x)


def scan(frame: Frame, state: GameState, seed: int) -> None:
    """Fail if ``frame``, sent to its seat, holds anything of another seat's hidden cards, picks,
    face-down modifiers or the deck's order (the state, the game's random generator or its seed)."""
    p = frame.seat
    for part in _walk(frame):
        assert not isinstance(part, (GameState, Game, random.Random)), "a frame carries the game itself"
    assert str(seed) not in repr(frame), "a frame carries the seed (the deck's order)"
    hidden, mods = _hidden_truth(state, p)
    sent = Counter(x for x in _walk((frame.view, frame.waiting, frame.choices)) if isinstance(x, Card))
    for card, n in hidden.items():
        assert sent[card] == 0, f"seat {p} is sent {card}, held only by another seat"
    for item in frame.log:
        if item.kind in ("pick", "save") and item.player != p and not frame.over:
            assert item.action is None, f"seat {p} reads seat {item.player}'s {item.kind}"
        if item.event is not None and item.event.private_to not in (-1, p):
            raise AssertionError(f"seat {p} reads a private event of seat {item.event.private_to}")
    for colour, slots in frame.view.modifiers_above.items():
        for slot in slots:
            if slot.owner != p and not frame.view.modifiers_revealed:
                assert slot.value is None, f"seat {p} sees seat {slot.owner}'s face-down modifier on {colour}"
    if mods and state.pending_modifier is not None and state.current != p:
        assert frame.view.pending_modifier is None


def play_whole_game(tables: Tables, table: int, order: list[int], frames: list[tuple[Frame, GameState]] | None = None,
                    choose_seed: int = 0) -> list[Frame]:
    """Each learner looks at their own frame and decides what it offers, in ``order`` (not the engine's)."""
    rng = random.Random(choose_seed)
    for _ in range(2000):
        acted = False
        for seat in order:
            learner = LEARNERS[seat][0]
            frame = tables.frame(table, seat, learner)
            if frames is not None:
                frames.append((frame, tables._live[table].game.state.clone()))
            if frame.over:
                continue
            if frame.choices:
                tables.play(table, seat, learner, rng.choice(frame.choices), frame.turn)
                acted = True
                if frames is not None:  # what the seat sees right after its decision
                    frames.append((tables.frame(table, seat, learner), tables._live[table].game.state.clone()))
        if not acted:
            break
    return [tables.frame(table, seat, LEARNERS[seat][0]) for seat in range(4)]


def test_four_learners_play_a_whole_game_and_each_seat_ends_with_the_same_scores_and_record(tmp_path: Path) -> None:
    storage = Storage(str(tmp_path / "class.sqlite3"))
    tables = Tables(storage)
    table = _seated(tables)
    frames: list[tuple[Frame, GameState]] = []
    # the draft is simultaneous: the last seat picks first, before the engine asks it
    first = tables.frame(table, 3, "p-di")
    assert first.view.phase == DRAFT and first.view.to_move != 3 and first.choices
    last = play_whole_game(tables, table, [3, 2, 1, 0], frames)
    assert all(f.over for f in last)
    assert len({f.scores for f in last}) == 1 and last[0].scores is not None
    record = tables.record(table)
    # another page's process rebuilds the same game from the database alone
    again = Tables(Storage(str(tmp_path / "class.sqlite3"))).record(table)
    assert again == record
    assert loads_record(dumps_record(record)) == record  # what ``capital-lux review`` reads
    final = record.replay()
    assert final.round == 3 and tuple(final.scores()) == last[0].scores
    kinds = {type(a) for a in record.actions}
    assert {PlaceModifier, TakeLowest, SaveWithGold} <= kinds, kinds
    assert any(e.kind == "scholar_draw" for e in final.log)
    # the learners' draft picks went in before the engine reached them, and were kept
    assert any(f.waiting for f, _ in frames)
    for frame, state in frames:
        scan(frame, state, SEED)


def test_the_scan_finds_a_leak_when_there_is_one(tmp_path: Path) -> None:
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")))
    table = _seated(tables)
    frame = tables.frame(table, 0, "p-ada")
    state = tables._live[table].game.state.clone()
    scan(frame, state, SEED)
    leaky = dataclasses.replace(frame, view=view(state, 1))  # another seat's view sent to seat 0
    with pytest.raises(AssertionError):
        scan(dataclasses.replace(leaky, seat=0), state, SEED)
    with pytest.raises(AssertionError):
        scan(dataclasses.replace(frame, names=(str(SEED),)), state, SEED)


def test_two_clicks_on_one_move_store_one_move_and_the_second_is_told_why(url: str) -> None:
    tables = Tables(Storage(url))
    table = _seated(tables)
    frame = tables.frame(table, 0, "p-ada")
    pick = frame.choices[0]
    before = tables.moves(table)
    tables.play(table, 0, "p-ada", pick, frame.turn)
    with pytest.raises(TableRefusal) as refused:
        tables.play(table, 0, "p-ada", pick, frame.turn)
    assert tables.moves(table) == before + 1
    assert "already made" in str(refused.value)
    assert translator("fr").refusal(refused.value) != str(refused.value)  # said in the learner's language


def test_a_move_sent_from_two_pages_at_once_is_stored_once(url: str) -> None:
    storage_a, storage_b = Storage(url), Storage(url)
    a, b = Tables(storage_a), Tables(storage_b)
    table = _seated(a)
    frame = a.frame(table, 0, "p-ada")
    results: list[str] = []
    go = threading.Barrier(2)

    def click(tables: Tables) -> None:
        go.wait()
        try:
            tables.play(table, 0, "p-ada", frame.choices[0], frame.turn)
            results.append("stored")
        except TableRefusal:
            results.append("refused")

    threads = [threading.Thread(target=click, args=(t,)) for t in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["refused", "stored"]
    assert [m for m in a.who_made(table) if m[1] == 0] == [(frame.moves + 1, 0, "learner", str(frame.choices[0]))]


def test_a_seat_decides_only_through_its_own_learner(tmp_path: Path) -> None:
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")))
    table = _seated(tables)
    frame = tables.frame(table, 0, "p-ada")
    before = tables.moves(table)
    with pytest.raises(TableRefusal, match="not yours"):
        tables.play(table, 0, "p-bo", frame.choices[0], frame.turn)
    with pytest.raises(TableRefusal, match="not yours"):
        tables.frame(table, 0, "p-bo")  # nor may another learner see it
    with pytest.raises(TableRefusal):
        tables.play(table, 0, "p-ada", "home B5", frame.turn)  # not a move of the draft
    assert tables.moves(table) == before


def test_a_reload_finds_the_seat_and_the_game_as_it_stands(tmp_path: Path) -> None:
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")))
    table = _seated(tables)
    late = (tables.frame(table, 0, "p-ada").view.to_move + 1) % 4  # a seat whose pick is made early
    learner, name = LEARNERS[late]
    frame = tables.frame(table, late, learner)
    tables.play(table, late, learner, frame.choices[0], frame.turn)
    code = tables.info(table).code
    info, seat = Tables(Storage(str(tmp_path / "class.sqlite3"))).join(code, learner, name)  # a new page
    assert seat == late and [t.id for t in tables.tables_of(learner)] == [table]
    again = tables.frame(table, late, learner)
    assert again.waiting == (frame.choices[0],) and again.turn == frame.turn + 1 and not again.choices
    with pytest.raises(TableRefusal, match="started"):
        tables.join(code, "p-eve", "Eve")


def test_bots_fill_their_seats_and_play_at_once(tmp_path: Path) -> None:
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")))
    info = tables.open("p-ada", 3, [None, "rule", "random"], seed=3)
    assert info.open
    tables.join(info.code, "p-ada", "Ada")
    assert not tables.info(info.id).open
    rng = random.Random(1)
    for _ in range(500):
        frame = tables.frame(info.id, 0, "p-ada")
        if frame.over:
            break
        assert frame.choices, "the learner is waited for only when they have something to decide"
        tables.play(info.id, 0, "p-ada", rng.choice(frame.choices), frame.turn)
    assert frame.over
    made = {(seat, by) for _, seat, by, _ in tables.who_made(info.id)}
    assert made == {(0, "learner"), (1, "bot"), (2, "bot")}


def test_a_seat_away_past_its_time_is_played_by_the_rule_bot_until_its_learner_returns(tmp_path: Path) -> None:
    clock = Clock()
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")), clock)
    info = tables.open("p-ada", 2, away_seconds=60, seed=4)
    tables.join(info.code, "p-ada", "Ada")
    tables.join(info.code, "p-bo", "Bo")
    clock.now += 30
    tables.seen(info.id, "p-ada")
    assert tables.advance(info.id) == 0  # Bo is not away yet: the game waits for him
    clock.now += 40  # Bo has been away 70 s, Ada 40 s
    for _ in range(6):  # Ada plays on; whenever it is Bo's turn, the stand-in plays for him
        tables.seen(info.id, "p-ada")
        tables.advance(info.id)
        frame = tables.frame(info.id, 0, "p-ada")
        if frame.choices:
            tables.play(info.id, 0, "p-ada", frame.choices[0], frame.turn)
        clock.now += 6
    frame = tables.frame(info.id, 0, "p-ada")
    assert frame.stand_ins and all(seat == 1 for _, seat in frame.stand_ins)
    assert {by for _, seat, by, _ in tables.who_made(info.id) if seat == 1} == {"stand-in"}
    # Bo comes back: the game waits for him again
    tables.join(info.code, "p-bo", "Bo")
    stood_in = len(frame.stand_ins)
    for _ in range(40):
        for seat, learner in ((0, "p-ada"), (1, "p-bo")):
            f = tables.frame(info.id, seat, learner)
            if f.choices:
                tables.play(info.id, seat, learner, f.choices[0], f.turn)
    assert len(tables.frame(info.id, 0, "p-ada").stand_ins) == stood_in
    assert "learner" in {by for _, seat, by, _ in tables.who_made(info.id) if seat == 1}


def test_a_table_whose_learners_all_leave_is_closed_and_kept(tmp_path: Path) -> None:
    clock = Clock()
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")), clock)
    table = _seated(tables, 2)
    frame = tables.frame(table, 0, "p-ada")
    tables.play(table, 0, "p-ada", frame.choices[0], frame.turn)
    clock.now += 10_000
    tables.sweep()  # no page polls it any more: the teacher's view sweeps the tables
    info = tables.info(table)
    assert info.closed is not None and info.closed_why == "away"
    assert tables.who_made(table)  # kept, with its moves
    with pytest.raises(TableRefusal, match="closed"):
        f = tables.frame(table, 1, "p-bo")
        tables.play(table, 1, "p-bo", f.choices[0] if f.choices else "pick B5", f.turn)


def test_the_teacher_closes_a_table(tmp_path: Path) -> None:
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")))
    table = _seated(tables, 2)
    tables.close(table)
    assert tables.info(table).closed_why == "teacher" and tables.frame(table, 0, "p-ada").closed
    assert table not in [t.id for t in tables.tables_of("p-ada")]


def test_bad_tables_are_refused_with_a_reason(tmp_path: Path) -> None:
    tables = Tables(Storage(str(tmp_path / "class.sqlite3")))
    for seats, bots in ((5, []), (2, ["rule", "rule"]), (2, ["chess"])):
        with pytest.raises(Exception) as refused:
            tables.open("t", seats, bots)
        assert str(refused.value)
    with pytest.raises(TableRefusal, match="code"):
        tables.join("ZZZZZ", "p-ada", "Ada")
    assert tables.all_tables() == []


def test_the_same_table_plays_to_the_end_on_postgresql(postgres: str, tmp_path: Path) -> None:  # noqa: F811
    url = _url(tmp_path, "postgresql", postgres)
    tables = Tables(Storage(url))
    table = _seated(tables)
    frames: list[tuple[Frame, GameState]] = []
    last = play_whole_game(tables, table, [0, 1, 2, 3], frames)
    assert all(f.over for f in last) and len({f.scores for f in last}) == 1
    assert Tables(Storage(url)).record(table) == tables.record(table)
    for frame, state in frames[::7]:
        scan(frame, state, SEED)
    assert any(f.view.phase == AGENT for f, _ in frames)
