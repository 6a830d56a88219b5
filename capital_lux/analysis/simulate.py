"""Many seeded games between bots, in parallel through any ``concurrent.futures.Executor``.

Game ``i`` of a run with seed ``s`` draws its cards from a generator of its own
(seeded with the text ``"capital-lux/s/i/chance"``), so a game's result does not
depend on which worker played it, nor on the games before it: the same seed gives
the same table with 1, 2 or 200 workers. Random seats choose with draws from that
same generator, as ``game.random_policy`` does (one generator a game, as in the
playout kernel's benchmark); the rule of thumb draws nothing; a search seat thinks
with a generator of its own (``".../seat{p}"``), so its thinking never moves the
cards. The setup and the first deal come before any decision, so a seed and game
number deal the same first hands whatever the line-up; after the first decision
the cards depend on what was played, and a random seat's choices on what the
other seats did.
Without an executor the games run in a process pool (or in this process when
``workers=1``); a Dask cluster works through ``client.get_executor()``.

>>> results = simulate(2, ["rule", "random"], games=4, seed=1, workers=1)
>>> len(results.rows), sorted({row.bot for row in results.rows})
(8, ['random', 'rule'])
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import csv
import os
import random
import signal
import tempfile
import threading
from dataclasses import dataclass, field, fields
from operator import attrgetter
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Iterator, Protocol, Sequence

from ..engine.errors import UsageError
from ..players.bots import as_policy, parse_bot
from ..players.bots import line_up as bots_line_up
from ..players.policies import make as kernel_policy
from .stats import wilson_interval
from ..engine import kernel
from ..engine.game import Policy, play_game
from ..engine.rules import ranks
from ..engine.state import GameState

if TYPE_CHECKING:
    from ..i18n import Translator


@dataclass(slots=True)
class PlayerResult:
    """One seat of one game (slotted: a million-game table holds millions of these).

    Not frozen: a frozen slotted dataclass sets each field through ``object.__setattr__``,
    1.6 µs a row against 0.2 µs, and building four frozen rows took a fifth of what
    ``simulate`` spent on a random 4-player game beyond playing it. Treat the rows as
    read-only all the same."""

    game: int
    seat: int
    bot: str
    score: int
    rank: int  # 1 for the winners
    win_share: float  # 1 for a sole win, 1/k for a win shared by k, else 0
    gold: int  # gold discs at the end
    cards_lost: int  # cards discarded for exceeding a limit
    points_lost: int  # their value
    gold_spent: int  # gold paid to keep cards
    bonus_cards: int
    bonus_points: int

    def __reduce__(self) -> tuple[type[PlayerResult], tuple[object, ...]]:
        # Rows cross from worker processes as their values: smaller and quicker than slots.
        return PlayerResult, row_values(self)


COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(PlayerResult))
#: A row's values in ``COLUMNS`` order, as ``dataclasses.astuple`` gives them but without its
#: deep copy (0.2 µs a row against 11 µs).
row_values: Callable[[PlayerResult], tuple[object, ...]] = attrgetter(*COLUMNS)


@dataclass(frozen=True)
class BotSummary:
    """The results of one bot (all the seats it held) over a run."""

    bot: str
    seats_played: int
    win_rate: float
    win_low: float  # 95% Wilson interval
    win_high: float
    mean_score: float
    mean_rank: float
    mean_cards_lost: float
    mean_bonus_points: float


@dataclass(slots=True)
class Tally:
    """Running sums for one bot, so a summary needs no table (a long run keeps only these)."""

    seats: int = 0
    wins: float = 0.0
    score: int = 0
    rank: int = 0
    cards_lost: int = 0
    bonus_points: int = 0

    def add(self, row: PlayerResult) -> None:
        self.seats += 1
        self.wins += row.win_share
        self.score += row.score
        self.rank += row.rank
        self.cards_lost += row.cards_lost
        self.bonus_points += row.bonus_points

    def summary(self, bot: str) -> BotSummary:
        n = self.seats
        low, high = wilson_interval(self.wins, n)
        per = (lambda total: total / n) if n else (lambda total: 0.0)
        return BotSummary(bot, n, per(self.wins), low, high, per(self.score), per(self.rank),
                          per(self.cards_lost), per(self.bonus_points))


@dataclass
class Results:
    """The table of a run: one row per game and seat, in game then seat order.

    ``rows`` is empty when the run was asked not to keep them (``keep_rows=False``, for
    runs too long to hold); the summary comes from running tallies either way.
    ``completed`` games were played; fewer than ``games`` when the run was interrupted.
    """

    players: int
    bots: list[str]
    games: int
    seed: int
    rows: list[PlayerResult]
    tallies: dict[str, Tally] = field(default_factory=dict)
    completed: int = 0
    interrupted: bool = False
    stop_signal: int | None = None  # signal.SIGINT or SIGTERM when one stopped the run

    def summary(self) -> list[BotSummary]:
        """Per bot, in line-up order: win rate with its 95% interval, means of the other columns."""
        return [self.tallies.get(bot, Tally()).summary(bot) for bot in dict.fromkeys(self.bots)]

    def write_csv(self, out: str | Path | IO[str]) -> None:
        """Every row as CSV with a header line (``COLUMNS``)."""
        if isinstance(out, (str, Path)):
            with open(out, "w", newline="", encoding="utf-8") as f:
                self.write_csv(f)
            return
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        writer.writerows(map(row_values, self.rows))

    def summary_table(self, t: Translator | None = None) -> str:
        """The summary as aligned text, for the terminal, in ``t``'s language (English by default)."""
        from ..i18n import format_number, format_range, format_percent, translator

        t = t or translator("en")
        share = format_percent(1 / self.players, t.lang)
        if self.interrupted:
            played = t.gettext("{done} of {games} games (interrupted)").format(done=self.completed, games=self.games)
        else:
            played = t.ngettext("{games} game", "{games} games", self.games).format(games=self.games)
        head = t.gettext("{played}, {players} players, seed {seed} (an equal share of wins is {share})").format(
            played=played, players=self.players, seed=self.seed, share=share)
        names = [t.gettext("bot"), t.gettext("seats"), t.gettext("win rate"), t.gettext("95% CI"),
                 t.gettext("score"), t.gettext("rank"), t.gettext("lost"), t.gettext("bonus")]
        widths = [max(24, len(names[0]))] + [max(w, len(n)) for w, n in zip((6, 9, 15, 6, 5, 5, 6), names[1:])]
        lines = [head, " ".join([names[0].ljust(widths[0])] + [n.rjust(w) for n, w in zip(names[1:], widths[1:])])]
        for s in self.summary():
            cells = [format_number(s.seats_played, t.lang), format_percent(s.win_rate, t.lang, 1),
                     format_range(s.win_low, s.win_high, t.lang, percent=True, digits=1), format_number(s.mean_score, t.lang, 1), format_number(s.mean_rank, t.lang, 2),
                     format_number(s.mean_cards_lost, t.lang, 1), format_number(s.mean_bonus_points, t.lang, 1)]
            lines.append(" ".join([s.bot.ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells, widths[1:])]))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary_table()

    def _repr_html_(self) -> str:
        from html import escape

        return f"<pre>{escape(self.summary_table())}</pre>"


