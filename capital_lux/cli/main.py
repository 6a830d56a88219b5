"""The command line: ``python -m capital_lux SUBCOMMAND`` (also ``capital-lux``).

``play`` (a game in the terminal against bots), ``simulate`` (many seeded games,
a summary table and a CSV), ``replay RECORD.json`` (a recorded game, step by
step), ``review RECORD.json`` (every decision judged, ``--html`` for a page to hand
out) and ``bench`` (every benchmark's figures as JSON). Bad arguments print
the usage and exit with status 2.
"""

from __future__ import annotations

import argparse
import codecs
import io
import json
import os
import random
import signal
import sys
import tempfile
import unicodedata
from pathlib import Path
from typing import IO, Callable, Sequence

from . import bench
from . import capitol as capitol_cli
from ..analysis.review import DEFAULT_HORIZON as REVIEW_HORIZON, REVIEW_GAMES
from .localised import LocalisedParser, file_error, whole_number
from ..players.bots import RuleOfThumbBot, line_up, parse_bot
from ..engine.cards import COLOURS, SYMBOLS, Card, CapitalLuxError, format_modifier
from ..engine.game import Game, GameRecord
from ..i18n import LANGUAGES, Translator, default_language, format_number, format_percent, sentences, translator
from ..i18n.sentences import TERMINAL
from ..engine.notation import Action, parse_action

from ..engine.position import MAX_INPUT_BYTES, dumps_record, loads_record
from ..engine.rules import over_limit
from ..engine.state import GOLD, GameState, new_game
from ..engine.views import PlayerView, public_step, view

