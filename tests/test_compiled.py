"""The kernel compiled by mypyc and in pure Python play the same games (capital_lux/compiled.py).

Each run is a fresh interpreter, because the choice is made once, when the package is first
imported: one with ``CAPITAL_LUX_PURE=1``, one as installed (compiled when the install
could compile; the same pure Python otherwise, and then the comparison is with itself).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from capital_lux import compiled

ROOT = Path(__file__).resolve().parents[1]

#: Seeded games and samples through every compiled module: random, rule-of-thumb and quick-rule
#: games in the kernel for 2-4 players, ``simulate``'s games, a simulated forward risk, and
#: the search's choices (its play-outs are quick-rule games).
WORKLOAD = r"""
import hashlib, json, random, sys
from capital_lux import compiled
from capital_lux.analysis.forward import forward_risk
from capital_lux.analysis.risk import example_view
from capital_lux.analysis.simulate import play_in_kernel
from capital_lux.engine import kernel
from capital_lux.players import policies
from capital_lux.engine.game import Game
from capital_lux.engine.views import view
from capital_lux.players.search import ismcts

def digest(ks):
    state = kernel.to_state(ks)
    return [kernel.scores(ks), kernel.winners(ks), hashlib.sha256(repr(state).encode()).hexdigest()]

games = {}
for players in (2, 3, 4):
    for g in range(30):
        rng = random.Random(g)
        games[f"random {players}p {g}"] = digest(kernel.play_game(players, [policies.make("random", rng)] * players, rng))
    for g in range(4):
        games[f"rule {players}p {g}"] = digest(play_in_kernel(players, ["rule"] * players, 2026, g))
    games[f"mixed {players}p"] = digest(play_in_kernel(players, ["rule", "random"] * 2, 7, players))
    for g in range(6):
        rng = random.Random(g)
        games[f"quick {players}p {g}"] = digest(kernel.play_game(players, [policies.make("quick", rng)] * players, rng))
    state = Game(players, players).state
    rng = random.Random(players)
    games[f"search {players}p"] = [str(ismcts(view(state, state.current), rng, iterations=50)), rng.random()]
risk = forward_risk(example_view(), model="rule", samples=60, seed=3, exact_ms=0)
from capital_lux.analysis.endgamebench import last_turn_positions
from capital_lux.analysis.forward import _exact_figures
from capital_lux.analysis.modifiers import modifier_posterior
exact = {}
for i, v in enumerate(last_turn_positions(3, seed=13)[:8]):  # 2.3 s of pure Python (seed 7's seventh: 24 s)
    for model in ("random", "rule"):
        figures = _exact_figures(v, model, modifier_posterior(v, model), [None, *v.legal_actions], 60_000)
        exact[f"{i} {model}"] = [[str(f) for f in row] for row in figures]
modules = {name: sys.modules[name].__file__ for name in compiled.MODULES}
print(json.dumps({"implementation": compiled.IMPLEMENTATION, "reason": compiled.REASON, "modules": modules,
                  "games": games, "risk": repr(risk), "exact": exact}))
"""


def start(code: str, pure: bool) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != compiled.ENV}
    if pure:
        env[compiled.ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def result(process: subprocess.Popen[str]) -> Any:
    out, err = process.communicate()
    assert process.returncode == 0, err
    return json.loads(out)


def run(code: str, pure: bool) -> Any:
    return result(start(code, pure))


def test_compiled_and_pure_play_the_same_games() -> None:
    both = start(WORKLOAD, pure=True), start(WORKLOAD, pure=False)  # side by side: two interpreters, two cores
    pure, installed = (result(process) for process in both)
    assert pure["implementation"] == "pure" and pure["reason"] == f"{compiled.ENV} is set"
    assert all(path.endswith(".py") for path in pure["modules"].values()), pure["modules"]
    # The installed run uses what this process chose, and its modules are of that kind.
    assert installed["implementation"] == compiled.IMPLEMENTATION, installed["reason"]
    kind = {path.endswith(".py") for path in installed["modules"].values()}
    assert kind == {installed["implementation"] == "pure"}, installed["modules"]
    assert len(pure["games"]) == 3 * 42
    assert installed["games"] == pure["games"]
    assert installed["risk"] == pure["risk"] and "samples=60" in pure["risk"]
    # the exact search at the end of a round: the same Fractions, figure by figure
    assert len(pure["exact"]) == 2 * 8 and installed["exact"] == pure["exact"]


def test_the_compiled_modules_docstring_examples_run_in_python() -> None:
    """Compiled modules keep no docstrings, so test_doctests would run none of theirs there."""
    code = ("import doctest, importlib, json\nfrom capital_lux import compiled\n"
            "print(json.dumps({m: doctest.testmod(importlib.import_module(m))._asdict() for m in compiled.MODULES}))")
    results = run(code, pure=True)
    assert all(r["failed"] == 0 for r in results.values()), results
    assert results["capital_lux.engine.kernel"]["attempted"] > 0
    assert results["capital_lux.players.policies"]["attempted"] > 0
    assert results["capital_lux.players.quick_rule"]["attempted"] > 0
    assert results["capital_lux.players.search_tree"]["attempted"] > 0


def test_an_edited_source_is_never_hidden_by_a_stale_build(tmp_path: Path, monkeypatch: Any) -> None:
    """Compiled only with every extension present and the build's record of the source
    hashes matching the sources; otherwise pure Python, all modules together."""
    monkeypatch.delenv(compiled.ENV, raising=False)
    package = tmp_path / "capital_lux"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for m in compiled.MODULES:
        path = compiled.source_path(m, package)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(compiled.source_path(m).read_text())
    assert compiled.choose(package) == ("pure", "no compiled build")
    for m in compiled.MODULES:
        Path(f"{compiled.source_path(m, package).with_suffix('')}{suffix}").write_bytes(b"")
    assert compiled.choose(package) == ("pure", "no record of a complete build")
    (package / compiled.RECORD).write_text(json.dumps(compiled.source_hashes(package)))
    assert compiled.choose(package) == ("compiled", "built from these sources")
    path = compiled.source_path("capital_lux.players.rule_of_thumb", package)
    path.write_text(path.read_text() + "\n# edited\n")
    assert compiled.choose(package)[0] == "pure"
    monkeypatch.setenv(compiled.ENV, "1")
    path.write_text(compiled.source_path("capital_lux.players.rule_of_thumb").read_text())
    assert compiled.choose(package) == ("pure", f"{compiled.ENV} is set")


def test_the_pure_switch_reads_the_environment(monkeypatch: Any) -> None:
    monkeypatch.setenv(compiled.ENV, "1")
    assert compiled.pure_requested() and compiled.choose() == ("pure", f"{compiled.ENV} is set")
    monkeypatch.setenv(compiled.ENV, "0")
    assert not compiled.pure_requested()
    monkeypatch.delenv(compiled.ENV)
    assert not compiled.pure_requested()


def test_with_a_c_compiler_the_install_compiled_the_kernel() -> None:
    """mypyc refuses a type it cannot read (an import the build's environment lacks reads as
    Any) and the install then quietly stays pure Python, half the speed: say so here."""
    import shutil
    import sysconfig

    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.environ.get(compiled.ENV) or shutil.which(compiler) is None:
        assert compiled.IMPLEMENTATION == "pure"
        return
    assert compiled.IMPLEMENTATION == "compiled", compiled.REASON
