"""``capital-lux capitol play`` and ``capital-lux capitol simulate``: Capitol on the command line.

``play`` seats you against bots in the terminal: each turn shows your view (your hand, every
building, the board, the piles' top cards, the scores) and reads a move in the notation
(``?`` lists the legal ones); a refused move is explained and nothing changes.
``simulate`` plays seeded games between bots and prints each seat's wins and mean score, and
the engine's speed in games per CPU second beside games per wall-clock second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import IO, Callable

from ..capitol.bots import BOT_KINDS, Bot, make_bot
from ..capitol.components import PILES
from ..capitol.notation import public_text, parse_action
from ..capitol.record import dumps_record
from ..capitol.rules import apply
from ..capitol.state import State, new_game
from ..capitol.texts import large_text, phase_text
from ..capitol.views import PlayerView, view
from ..engine.errors import CapitalLuxError
from ..i18n import LANGUAGES, Translator, format_list, format_number, sentences
from ..i18n.sentences import TERMINAL
from .localised import whole_number

Say = Callable[[str], None]


def add_parser(commands: argparse._SubParsersAction, t: Translator,  # type: ignore[type-arg]
               lang_help: str) -> argparse.ArgumentParser:
    """The ``capitol`` subcommand and its own two, ``play`` and ``simulate``."""
    whole, positive = whole_number(t), whole_number(t, 1)
    bots_help = t.gettext("the bot for each other seat, comma-separated: random, rule or search (default rule)")
    c: argparse.ArgumentParser = commands.add_parser("capitol", translator=t, help=t.gettext(
        "the board game Capitol: play it in the terminal, or simulate games between bots"))
    games = c.add_subparsers(dest="capitol_command", required=True, metavar=t.gettext("COMMAND"))
    p = games.add_parser("play", translator=t, help=t.gettext("play a game of Capitol in the terminal against bots"))
    p.add_argument("--players", type=whole, choices=(2, 3, 4), default=3,
                   help=t.gettext("players at the table (default 3)"))
    p.add_argument("--bots", default="rule", metavar=t.gettext("BOTS"), help=bots_help)
    p.add_argument("--seat", type=whole, default=0, metavar=t.gettext("SEAT"),
                   help=t.gettext("your seat, 0 to players-1 (default 0)"))
    p.add_argument("--seed", type=whole, default=None, metavar=t.gettext("SEED"),
                   help=t.gettext("seed of the shuffles (default: random)"))
    p.add_argument("--record", metavar=t.gettext("FILE"),
                   help=t.gettext("write the game's record here as JSON at the end"))
    p.add_argument("--force", action="store_true", help=t.gettext("replace the record file if it already exists"))
    s = games.add_parser("simulate", translator=t,
                         help=t.gettext("play many seeded games of Capitol between bots and summarise them"))
    s.add_argument("--players", type=whole, choices=(2, 3, 4), default=4,
                   help=t.gettext("players per game (default 4)"))
    s.add_argument("--bots", default="rule,random", metavar=t.gettext("BOTS"), help=t.gettext(
        "the bot for each seat, comma-separated: random, rule or search; the last one fills the rest (default rule,random)"))
    s.add_argument("--games", type=positive, default=100, metavar=t.gettext("GAMES"),
                   help=t.gettext("how many games (default 100)"))
    s.add_argument("--seed", type=whole, default=0, metavar=t.gettext("SEED"),
                   help=t.gettext("seed of the run (default 0)"))
    for sub in (c, p, s):
        sub.add_argument("--lang", choices=LANGUAGES, default=None, help=lang_help)
        sub.set_defaults(subcommand_parser=sub, t=t)
    return c


def run(args: argparse.Namespace) -> int:
    sub: argparse.ArgumentParser = args.subcommand_parser
    t: Translator = args.t
    names = [name.strip() for name in args.bots.split(",")]
    unknown = [name for name in names if name not in BOT_KINDS]
    if unknown:
        sub.error(t.gettext("{name} is not a Capitol bot: choose random, rule or search").format(name=repr(unknown[0])))
    if args.capitol_command == "simulate":
        return simulate(args.players, names, args.games, args.seed, t, sys.stdout.write)
    from .main import check_output_file, check_seat, write_record  # main imports this module first

    check_seat(sub, t, args.seat, args.players)
    if args.record:  # refused now, not after the whole game
        check_output_file(sub, t, args.record, args.force)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    state = play_terminal(args.players, args.seat, names, seed, t, sys.stdin, sys.stdout)
    if args.record:
        return write_record(t, args.record, dumps_record(state) + "\n", print)
    return 0


def seat_bots(names: list[str], players: int) -> list[Bot]:
    """A bot per seat: the names in order, the last one filling the rest."""
    return [make_bot(names[min(i, len(names) - 1)]) for i in range(players)]


def simulate(players: int, names: list[str], games: int, seed: int, t: Translator, write: Callable[[str], object]) -> int:
    bots = seat_bots(names, players)
    wins, totals = [0.0] * players, [0] * players
    cpu, wall = time.process_time(), time.perf_counter()
    from ..capitol.bots import play_game
    for game in range(games):
        final = play_game(players, bots, seed + game, random.Random(seed + game))
        winners = final.winners()
        for p in winners:
            wins[p] += 1 / len(winners)
        totals = [a + b for a, b in zip(totals, final.scores)]
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    lang = t.lang
    write(t.ngettext("{games} game of Capitol with {players} players, seeds {first} to {last}.",
                     "{games} games of Capitol with {players} players, seeds {first} to {last}.", games).format(
        games=format_number(games, lang), players=players, first=seed, last=seed + games - 1) + "\n")
    for p in range(players):
        write(t.gettext("Seat {seat} ({bot}): {wins} wins, mean score {mean}.").format(
            seat=p, bot=bots[p].name, wins=format_number(round(wins[p], 1), lang),
            mean=format_number(round(totals[p] / games, 1), lang)) + "\n")
    write(t.gettext("Engine speed: {cpu} games per CPU second ({wall} per wall-clock second).").format(
        cpu=format_number(round(games / max(cpu, 1e-9), 1), lang),
        wall=format_number(round(games / max(wall, 1e-9), 1), lang)) + "\n")
    return 0


def view_text(t: Translator, v: PlayerView) -> str:
    """The seat's view as lines of text: the board in the notation (owner:storeys+roof), the rest in words."""
    lines = [phase_text(t, v.phase, v.round, v.piece, v.current, v.seat, TERMINAL),
             t.gettext("Scores: {scores}.").format(scores=", ".join(map(str, v.scores)))]
    for board in v.board:
        buildings = " ".join(f"{owner}:{storeys}{roof}" for owner, storeys, roof in board.buildings) or "-"
        lines.append(t.gettext("District {district}: {buildings}; fountains: {fountains}; free small squares: "
                               "{free}. {large}").format(district=board.name, buildings=buildings,
                                                         fountains=board.all_fountains, free=board.free_small,
                                                         large=large_text(t, board.large)).rstrip())
    me = v.seat
    lines.append(t.gettext("Your hand: {cards}. Cards in each hand: {sizes}.").format(
        cards=" ".join(map(str, v.hand)) or "-", sizes=", ".join(map(str, v.hand_sizes))))
    lines.append(t.gettext("Your buildings under construction: {unfinished}; finished: {finished}; roofs left: "
                           "{rounds} round, {triangles} triangular.").format(
        unfinished=" ".join(map(str, v.unfinished[me])) or "-",
        finished=" ".join(f"{h}{r}" for h, r in v.finished[me]) or "-",
        rounds=v.roofs_left[me][0], triangles=v.roofs_left[me][1]))
    tops = {pile: str(top) if top else "-" for pile, top in zip(PILES, v.pile_tops)}
    lines.append(t.gettext("Top of the piles: roofs {roof}, floors {floor}, permits {permit}.").format(**tops))
    return "\n".join(lines)