Say = Callable[[str], None]
def build_parser(t: Translator | None = None) -> argparse.ArgumentParser:
    """The command line's parser, its help in ``t``'s language (the environment's by default)."""
    t = t or translator(default_language())
    bot_help = t.gettext(
        "bot per seat, comma-separated: random, rule, search, search:iterations=N, search:seconds=S")
    lang_help = t.gettext("language: en, fr, es or pt (default: from the environment)")
    whole, positive = whole_number(t), whole_number(t, 1)
    # TRANSLATORS: placeholders in the command line's usage, written in capitals like these
    bots_, seat_, seed_, file_ = t.gettext("BOTS"), t.gettext("SEAT"), t.gettext("SEED"), t.gettext("FILE")
    parser = LocalisedParser(prog="capital-lux", translator=t, description=t.gettext(
        "Capital Lux: engine, players and tutor."))
    parser.add_argument("--lang", choices=LANGUAGES, default=None, dest="main_lang", help=lang_help)
    commands = parser.add_subparsers(dest="command", required=True, metavar=t.gettext("COMMAND"))

    p = commands.add_parser("play", translator=t, help=t.gettext("play a game in the terminal against bots"))
    p.add_argument("--players", type=whole, choices=(2, 3, 4), default=3,
                   help=t.gettext("players at the table (default 3)"))
    p.add_argument("--bots", default="rule", metavar=bots_, help=t.gettext(
        "the other seats' bots (default rule); {bots}").format(bots=bot_help))
    p.add_argument("--seat", type=whole, default=0, metavar=seat_,
                   help=t.gettext("your seat, 0 to players-1 (default 0)"))
    p.add_argument("--seed", type=whole, default=None, metavar=seed_,
                   help=t.gettext("seed of the shuffles (default: random)"))
    p.add_argument("--record", metavar=file_, help=t.gettext("write the game's record here as JSON at the end"))
    p.add_argument("--force", action="store_true", help=t.gettext("replace the record file if it already exists"))

    s = commands.add_parser("simulate", translator=t,
                            help=t.gettext("play many seeded games between bots and summarise them"))
    s.add_argument("--players", type=whole, choices=(2, 3, 4), default=4,
                   help=t.gettext("players per game (default 4)"))
    s.add_argument("--bots", default="rule,random", metavar=bots_, help=t.gettext(
        "{bots}; one name fills every seat, and if fewer than the players are given the last one fills "
        "the rest (default rule,random)").format(bots=bot_help))
    s.add_argument("--games", type=positive, default=1000, metavar=t.gettext("GAMES"),
                   help=t.gettext("how many games (default 1000)"))
    s.add_argument("--seed", type=whole, default=0, metavar=seed_, help=t.gettext("seed of the run (default 0)"))
    s.add_argument("--workers", type=positive, default=None, metavar=t.gettext("WORKERS"),
                   help=t.gettext("worker processes (default: one per core)"))
    s.add_argument("--dask", metavar=t.gettext("ADDRESS"),
                   help=t.gettext("run on a Dask cluster (scheduler address) instead"))
    s.add_argument("--out", metavar="CSV", help=t.gettext("write one row per game and seat to this CSV file"))
    s.add_argument("--force", action="store_true", help=t.gettext("replace the CSV file if it already exists"))
    s.add_argument("--no-progress", action="store_true", help=t.gettext("no progress bar"))

    r = commands.add_parser("replay", translator=t, help=t.gettext("step through a recorded game"))
    r.add_argument("record", metavar=t.gettext("RECORD.json"),
                   help=t.gettext("a record written by play --record or dumps_record"))
    r.add_argument("--pause", action="store_true", help=t.gettext("wait for Enter after each decision"))

    v = commands.add_parser("review", translator=t, help=t.gettext(
        "judge every decision of a recorded game from what its player could see"))
    v.add_argument("record", metavar=t.gettext("RECORD.json"),
                   help=t.gettext("a record written by play --record or dumps_record"))
    v.add_argument("--seat", type=whole, default=0, metavar=seat_,
                   help=t.gettext("the seat whose decisions are shown, 0 to players-1 (default 0)"))
    v.add_argument("--model", choices=("rule", "random"), default="rule", help=t.gettext(
        "how every player is assumed to play afterwards: rule (the rule of thumb, default) or random"))
    v.add_argument("--seed", type=whole, default=0, metavar=seed_, help=t.gettext(
        "seed of the simulated games (default 0): the same record and seed give the same review"))
    v.add_argument("--games", type=positive, default=None, metavar=t.gettext("GAMES"), help=t.gettext(
        "simulated games per move at most for each decision (default {games}): fewer is quicker and less sure").format(
            games=REVIEW_GAMES))
    v.add_argument("--horizon", choices=("game", "round"), default=REVIEW_HORIZON, help=t.gettext(
        "how far each move's effect is counted: round (to the end of its round, where the verdicts are surest, "
        "exact where they can be; default) or game (to the game's end, by the final margin over the best other "
        "player; slower, and fewer moves told apart)"))
    v.add_argument("--html", metavar="HTML", default=None,
                   help=t.gettext("also write the review as a page to hand out"))
    v.add_argument("--force", action="store_true", help=t.gettext("replace the HTML file if it already exists"))

    b = commands.add_parser("bench", translator=t, help=t.gettext("print every benchmark's figures as JSON"))
    b.add_argument("names", nargs="*", metavar=t.gettext("NAME"), help=t.gettext(
        "benchmarks to run (default all: {names})").format(names=", ".join(bench.BENCHMARKS)))
    w = commands.add_parser("worksheet", translator=t,
                            help=t.gettext("write the probability exercises as a printable page"))
    numbers = w.add_mutually_exclusive_group()
    numbers.add_argument("--seed", type=whole, default=None, metavar=seed_,
                         help=t.gettext("seed of the cards (default: the base positions)"))
    numbers.add_argument("--class-db", metavar=t.gettext("DATABASE"), default=None, help=t.gettext(
        "the class's numbers, as the teacher's page prints them: read with the server's key from this class "
        "database (a file or a postgresql:// address)"))
    w.add_argument("--out", metavar="HTML", required=True, help=t.gettext("the HTML file to write"))
    w.add_argument("--answers", action="store_true",
                   help=t.gettext("write the answer key, with worked solutions, instead"))
    capitol_cli.add_parser(commands, t, lang_help)
    for sub in (p, s, r, v, w):
        sub.add_argument("--lang", choices=LANGUAGES, default=None, help=lang_help)
    for sub in (p, s, r, v, b, w):
        sub.set_defaults(subcommand_parser=sub, t=t)  # errors show the subcommand's usage
    return parser


def language_of(argv: Sequence[str]) -> str:
    """``--lang X`` (or ``--lang=X``) anywhere on the line, else the environment's language."""
    for i, word in enumerate(argv):
        value = word.split("=", 1)[1] if word.startswith("--lang=") else argv[i + 1] if (
            word == "--lang" and i + 1 < len(argv)) else None
        if value in LANGUAGES:
            return value
    return default_language()