# -- playing ------------------------------------------------------------------------------
def game_rng(seed: int, game: int, seat: int | None = None) -> random.Random:
    """The generator of a game's chance events (``seat=None``), which the seats that draw
    nothing of their own also decide with, or of one searching seat's thinking."""
    who = "chance" if seat is None else f"seat{seat}"
    return random.Random(f"capital-lux/{seed}/{game}/{who}")


#: Bots that draw for their own thinking (the search's sampled worlds and play-outs, as
#: many as its budget allows): each such seat thinks with a generator of its own, so its
#: thinking never moves the game's chance draws. Every other bot decides with the game's
#: chance generator, as ``game.random_policy`` does: a random seat's choices are draws from
#: it, and the rule of thumb draws nothing.
OWN_GENERATOR = frozenset({"search"})


def bot_kind(spec: str) -> str:
    """The kind of bot a spec names (``"search:iterations=50"`` is a ``"search"``)."""
    return spec.partition(":")[0].strip()


def play_one(players: int, bots: Sequence[str], seed: int, game: int) -> GameState:
    """Game number ``game`` of a run: the same arguments always give the same game."""
    ks = play_in_kernel(players, bots, seed, game)
    return play_in_engine(players, bots, seed, game) if ks is None else kernel.to_state(ks)


#: The bots the playout kernel plays with the same decisions (``players.policies``).
KERNEL_BOTS = frozenset({"random", "rule"})


