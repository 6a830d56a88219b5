"""``make class`` with odd arguments says in one sentence what is wrong, in the teacher's language,
and leaves nothing running; a start that fails stops everything it started; ``make class-stop``
stops a class whatever state its start left (no PID file, a server that does not answer)."""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

import browser as B
from capital_lux.i18n import translator
from capital_lux.lessons.classroom import TEACHER_KEY_VARIABLE
from capital_lux.serve import classroom as C

COMMAND = [sys.executable, "-m", "capital_lux.serve.classroom"]
#: (argument, what the French sentence says)
ODD = [
    ("--address=999.1.1.1", "n’est pas une adresse réseau"),
    ("--address=not-an-address", "n’est pas une adresse réseau"),
    ("--address=10.255.255.1", "n’est pas une adresse de cette machine"),
    ("--port=70000", "Le port doit être un nombre entier de 1 à 65535"),
    ("--port=-1", "Le port doit être un nombre entier de 1 à 65535"),
    ("--port=0", "Le port doit être un nombre entier de 1 à 65535"),
]
#: Two exercise pages kept warm, as ``make class --learners=2`` keeps them, and no other notebook's
#: (Voila's pools of the tutorial, the tables and pass-and-play: six kernels more, none opened here).
WARM = ("--ClassKernels.learners_expected=2", "--VoilaConfiguration.default_pool_size=0")


def _environment(data: Path, lang: str) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items()
                   if name not in (TEACHER_KEY_VARIABLE, "CAPITAL_LUX_DB", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return {**environment, "XDG_DATA_HOME": str(data), "LANG": "C.UTF-8", "LANGUAGE": lang}


@pytest.mark.parametrize(("argument", "said"), ODD)
def test_an_odd_argument_gets_one_sentence_in_the_teachers_language_and_nothing_runs(
        tmp_path: Path, argument: str, said: str) -> None:
    run = subprocess.run([*COMMAND, "start", argument], env=_environment(tmp_path, "fr"), cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and run.stdout == ""
    [sentence] = run.stderr.splitlines()
    assert said in sentence and "Traceback" not in run.stderr and sentence.count(". ") == 0
    assert C.class_processes(str(tmp_path / "capital-lux")) == []
    assert not (tmp_path / "capital-lux" / C.PID_FILE).exists()


def _refusals(lang: str) -> list[str]:
    t = translator(lang)
    said = []
    for refused in (lambda: C.port_number("70000", t), lambda: C.check_listening("not-an-address", 8866, t),
                    lambda: C.check_listening("10.255.255.1", 8866, t)):
        with pytest.raises(C.Refused) as refusal:
            refused()
        said.append(str(refusal.value))
    return said


def test_each_refusal_is_said_in_every_language() -> None:
    english = _refusals("en")
    for lang in ("fr", "es", "pt"):
        assert all(theirs != ours for theirs, ours in zip(_refusals(lang), english)), lang


def _class(monkeypatch: pytest.MonkeyPatch, data: Path) -> tuple[int, str]:
    """A class started in this process (two kernels warm), its server's process and its mark."""
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.delenv(TEACHER_KEY_VARIABLE, raising=False)
    monkeypatch.delenv("CAPITAL_LUX_DB", raising=False)
    C.start("127.0.0.1", B.free_port(), WARM, translator("en"))
    pid = C.pid_in(C.files()["pid"])
    assert pid is not None
    return pid, str(data / "capital-lux")


def _wait_for_kernels(mark: str, count: int) -> None:
    deadline = time.monotonic() + 120
    while len(C.class_processes(mark)) < count + 1 and time.monotonic() < deadline:
        time.sleep(0.5)


def test_a_start_that_fails_stops_the_server_and_every_kernel_it_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv(TEACHER_KEY_VARIABLE, raising=False)
    monkeypatch.delenv("CAPITAL_LUX_DB", raising=False)
    mark = str(tmp_path / "capital-lux")
    seen: list[int] = []
    late = [0.0]  # how far the start's clock is put forward: its deadline reached once the kernels are seen

    def never(host: str, port: int) -> bool:  # a server that never answers, its kernels warming
        seen.append(len(C.class_processes(mark)))
        if seen[-1] >= 3:  # the server and both warm kernels: waiting out the 40 s would show nothing more
            late[0] = 40.0
        return False

    monkeypatch.setattr(C, "answers", never)
    monkeypatch.setattr(C, "STARTUP_SECONDS", 40)
    monkeypatch.setattr(C, "time", SimpleNamespace(monotonic=lambda: time.monotonic() + late[0], sleep=time.sleep))
    with pytest.raises(C.Refused, match="did not answer within 40 seconds: it is stopped with everything it started"):
        C.start("127.0.0.1", B.free_port(), WARM, translator("en"))
    assert max(seen) >= 2, "the server had started kernels before it was given up"
    assert C.class_processes(mark) == [] and not C.files()["pid"].exists()


def test_class_stop_stops_a_class_with_no_pid_file_and_a_server_that_does_not_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pid, mark = _class(monkeypatch, tmp_path)
    try:
        _wait_for_kernels(mark, 2)
        assert len(C.class_processes(mark)) >= 3  # the server and its two warm kernels
        C.files()["pid"].unlink()  # a start that went wrong left no PID file
        os.kill(pid, signal.SIGSTOP)  # and a server that no longer answers a SIGTERM
        # 3 s for the server to stop before it is killed, not 30 (``end_class``'s default is read
        # when it is defined, so setting ``C.STOP_SECONDS`` here changed nothing)
        monkeypatch.setattr(C, "end_class", functools.partial(C.end_class, seconds=3))
        assert C.stop(translator("en")) == [f"The class is stopped (process {pid})."]
        assert C.class_processes(mark) == []
        assert C.stop(translator("en")) == ["No class is running."]
    finally:
        for left in C.class_processes(mark):
            os.kill(left, signal.SIGKILL)
