"""Analysis work for one learner's session: one job at a time, a time budget, and a new
request replacing the old one, so that no learner can keep a core of the server busy.

A job is a function given a ``Job`` handle; it calls ``job.check(fraction_done)`` between
steps, which reports progress and stops the job (``WorkStopped``) once it is cancelled or
over its budget. Jobs run one after another on the session's own thread.

>>> runner = WorkRunner(budget_seconds=5)
>>> job = runner.submit(lambda job: [job.check(i / 3) for i in range(3)] and "done")
>>> job.result(timeout=5)
'done'
>>> runner.close()
"""

from __future__ import annotations

import concurrent.futures
import logging
import math
import os
import threading
import time
from typing import Callable, Generic, Mapping, TypeVar

from ..engine.errors import Cancelled

T = TypeVar("T")
LOG = logging.getLogger("capital_lux.tutor")

#: Seconds of work one request may take (the slowest "Compare every move" took ~47 s of a core).
DEFAULT_BUDGET_SECONDS = 15.0
#: The server's setting for that budget, for a teacher who wants another (``budget_from_env``).
BUDGET_VARIABLE = "CAPITAL_LUX_WORK_SECONDS"


def budget_from_env(environ: Mapping[str, str] = os.environ) -> float:
    """``$CAPITAL_LUX_WORK_SECONDS`` (1 to 600), else ``DEFAULT_BUDGET_SECONDS``; a setting
    that is not such a number is logged and ignored, so a typo cannot unlimit the server.

    >>> budget_from_env({"CAPITAL_LUX_WORK_SECONDS": "30"}), budget_from_env({"CAPITAL_LUX_WORK_SECONDS": "nan"})
    (30.0, 15.0)
    """
    text = environ.get(BUDGET_VARIABLE)
    if text is None:
        return DEFAULT_BUDGET_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 1 <= seconds <= 600:  # also refuses nan and infinities
        LOG.warning("%s=%r is not a number of seconds from 1 to 600: using %s", BUDGET_VARIABLE, text,
                    DEFAULT_BUDGET_SECONDS)
        return DEFAULT_BUDGET_SECONDS
    return seconds


#: A job stopped early: ``reason`` is "cancelled" (a newer request) or "budget". The package's
#: one cancellation (``engine.errors.Cancelled``), under the name the pages know it by.
WorkStopped = Cancelled


class Job(Generic[T]):
    """One request: its progress, its deadline, and whether a newer request replaced it."""

    def __init__(self, budget_seconds: float, on_progress: Callable[[float], None] | None,
                 clock: Callable[[], float]) -> None:
        self.budget_seconds = budget_seconds
        self.progress = 0.0
        self._on_progress = on_progress
        self._clock = clock
        self._deadline: float | None = None  # set when the job starts, not while it waits
        self._cancelled = threading.Event()
        self.future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def cancel(self) -> None:
        self._cancelled.set()
        self.future.cancel()  # a job still waiting never starts

    def check(self, done: float) -> None:
        """Note that ``done`` (0 to 1) of the work is done; stop here if the job must end."""
        self.progress = min(max(done, 0.0), 1.0)
        if self._on_progress is not None:
            self._on_progress(self.progress)
        if self._cancelled.is_set():
            raise WorkStopped("cancelled")
        if self._deadline is not None and self._clock() > self._deadline:
            raise WorkStopped("budget")

    def stopping(self) -> bool:
        """Whether ``check`` would stop the job now (cancelled or over budget), without stopping it:
        for work that polls a ``should_stop`` function."""
        return self._cancelled.is_set() or (self._deadline is not None and self._clock() > self._deadline)

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def result(self, timeout: float | None = None) -> T:
        return self.future.result(timeout)

    def wait(self, timeout: float | None = None) -> None:
        """Until the job has finished, been stopped or failed (the page says which), for tests
        and scripts: its error is not raised here."""
        try:
            self.future.result(timeout)
        except Exception:
            pass

    def _run(self, work: Callable[[Job[T]], T]) -> None:
        if not self.future.set_running_or_notify_cancel():
            return
        self._deadline = self._clock() + self.budget_seconds
        try:
            self.future.set_result(work(self))
        except BaseException as error:  # handed to whoever waits on the result
            self.future.set_exception(error)


class WorkRunner:
    """A session's analysis jobs: at most one running, a new one cancels every older one."""

    def __init__(self, budget_seconds: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget_seconds = budget_from_env() if budget_seconds is None else budget_seconds
        self._clock = clock
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="capital-lux-work")
        self._jobs: list[Job[object]] = []
        self._lock = threading.Lock()

    def submit(self, work: Callable[[Job[T]], T], on_progress: Callable[[float], None] | None = None) -> Job[T]:
        """Run ``work`` after the job before it has stopped, cancelling that one."""
        job: Job[T] = Job(self.budget_seconds, on_progress, self._clock)
        with self._lock:
            for older in self._jobs:
                older.cancel()
            self._jobs = [j for j in self._jobs if not j.future.done()] + [job]  # type: ignore[list-item]
        self._pool.submit(job._run, work)
        return job

    def close(self) -> None:
        with self._lock:
            for job in self._jobs:
                job.cancel()
        self._pool.shutdown(wait=True)


_PAGE_RUNNER: WorkRunner | None = None
_PAGE_LOCK = threading.Lock()


def page_runner() -> WorkRunner:
    """The one runner of this kernel, which under Voila serves one page: the risk panel's
    comparison and the what-if explorer's share it, so a page runs one analysis at a time
    (the tutor shows both in its tabs)."""
    global _PAGE_RUNNER
    with _PAGE_LOCK:
        if _PAGE_RUNNER is None:
            _PAGE_RUNNER = WorkRunner()
        return _PAGE_RUNNER