def play_in_kernel(players: int, bots: Sequence[str], seed: int, game: int) -> kernel.KState | None:
    """The game played by the playout kernel, or None if a bot has no kernel policy (search).

    Its policies decide with the chance generator, as the bots do in ``play_in_engine``, and
    draw from it as they do, so the game is the one ``play_in_engine`` plays
    (``tests/test_simulate.py`` checks it)."""
    if not KERNEL_BOTS.issuperset(bots):
        return None
    chance = game_rng(seed, game)
    return kernel.play_game(players, [kernel_policy(spec, chance) for spec in bots], chance)


def play_in_engine(players: int, bots: Sequence[str], seed: int, game: int) -> GameState:
    """The game played by the engine, each bot deciding from its seat's view."""
    policies = [seat_policy(spec, game_rng(seed, game, seat) if bot_kind(spec) in OWN_GENERATOR else None)
                for seat, spec in enumerate(bots)]
    return play_game(players, policies, game_rng(seed, game))


def seat_policy(spec: str, seat_rng: random.Random | None = None) -> Policy:
    """The policy of a seat: with ``seat_rng`` it thinks with that generator, not the chance
    one that ``play_game`` hands every policy."""
    policy = as_policy(parse_bot(spec))
    if seat_rng is None:
        return policy
    return lambda state, _chance: policy(state, seat_rng)


def kernel_rows(ks: kernel.KState, bots: Sequence[str], game: int) -> list[PlayerResult]:
    """``result_rows`` of a game the kernel played (its tallies stand for the engine's log)."""
    scores, winners, rank = kernel.standings(ks)
    share = 1 / len(winners)
    value_of = kernel.VALUE_OF.__getitem__
    return [
        PlayerResult(
            game, p, bot, scores[p], rank[p], share if p in winners else 0.0, ks.gold[p],
            sum(ks.cards_lost[p]), sum(ks.points_lost[p]), sum(ks.gold_spent[p]), len(ks.bonus[p]),
            sum(map(value_of, ks.bonus[p])),
        )
        for p, bot in enumerate(bots)
    ]


def result_rows(state: GameState, bots: Sequence[str], game: int) -> list[PlayerResult]:
    scores, winners, rank = state.scores(), state.winners(), ranks(state)
    rows = []
    for p, bot in enumerate(bots):
        lost = [c for e in state.log if e.kind == "discard" and e.player == p for c in e.cards]
        spent = sum(e.amount for e in state.log if e.kind == "gold_spent" and e.player == p)
        rows.append(PlayerResult(
            game, p, bot, scores[p], rank[p], 1 / len(winners) if p in winners else 0.0, state.gold[p],
            len(lost), sum(c.value for c in lost), spent, len(state.bonus[p]), sum(c.value for c in state.bonus[p]),
        ))
    return rows


def play_games(players: int, bots: Sequence[str], seed: int, games: Sequence[int]) -> list[PlayerResult]:
    """Rows of the given games (a worker's share of a run)."""
    rows = []
    for g in games:
        ks = play_in_kernel(players, bots, seed, g)
        rows += result_rows(play_in_engine(players, bots, seed, g), bots, g) if ks is None else kernel_rows(ks, bots, g)
    return rows


