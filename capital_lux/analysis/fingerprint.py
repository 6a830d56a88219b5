"""One digest of what the seeded benchmarks compute, to prove a change changed nothing.

A change meant to leave behaviour alone (a refactor of the kernel, a faster search) must
give the same games and the same figures for the same seeds. ``fingerprint`` plays seeded
games in the kernel (random, rule-of-thumb and quick-rule seats, 2 to 4 players), ranks the
moves of the endgame bench's seeded positions under every model and both horizons
(simulated, so every draw counts), and runs the search bot's own play-outs (which stop and
resume at its seat), and hashes every result: run it before and after the change, compiled
or pure (``CAPITAL_LUX_PURE=1``), and compare the two lines.

A result is hashed in a canonical form (``canonical``), not its ``repr``: the forward figures
by their values (an exact one as its fraction, a simulated one as its mean, interval and
games), so a change to how a figure is typed or printed, which changes no figure, leaves the
digest alone; everything else (states, moves, searches) by ``repr``.

    python -m capital_lux.analysis.fingerprint [SCALE]
"""

from __future__ import annotations

import hashlib
import random
import sys
from dataclasses import fields, is_dataclass
from fractions import Fraction

from ..engine import kernel
from ..engine.game import Game
from ..engine.views import view
from ..players import policies
from ..players.search import ismcts
from .endgamebench import last_turn_positions
from .forward import forward_risk, rank_moves
from .simulate import play_in_kernel
from .stats import Estimate

__all__ = ["fingerprint", "canonical"]


def canonical(result: object) -> str:
    """``result`` as the digest reads it: a fraction as ``n/d``; a figure exact as its fraction,
    simulated as ``~(mean, low, high, n)``; sequences, mappings and the analysis's dataclasses
    item by item; anything else by ``repr``.

    >>> canonical([Fraction(1, 3), Estimate.exactly(Fraction(1, 3)), Estimate(0.5, 0.25, 0.75, 8)])
    '[1/3, 1/3, ~(0.5, 0.25, 0.75, 8)]'
    """
    if isinstance(result, Fraction):
        return f"{result.numerator}/{result.denominator}"
    if isinstance(result, Estimate):
        if result.exact is not None:
            return canonical(result.exact)
        return f"~({result.mean!r}, {result.low!r}, {result.high!r}, {result.n})"
    if isinstance(result, (list, tuple)):
        return "[" + ", ".join(canonical(x) for x in result) + "]"
    if isinstance(result, dict):
        return "{" + ", ".join(f"{canonical(k)}: {canonical(v)}" for k, v in result.items()) + "}"
    if is_dataclass(result) and not isinstance(result, type) and type(result).__module__.startswith(__package__ or ""):
        named = ", ".join(f"{f.name}={canonical(getattr(result, f.name))}" for f in fields(result))
        return f"{type(result).__name__}({named})"
    return repr(result)


def fingerprint(scale: int = 1) -> str:
    """The SHA-256 of ``scale`` times a fixed set of seeded games, rankings and searches."""
    digest = hashlib.sha256()

    def put(result: object) -> None:
        digest.update(canonical(result).encode())

    for players in (2, 3, 4):
        for g in range(100 * scale):
            rng = random.Random(g)
            put(kernel.to_state(kernel.play_game(players, [policies.make("random", rng)] * players, rng)))
        for g in range(5 * scale):
            ks = play_in_kernel(players, ["rule", "random", "quick", "rule"][:players], 7, g)
            put(None if ks is None else kernel.to_state(ks))
        state = Game(players, players).state
        rng = random.Random(players)
        put((str(ismcts(view(state, state.current), rng, iterations=100 * scale)), rng.random()))
    for v in last_turn_positions(2 * scale, seed=3):
        for model in ("rule", "random", "quick"):
            for horizon in ("round", "game"):
                put(rank_moves(v, model, seed=5, games=20 * len(v.legal_actions), exact_ms=0, horizon=horizon))
        put(forward_risk(v, "rule", samples=50, exact_ms=0, seed=2))
        rng = random.Random(1)
        put((str(ismcts(v, rng, iterations=50 * scale)), rng.random()))
    return digest.hexdigest()


if __name__ == "__main__":
    print(fingerprint(int(sys.argv[1]) if len(sys.argv) > 1 else 1))