def bot_specs(text: str, seats: int) -> list[str]:
    """Split ``rule,random`` into one spec per seat; the last one fills the remaining seats."""
    return line_up(text, seats)


def checked_bot_specs(sub: argparse.ArgumentParser, text: str, seats: int, t: Translator) -> list[str]:
    """``bot_specs``, with a bad line-up reported as a usage error (exit status 2) in ``t``'s language."""
    try:
        return bot_specs(text, seats)
    except CapitalLuxError as e:
        sub.error(t.refusal(e))


def check_seat(sub: argparse.ArgumentParser, t: Translator, seat: int, players: int) -> None:
    """Refuse, as a usage error, a seat the table does not have."""
    if not 0 <= seat < players:
        sub.error(t.gettext("--seat must be between 0 and {last}").format(last=players - 1))


def write_record(t: Translator, path: str, text: str, say: Callable[[str], None]) -> int:
    """A finished game's record written to ``path`` (replacing a file only once written whole);
    says where, or why not (exit status 1)."""
    from ..analysis.simulate import replaced_on_success

    try:
        with replaced_on_success(path) as f:
            f.write(text)
    except OSError as e:
        say(file_error(t, path, e, writing=True))
        return 1
    say(t.gettext("Record written to {file}.").format(file=path))
    return 0