def play_terminal(players: int, you: int, names: list[str], seed: int, t: Translator, stdin: IO[str],
                  stdout: IO[str]) -> State:
    """A game in the terminal: you at seat ``you``, bots elsewhere; returns the final state."""
    def say(text: str) -> None:
        stdout.write(text + "\n")

    others = seat_bots(names, players - 1)  # the bots given are for the other seats, in order
    bots = others[:you] + [others[0]] + others[you:]  # (seat ``you``'s is never asked)
    rng = random.Random(seed)
    state = new_game(players, seed)
    shown_auctions = 0
    while not state.is_terminal():
        seat = state.current
        if seat == you:
            v = view(state, you)
            say("")
            say(view_text(t, v))
            action = None
            while action is None:
                stdout.write(t.gettext("Your move ('?' lists the legal moves): "))
                stdout.flush()
                line = stdin.readline()
                if not line:
                    say("")
                    return state
                if line.strip() == "?":
                    say(t.gettext("Legal moves: {moves}").format(moves=", ".join(map(str, v.legal_actions))))
                    continue
                try:
                    candidate = parse_action(line)
                    state = apply(state, candidate)
                    action = candidate
                except CapitalLuxError as e:
                    say(t.refusal(e))
        else:
            action = bots[seat].choose(view(state, seat), rng)
            state = apply(state, action)
            say(t.gettext("{player}: {move}").format(player=sentences.player_name(t, seat, you, TERMINAL),
                                                      move=public_text(action)))
        for result in state.auctions[shown_auctions:]:
            if result.winner is None:
                say(t.gettext("Nobody bid a card: the piece is not sold."))
            else:
                say(t.gettext("{player} wins the auction with {bid}.").format(
                    player=sentences.player_name(t, result.winner, you, TERMINAL), bid=" ".join(map(str, result.bids[result.winner].cards))))
        shown_auctions = len(state.auctions)
    say(t.gettext("The game is over. Scores: {scores}. Highest score: {winners}.").format(
        scores=", ".join(map(str, state.scores)),
        winners=format_list([sentences.player_name(t, p, you, TERMINAL) for p in state.winners()], t.lang)))
    return state