def line_up(players: int, bots: Sequence[str]) -> list[str]:
    """One bot spec per seat: the last one given fills the remaining seats (``bots.line_up``)."""
    if players not in (2, 3, 4):
        raise UsageError(f"Capital Lux is for 2 to 4 players, not {players}")
    return bots_line_up(bots, players)


def chunks(games: int, size: int) -> Iterator[range]:
    for start in range(0, games, size):
        yield range(start, min(games, start + size))


def _worker_start() -> None:
    """Worker processes leave Ctrl-C and SIGTERM to the parent, which stops the run cleanly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class _StopRequest:
    """Ctrl-C or SIGTERM noted, not raised: the run stops between chunks, so a game is
    never half written, and a second signal during the clean-up cannot break it."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self._previous: dict[int, object] = {}

    def __enter__(self) -> _StopRequest:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._previous[sig] = signal.signal(sig, self._note)
        return self

    def _note(self, signum: int, _frame: object) -> None:
        if self.signal is None:
            self.signal = signum

    def __exit__(self, *_: object) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]


def _chunk_results(
    players: int, specs: list[str], seed: int, parts: Iterator[range],
    executor: concurrent.futures.Executor | None, n_workers: int, stop: _StopRequest,
) -> Iterator[tuple[int, range, list[PlayerResult]]]:
    """(chunk index, games, rows) as chunks finish, with a bounded number of chunks in flight;
    chunks are made as they are submitted, so a run of any length needs the same memory."""
    if executor is None and n_workers == 1:
        for i, part in enumerate(parts):
            rows: list[PlayerResult] = []
            for game in part:  # one game at a time here, so a stop is noticed soon
                if stop.signal is not None:
                    return
                rows += play_games(players, specs, seed, range(game, game + 1))
            yield i, part, rows
        return
    own = executor is None
    pool = executor or concurrent.futures.ProcessPoolExecutor(n_workers, initializer=_worker_start)
    in_flight: dict[concurrent.futures.Future[list[PlayerResult]], tuple[int, range]] = {}
    queue = enumerate(parts)
    try:
        while stop.signal is None:
            for i, part in queue:  # keep a few chunks per worker queued, not the whole run
                in_flight[pool.submit(play_games, players, specs, seed, part)] = (i, part)
                if len(in_flight) >= 4 * n_workers:
                    break
            if not in_flight:
                return
            # A timeout, so that a signal noted meanwhile is acted on within a fraction of a second.
            finished, _ = concurrent.futures.wait(in_flight, timeout=0.2,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
            for future in finished:
                i, part = in_flight.pop(future)
                yield i, part, future.result()
    finally:
        for future in in_flight:
            future.cancel()
        if own:
            _stop_pool(pool, stop.signal is not None)


def _stop_pool(pool: concurrent.futures.Executor, hurry: bool) -> None:
    """Shut the pool down and leave no worker behind; when stopped by a signal, the games
    still being played are abandoned (their rows would not be written anyway)."""
    found = getattr(pool, "_processes", None)  # a ProcessPoolExecutor's own workers
    processes = list(found.values()) if isinstance(found, dict) else []
    pool.shutdown(wait=not hurry, cancel_futures=True)
    if hurry:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join()
        pool.shutdown(wait=True)


class _Bar(Protocol):
    """What a run asks of its progress bar (tqdm's, or none)."""

    def update(self, n: int) -> None: ...


class _NoBar:
    """The bar of a run that shows none."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *_: object) -> None:
        pass

    def update(self, n: int) -> None:
        pass


def _progress_bar(games: int, show: bool) -> contextlib.AbstractContextManager[_Bar]:
    """tqdm's bar (text in a terminal, a widget in a notebook), imported only to be shown:
    the import takes 30 ms, as long as 200 random games."""
    if not show:
        return _NoBar()
    from tqdm.auto import tqdm

    bar: contextlib.AbstractContextManager[_Bar] = tqdm(total=games, unit="game", desc="simulating")
    return bar


@contextlib.contextmanager
def replaced_on_success(path: str | Path) -> Iterator[IO[str]]:
    """A text file written beside ``path`` and renamed over it when the block ends, so that
    a killed run leaves any earlier file as it was; on an error the new file is removed."""
    target = Path(path)
    handle = tempfile.NamedTemporaryFile("w", dir=target.parent, prefix=f".{target.name}.", suffix=".part",
                                         delete=False, newline="", encoding="utf-8")
    try:
        with handle:
            yield handle
    except BaseException:
        os.unlink(handle.name)
        raise
    os.replace(handle.name, target)


def simulate(
    players: int,
    bots: list[str],
    games: int,
    seed: int,
    executor: concurrent.futures.Executor | None = None,
    progress: bool = False,
    workers: int | None = None,
    chunk_size: int | None = None,
    out: str | Path | IO[str] | None = None,
    keep_rows: bool = True,
) -> Results:
    """Play ``games`` seeded games and return their ``Results``.

    ``bots`` names one bot per seat (``"rule"``, ``"random"``, ``"search:iterations=200"``; see
    ``bots.parse_bot``); the last one given fills the remaining seats. Games run on ``executor`` if given; otherwise on
    a process pool of ``workers`` processes (default: one per core; ``workers=1`` plays here).
    ``progress`` shows a bar: text in a terminal, a widget in a notebook.

    ``out`` receives the CSV rows as games finish, in game order; with ``keep_rows=False`` the
    rows are not kept in memory, so a run of any length needs the same memory. A file named
    by ``out`` is written beside it and renamed into place at the end. Ctrl-C or SIGTERM stops
    the run: the games finished so far up to the first unfinished one are written and counted
    (a prefix of the run, never with a hole), ``interrupted`` is set and ``stop_signal`` names
    the signal.
    """
    specs = line_up(players, bots)
    if games < 0:
        raise UsageError(f"the number of games cannot be negative ({games})")
    if workers is not None and workers < 1:
        raise UsageError(f"workers must be at least 1, not {workers}")
    n_workers = workers or os.cpu_count() or 1
    size = chunk_size or max(1, min(50, games // (n_workers * 8) or 1))
    results = Results(players, specs, games, seed, [], {bot: Tally() for bot in specs})
    waiting: dict[int, list[PlayerResult]] = {}  # finished chunks waiting for an earlier one
    next_chunk = 0
    with contextlib.ExitStack() as stack:
        if isinstance(out, (str, Path)):
            out = stack.enter_context(replaced_on_success(out))
        writer = csv.writer(out) if out is not None else None
        if writer:
            writer.writerow(COLUMNS)

        def record(rows: list[PlayerResult]) -> None:
            if keep_rows:
                results.rows.extend(rows)
            if writer:
                writer.writerows(map(row_values, rows))
            for row in rows:
                results.tallies[row.bot].add(row)
            results.completed += len(rows) // players

        stop = stack.enter_context(_StopRequest())
        with _progress_bar(games, progress) as bar:
            try:
                for i, part, rows in _chunk_results(players, specs, seed, chunks(games, size), executor,
                                                    n_workers, stop):
                    waiting[i] = rows
                    bar.update(len(part))
                    while next_chunk in waiting:
                        record(waiting.pop(next_chunk))
                        next_chunk += 1
            except KeyboardInterrupt:  # outside the main thread no handler notes the signal
                stop.signal = signal.SIGINT
            # Chunks that finished after one the interruption cut short are dropped: the file and
            # the figures are the run's first games, with no hole, so a longer run extends them.
            waiting.clear()
        if stop.signal is not None:
            results.interrupted, results.stop_signal = True, int(stop.signal)
    return results