def check_output_file(sub: argparse.ArgumentParser, t: Translator, path: str, force: bool) -> None:
    """Refuse, as a usage error and before any work, a file that cannot be written or would be
    replaced without ``--force``."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        sub.error(t.gettext("{path} is a folder: give the name of a file").format(path=path))
    if not folder.is_dir():
        sub.error(t.gettext("the folder {folder} does not exist").format(folder=folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        sub.error(t.gettext("cannot write into the folder {folder}").format(folder=folder))
    if target.exists() and not force:
        sub.error(t.gettext("{path} already exists: choose another name, or add --force to replace it").format(
            path=path))
    try:  # the file is written beside its name and renamed into place: try that now (/proc, a full disk…)
        tempfile.NamedTemporaryFile(dir=folder, prefix=f".{target.name}.", suffix=".part").close()
    except OSError:
        sub.error(t.gettext("cannot write into the folder {folder}").format(folder=folder))


def run() -> int:
    """The program (``capital-lux``, ``python -m capital_lux``): ``main`` on the command line.

    Once the command has finished, late Ctrl-C and SIGTERM are ignored: the interpreter's
    shutdown (joining a stopped run's worker pool) puts the default handlers back, and a
    second Ctrl-C landing there would kill the process and lose its exit status.
    """
    status = main()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)  # an ignored signal stays ignored through the shutdown
    return status


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    _plain_where_needed(translator(language_of(words)))
    parser = build_parser(translator(language_of(words)))
    args = parser.parse_args(words)
    sub: argparse.ArgumentParser = args.subcommand_parser
    try:
        if args.command == "play":
            return play_command(args, sub)
        if args.command == "simulate":
            return simulate_command(args, sub)
        if args.command == "replay":
            return replay_command(args, sub)
        if args.command == "review":
            return review_command(args, sub)
        if args.command == "worksheet":
            return worksheet_command(args)
        if args.command == "capitol":
            return capitol_cli.run(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    try:
        figures = bench.run(args.names)
    except CapitalLuxError as e:
        sub.error(args.t.refusal(e))
    json.dump(figures, sys.stdout, indent=2)
    print()
    return 0


#: Plain stand-ins for the table's signs on a terminal that cannot show them; the colours'
#: symbols are left out, their cards keep their letter and role ("B5", "Agent 5").
_PLAIN = {"·": "-", "…": "...", "▶": ">", "≈": "~", "—": "-", "–": "-", "’": "'", "«": '"', "»": '"',
          "\u202f": " ", "\xa0": " ", **{symbol: "" for symbol in SYMBOLS.values()}}


def _plain_text(error: UnicodeError) -> tuple[str, int]:
    """The ``errors=`` handler for a terminal's encoding: accents dropped ("é" -> "e"), signs
    made plain, anything else "?"; never a crash in the middle of a game."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    plain = []
    for char in error.object[error.start:error.end]:
        if char in _PLAIN:
            plain.append(_PLAIN[char])
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        try:
            base.encode(error.encoding)
        except UnicodeEncodeError:
            base = ""
        plain.append(base or "?")
    return "".join(plain), error.end


codecs.register_error("capital_lux.plain", _plain_text)


def _plain_where_needed(t: Translator, stdout: IO[str] | None = None, stderr: IO[str] | None = None) -> None:
    """On a terminal whose encoding cannot show the game's signs and accents (ASCII, Latin-1…),
    write them plainly instead of failing, and say so once on stderr."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    streams = [s for s in (stdout, stderr) if isinstance(s, io.TextIOWrapper)]
    narrow = [s for s in streams if not _shows(s.encoding, "·◆é…")]
    for stream in narrow:
        stream.reconfigure(errors="capital_lux.plain")
    if narrow:
        print(t.gettext("This terminal's encoding ({encoding}) cannot show every character: accents and signs are "
                        "written plainly. A UTF-8 locale (for example LANG=C.UTF-8) shows them.").format(
                            encoding=narrow[0].encoding), file=stderr)


def _shows(encoding: str, text: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# -- worksheet ------------------------------------------------------------------------------
def worksheet_command(args: argparse.Namespace) -> int:
    """Every exercise on the cards of ``--seed``, or today's exercises on the cards of the class
    (``--class-db``: only the server's side can read its key), as a worksheet or (``--answers``)
    its key."""
    from ..lessons.classroom import class_numbers, instance_seed, lesson_exercises, server_key
    from ..lessons.exercises import EXERCISES, instance
    from ..lessons.problems.worksheet import answer_key_html, worksheet_html
    from ..lessons.storage import Storage, StorageError

    lang = args.lang or args.t.lang
    seeds = {ex.id: args.seed for ex in EXERCISES}
    today = tuple(seeds)
    if args.class_db is not None:
        if "://" not in args.class_db and not os.path.isfile(args.class_db):
            print(args.t.gettext("There is no class database at {path}.").format(path=args.class_db), file=sys.stderr)
            return 1
        try:
            with Storage(args.class_db) as storage:
                key, (_, class_seed) = server_key(storage), class_numbers(storage)
                today = lesson_exercises(storage)  # the sheet the class works on: today's exercises
        except StorageError as error:
            print(args.t.refusal(error), file=sys.stderr)
            return 1
        seeds = {ex.id: instance_seed("class", key, class_seed, ex.id, "", "") for ex in EXERCISES}
    instances = [instance(ex.id, seeds[ex.id]) for ex in EXERCISES if ex.id in today]
    page = (answer_key_html if args.answers else worksheet_html)(instances, lang)
    try:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(page)
    except OSError as error:
        print(file_error(args.t, args.out, error, writing=True), file=sys.stderr)
        return 1
    print(args.t.gettext("Written to {path}.").format(path=args.out))
    return 0


# -- simulate -------------------------------------------------------------------------------
def simulate_command(args: argparse.Namespace, sub: argparse.ArgumentParser) -> int:
    specs = checked_bot_specs(sub, args.bots, args.players, args.t)
    if args.out:
        check_output_file(sub, args.t, args.out, args.force)
    # simulate() notes Ctrl-C and SIGTERM while it runs and then puts these back: a signal that
    # comes after the run stopped (a second Ctrl-C) must not cut the summary short.
    previous = {sig: signal.signal(sig, lambda _signum, _frame: None) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        return _simulate_and_report(args, sub, specs)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _simulate_and_report(args: argparse.Namespace, sub: argparse.ArgumentParser, specs: list[str]) -> int:
    from ..analysis.simulate import simulate

    if args.dask:
        if args.workers:
            sub.error(args.t.gettext("give --workers or --dask, not both"))
        from distributed import Client

        with Client(args.dask) as client:  # type: ignore[no-untyped-call]
            results = simulate(args.players, specs, args.games, args.seed, client.get_executor(),
                               progress=not args.no_progress, out=args.out, keep_rows=False)
    else:  # rows stream to --out as games finish: a run of any length needs the same memory
        try:
            results = simulate(args.players, specs, args.games, args.seed, progress=not args.no_progress,
                               workers=args.workers, out=args.out, keep_rows=False)
        except OSError as e:  # the folder was writable when checked; the disk may fill up since
            print(file_error(args.t, args.out, e, writing=True), file=sys.stderr)
            return 1
    print(results.summary_table(args.t))
    if args.out:
        print(args.t.gettext("{rows} rows written to {path}").format(rows=results.completed * args.players,
                                                                     path=args.out))
    if results.interrupted:
        print(args.t.ngettext("Interrupted: {n} finished game kept.", "Interrupted: {n} finished games kept.",
                              results.completed).format(n=results.completed), file=sys.stderr)
        return 128 + (results.stop_signal or signal.SIGINT)
    return 0


# -- text of the table ----------------------------------------------------------------------
def player_name(t: Translator, seat: int, you: int | None) -> str:
    return sentences.player_name(t, seat, you, TERMINAL)


def view_text(t: Translator, v: PlayerView, you: int | None = -1) -> str:
    """What seat ``v.viewer`` sees, as plain text; ``you`` names the seat shown as "you"
    (the viewer by default; None for nobody)."""
    you = v.viewer if you == -1 else you
    lines = [t.gettext("Round {round} of 3 · starting player: {player} · deck: {deck} · gold pile: {pile}").format(
        round=v.round, player=v.starting_player, deck=v.deck_size, pile=v.gold_pile)]
    capital = []
    for c in COLOURS:
        mods = " ".join("?" if m.value is None else format_modifier(m.value) for m in v.modifiers_above[c])
        values = " ".join(map(str, v.capital[c])) or "-"
        capital.append(f"{SYMBOLS[c]} {t.role(c)} {values}" + (f" [{mods}]" if mods else ""))
    lines.append(t.gettext("Capital: {colours}").format(colours=" | ".join(capital)))
    for p in range(v.players):
        town = sentences.cards_text(t, [Card(c, x) for c in COLOURS for x in v.hometowns[p][c]], TERMINAL)
        held = v.hand_sizes[p] or v.draft_hand_sizes[p] + v.draft_pick_counts[p]
        lines.append(t.gettext("{player}: {hometown} {town} · gold {gold} · cards held {held} · bonus {bonus}").format(
            player=player_name(t, p, you), hometown=t.term("Hometown"), town=town, gold=v.gold[p], held=held,
            bonus=sentences.cards_text(t, v.bonus[p], TERMINAL)))
    if v.draft_hand or v.draft_picks:
        lines.append(t.gettext("Choosing from: {cards} · already picked: {picks}").format(
            cards=sentences.cards_text(t, v.draft_hand, TERMINAL), picks=sentences.cards_text(t, v.draft_picks, TERMINAL)))
    if v.hand:
        lines.append(t.gettext("Your hand: {cards}").format(cards=sentences.cards_text(t, v.hand, TERMINAL)))
    if v.pending_modifier is not None:
        lines.append(t.gettext("You drew the modifier {modifier}.").format(modifier=format_modifier(v.pending_modifier)))
    return "\n".join(lines)


def action_text(t: Translator, seat: int, action: Action, you: int | None) -> str:
    """A decision as the other players see it (draft picks and gold choices stay hidden)."""
    return sentences.action_sentence(t, seat, action, you, TERMINAL)


# -- play -----------------------------------------------------------------------------------
def play_command(args: argparse.Namespace, sub: argparse.ArgumentParser) -> int:
    check_seat(sub, args.t, args.seat, args.players)
    specs = checked_bot_specs(sub, args.bots, args.players - 1, args.t)
    t: Translator = args.t
    if args.record:  # refused now, not after the whole game
        check_output_file(sub, t, args.record, args.force)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    return play_terminal(args.players, args.seat, specs, seed, t, sys.stdin, sys.stdout, args.record)


def play_terminal(players: int, you: int, specs: list[str], seed: int, t: Translator,
                  stdin: IO[str], stdout: IO[str], record: str | None = None) -> int:
    """A game on a terminal: the human types a number or an action; ``hint`` asks the rule of thumb."""
    game = Game(players, seed)
    others = iter(specs)
    bots = {p: parse_bot(next(others)) for p in range(players) if p != you}
    bot_rng = random.Random(seed + 1)
    adviser = RuleOfThumbBot()
    told = new_game(players)  # the table as far as the player has been told

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    say(t.gettext("Capital Lux: you are player {seat}; game seed {seed}.").format(seat=you, seed=seed))
    say(t.gettext("Type the number of a move or the move itself (home B5); hint; quit."))
    while not game.state.is_terminal():
        _tell_log(t, game.state, you, told, say)
        seat = game.state.current
        v = view(game.state, seat)
        if seat != you:
            action = bots[seat].choose(v, bot_rng)
            game.play(action)
            say(action_text(t, seat, action, you))
            continue
        say("")
        say(view_text(t, v))
        if v.phase == GOLD:  # the round end as the page shows it: each colour against its limit, then the question
            for line in gold_check_lines(t, v):
                say(line)
        choice = _ask(t, v, adviser, stdin, say)
        if choice is None:
            say(t.gettext("Game abandoned."))
            return 1
        game.play(choice)
    _tell_log(t, game.state, you, told, say)
    say("")
    say(view_text(t, view(game.state, you)))
    scores, winners = game.state.scores(), game.state.winners()
    say(t.gettext("Final scores: {scores}").format(
        scores=", ".join(f"{player_name(t, p, you)} {s}" for p, s in enumerate(scores))))
    say(t.gettext("Winner: {players}").format(players=", ".join(player_name(t, p, you) for p in winners)))
    if record:
        return write_record(t, record, dumps_record(game.record()), say)
    return 0


def gold_check_lines(t: Translator, v: PlayerView) -> list[str]:
    """The round end's limit check for the viewer deciding on gold, as the page's
    (``tutor.roundend.gold_decision_html``): each Hometown colour's total against its revealed
    limit, what exceeding costs, the gold held, and that the others decide in secret."""
    me = v.viewer
    lines = [t.gettext("Round end: your limits")]
    for c in COLOURS:
        cards, limit = v.hometowns[me][c], v.capital_total(c)
        if not cards or limit is None:
            continue
        over = over_limit(len(cards), sum(cards), limit)
        note = t.ngettext("exceeds by {n}: pay {n} gold disc to keep these cards, or discard them",
                          "exceeds by {n}: pay {n} gold discs to keep these cards, or discard them",
                          over).format(n=over) if over else t.gettext("within the limit: safe")
        lines.append(f"  {sentences.colour_text(t, c)} · {t.term('Hometown')} "
                     f"{' '.join(str(x) for x in cards)} · {t.gettext('total')} {sum(cards)} · "
                     f"{t.term('limit')} {limit} · {note}")
    lines.append(t.ngettext("You have {n} gold disc.", "You have {n} gold discs.", v.gold[me]).format(n=v.gold[me])
                 + " " + t.gettext("The others decide in secret too; nobody sees a choice before all are made."))
    return lines


def _tell_log(t: Translator, state: GameState, you: int, told: GameState, say: Say) -> None:
    """Tell the events ``you`` may know of the actions played since ``told`` (which catches up)."""
    for action in state.history[len(told.history):]:
        for item in public_step(told, action, you):
            if item.event is not None:
                text = sentences.event_sentence(t, item.event, you, TERMINAL)
                if text:
                    say(text)


def _tell_events(t: Translator, state: GameState, you: int | None, shown: int, say: Say) -> int:
    """Tell the events logged since ``shown`` that ``you`` may know (all of them when None)."""
    events = state.log
    for event in events[shown:]:
        if you is not None and event.private_to not in (-1, you):
            continue
        text = sentences.event_sentence(t, event, you, TERMINAL)
        if text:
            say(text)
    return len(events)


def _ask(t: Translator, v: PlayerView, adviser: RuleOfThumbBot, stdin: IO[str], say: Say) -> Action | None:
    legal = list(v.legal_actions)
    say("  ".join(f"{i}) {a}" for i, a in enumerate(legal, 1)))
    while True:
        say(t.gettext("Your move?"))
        line = stdin.readline()
        if not line:
            return None
        answer = line.strip()
        if answer.lower() in ("q", "quit"):
            return None
        if answer.lower() in ("h", "hint"):
            hint = adviser.advise(v)
            say(t.gettext("Hint: {action}. {reason}").format(action=hint.action, reason=hint.text(t)))
            continue
        if answer.isascii() and answer.isdigit():  # not "²", and never int() of 5000 digits
            if len(answer) <= len(str(len(legal))) and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            say(t.gettext("There is no move number {number}: choose from 1 to {last}.").format(
                number=answer if len(answer) <= 12 else answer[:12] + "…", last=len(legal)))
            continue
        try:
            action = parse_action(answer)
        except CapitalLuxError as e:
            say(t.refusal(e))
            continue
        except ValueError:
            say(t.gettext("That is not a move: type its number, or the move as listed."))
            continue
        if action in legal:
            return action
        say(t.gettext("{action} is not possible now: choose one of the moves listed.").format(action=action))


# -- replay ---------------------------------------------------------------------------------
def read_record(args: argparse.Namespace, sub: argparse.ArgumentParser) -> GameRecord:
    """The record named on the command line, or a usage error naming what is wrong with it
    (unreadable, too large, not JSON, forged, from another version, not replaying)."""
    try:
        with open(args.record, "rb") as f:
            data = f.read(MAX_INPUT_BYTES + 1)  # never the whole of /dev/zero or a huge file
        if len(data) > MAX_INPUT_BYTES:
            sub.error(args.t.gettext("{path} is larger than {limit} bytes: it is not a game record").format(
                path=args.record, limit=format_number(MAX_INPUT_BYTES, args.t.lang)))
        record = loads_record(data)
    except OSError as e:
        sub.error(file_error(args.t, args.record, e, writing=False))
    except CapitalLuxError as e:
        sub.error(args.t.refusal(e))
    except ValueError as e:
        sub.error(str(e))
    return record


def replay_command(args: argparse.Namespace, sub: argparse.ArgumentParser) -> int:
    return replay_terminal(read_record(args, sub), args.t, sys.stdin, sys.stdout, args.pause)


def replay_terminal(record: GameRecord, t: Translator, stdin: IO[str], stdout: IO[str], pause: bool = False) -> int:
    """Every action of a record in order, the table at each round end, and the final scores."""
    from ..engine.game import replay
    from ..engine.state import CHANCE

    state = replay(record.players, [])

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    say(t.gettext("Record of a {players}-player game, seed {seed}, {n} actions.").format(
        players=record.players, seed=record.seed, n=len(record.actions)))
    shown = 0
    number = 0
    for number, action in enumerate(record.actions, 1):
        seat = state.current_player()
        state.apply_action(action)
        who = t.gettext("chance") if seat == CHANCE else player_name(t, seat, None)
        # TRANSLATORS: one line of a replay: the action's number, who acted and the action as typed
        say(t.gettext("{number}  {player}: {action}").format(number=f"{number:>4}", player=who, action=action))
        new_events = state.log[shown:]
        shown = _tell_events(t, state, None, shown, say)
        if any(e.kind == "game_over" or (e.kind == "round_start" and e.amount > 1) for e in new_events):
            say(view_text(t, view(state, 0), you=None))  # the table after the round end: nothing hidden
        if pause and seat != CHANCE and not stdin.readline():
            say(t.gettext("Replay stopped after action {number} of {total}: the input ended.").format(
                number=number, total=len(record.actions)))
            return 1
    if not state.is_terminal():
        say(t.gettext("The record stops after action {number}, before the end of the game: it has no final "
                      "scores.").format(number=number))
        return 0
    say(t.gettext("Final scores: {scores}").format(
        scores=", ".join(f"{player_name(t, p, None)} {s}" for p, s in enumerate(state.scores()))))
    return 0


# -- review ---------------------------------------------------------------------------------
def review_command(args: argparse.Namespace, sub: argparse.ArgumentParser) -> int:
    """Every decision of a record judged (``analysis.review``): the seat's table, every seat's
    summary and the key moments; ``--html`` writes the same as a page."""
    from ..analysis.review import review_game
    from ..analysis.review_text import review_html, review_text

    t: Translator = args.t
    record = read_record(args, sub)
    check_seat(sub, t, args.seat, record.players)
    if args.html:  # refused now, not after the review's half minute
        check_output_file(sub, t, args.html, args.force)
    shown = sys.stderr.isatty()

    def progress(share: float) -> None:
        if shown:
            print("\r" + t.gettext("Reviewing the game: {share} done.").format(share=format_percent(share, t.lang)),
                  end="", file=sys.stderr, flush=True)

    review = review_game(record, args.seat, args.model, args.seed, args.games or REVIEW_GAMES, progress=progress,
                         horizon=args.horizon)
    if shown:
        print(file=sys.stderr)
    print(review_text(t, review))
    if args.html:
        from ..analysis.simulate import replaced_on_success

        try:
            with replaced_on_success(args.html) as f:
                f.write(review_html(t, review))
        except OSError as e:
            print(file_error(t, args.html, e, writing=True), file=sys.stderr)
            return 1
        print(t.gettext("Written to {path}.").format(path=args.html))
    return 0


if __name__ == "__main__":
    sys.exit(main())
