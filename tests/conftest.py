"""Every test, and every kernel a test starts, writes class results to a database of its own,
and keeps the server's key (used without a database) in a file of its own."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest


_FOLDERS: list[Path] = []


def pytest_configure(config: pytest.Config) -> None:
    # Set before any notebook kernel or Voila server starts, so none of them writes
    # the class database in the home folder or into a teacher's real database.
    folder = Path(tempfile.mkdtemp(prefix="capital-lux-test-db-"))
    _FOLDERS.append(folder)
    os.environ["CAPITAL_LUX_DB"] = str(folder / "class.sqlite3")
    os.environ["CAPITAL_LUX_KEY_FILE"] = str(folder / "server.key")  # never the home folder's
    os.environ["CAPITAL_LUX_OUTBOX"] = str(folder / "outbox")  # answers kept while a database is away
    _served_kernel(config, folder)
    # Run in the background of a non-interactive shell (as a CI job is), pytest inherits SIGINT
    # ignored, and so would every process a test starts: a JupyterHub stopping then waits 30 s
    # for its idle-culler, which ends on SIGINT, before it sends SIGTERM. Started as from a
    # terminal instead.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: The kernel the notebooks run in (nbval) unless another is named: started as the class server
#: starts its kernels, with its extension (``serve.kernel``).
SERVED_KERNEL = "capital-lux-served"


def _served_kernel(config: pytest.Config, folder: Path) -> None:
    """Run the notebooks (``--nbval-lax notebooks``) in kernels started as the class server
    starts its own: with ``serve.kernel.KERNEL_ARGUMENTS``. Each notebook imports
    ``voila.utils`` and so jsonschema, which without the extension builds its IRI grammars:
    that import took 5.2 to 5.8 s of a kernel's CPU, 0.4 to 0.5 s with it (the seven notebooks
    took 38.8 and 40.6 busy core-seconds, 14.9 and 15.2 with it). A kernel named on the command
    line is kept."""
    from capital_lux.serve.kernel import KERNEL_ARGUMENTS

    spec = folder / "kernels" / SERVED_KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}", *KERNEL_ARGUMENTS],
        "display_name": "Python 3 (as the class server starts it)", "language": "python"}))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(folder), os.environ.get("JUPYTER_PATH")) if p)
    if getattr(config.option, "nbval_kernel_name", "") is None:
        config.option.nbval_kernel_name = SERVED_KERNEL


def pytest_unconfigure(config: pytest.Config) -> None:
    # The process's servers and kernels have stopped with its fixtures: its folder goes too
    # (a run left one behind per worker before, over a thousand of them in a day's /tmp).
    while _FOLDERS:
        shutil.rmtree(_FOLDERS.pop(), ignore_errors=True)


@pytest.fixture(scope="session")
def _profile_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("chromium-profile")


@pytest.fixture(scope="module")
def chromium(_profile_folder: Path) -> Iterator[Any]:
    """Debian's Chromium, headless, for one module's browser tests: launched once for the module
    on the test process's profile (``browser.Profile``: the scripts compiled by the modules before
    it kept, every page's storage cleared), each test opening pages or contexts of its own in it."""
    import browser as B

    if not os.path.exists(B.CHROMIUM):
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        launched = B.Profile(p, _profile_folder)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def _pages_of_the_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test's profile pages close when it ends (a module fixture's stay), so that the next
    test's page is opened alone in the profile, with its cache (``browser.Profile``)."""
    if "chromium" not in request.fixturenames:
        yield
        return
    profile = request.getfixturevalue("chromium")
    before = profile.pages()
    yield
    for page in profile.pages():
        if page not in before:
            page.close()


def _shared_tutor(name: str, environment: dict[str, str]) -> Iterator[str]:
    import browser as B

    if not os.path.exists(B.CHROMIUM):  # every module using it drives a browser: start nothing without one
        pytest.skip(f"no Chromium at {B.CHROMIUM}")
    pytest.importorskip("playwright.sync_api")
    log = B.shared_tutor_log(name)
    log.parent.mkdir(exist_ok=True)
    with B.voila_server(log, environment=environment) as url:
        yield url


@pytest.fixture(scope="session")
def tutor_server() -> Iterator[str]:
    """The tutor served as ``make tutor`` serves it (``browser.voila_server``: one kernel warm,
    pages unpaced), started once in each test process and shared by the browser modules that
    need no other setting; each opens pages of its own and closes them. Its log:
    ``browser.shared_tutor_log()``."""
    yield from _shared_tutor("tutor", {})


@pytest.fixture(scope="session")
def unhurried_tutor_server() -> Iterator[str]:
    """The same with a work budget of 300 s, for the modules whose review or comparison must
    end on a busy machine (the budget's cut is tested in-process, ``tests/test_work.py``)."""
    from capital_lux.tutor.work import BUDGET_VARIABLE

    yield from _shared_tutor("tutor-unhurried", {BUDGET_VARIABLE: "300"})


#: The files that took longest (wall, ``--durations=0``, November 2026), longest first: started
#: before the other long files, so that none of them is what the run ends waiting for. A file
#: missing here, or a stale order, only costs balance.
LONGEST = ("test_tables_browser.py", "test_serve.py", "test_hub.py", "test_serve_room.py",
           "test_newcomer_browser.py", "test_load_browser.py", "test_tutor_browser.py", "test_languages_browser.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Files of long tests (browser or slow) first, ``LONGEST`` at their head, then the notebooks
    (nbval: each starts a kernel and runs every cell), then the rest: run in parallel
    (``make test``, with ``--no-loadscope-reorder`` so that this order is kept), none of the
    long ones starts last (the notebooks, collected after the tests, used to)."""
    long_files = {item.path for item in items
                  if item.get_closest_marker("browser") or item.get_closest_marker("slow")}

    def place(item: pytest.Item) -> tuple[int, int]:
        if item.path in long_files:
            name = item.path.name
            return 0, LONGEST.index(name) if name in LONGEST else len(LONGEST)
        return (1 if item.path.suffix == ".ipynb" else 2), 0

    items.sort(key=place)
