"""The manual's smoke: it builds with warnings as errors (a broken link to a page or a heading
is one), every page is reachable from the index, the README stays one screen and points into
the manual, and the French guides translate every text of their English pages.
``make docs`` builds the whole manual, in both languages, and runs its examples."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
#: One screen of a README, as a newcomer reads it before scrolling on.
README_LINES = 150

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")


def sphinx(builder: str, out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", builder,
                           *options, str(DOCS), str(out)], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The manual built once (HTML, English) in a temporary folder."""
    out = tmp_path_factory.mktemp("manual")
    done = sphinx("html", out, "-d", str(out / ".doctrees"))
    assert done.returncode == 0, done.stderr
    return out


def test_the_manual_builds_without_a_warning(built: Path) -> None:
    for page in ("index", "learner", "teacher", "operator", "rules", "developer", "benchmarks", "cli", "api"):
        assert (built / f"{page}.html").exists(), page
    api = (built / "api" / "engine.html").read_text()
    assert "capital_lux.engine.state" in api and "legal_actions" in api  # read from the docstrings


def package_modules() -> set[str]:
    """Every module of the package, as its files name them, but the ``__main__`` entry points."""
    names = set()
    for path in (ROOT / "capital_lux").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        parts = parts[:-1] if parts[-1] == "__init__" else parts
        if not any(part.startswith("_") for part in parts):
            names.add(".".join(parts))
    return names


def api_modules() -> list[str]:
    """The modules the API reference's pages (``docs/api.md`` and ``docs/api/*.md``) document."""
    pages = [DOCS / "api.md", *sorted((DOCS / "api").glob("*.md"))]
    return [name for page in pages for name in re.findall(r"^\.\. automodule:: (\S+)$", page.read_text(), re.MULTILINE)]


def test_the_api_reference_lists_every_module_of_the_package() -> None:
    listed = api_modules()
    assert len(listed) == len(set(listed)), "a module is listed twice"
    assert package_modules() - set(listed) == set(), "missing from the API reference (docs/api/)"
    assert set(listed) - package_modules() == set(), "in the API reference (docs/api/) but not in the package"


def test_the_api_reference_is_rendered_as_pythons_reference(built: Path) -> None:
    """Each module gets its entry (autodoc's reStructuredText read as such, not shown as text)."""
    api = "".join(page.read_text() for page in (built / "api").glob("*.html"))
    assert [name for name in api_modules() if f'id="module-{name}"' not in api] == []
    assert ".. py:" not in api


def test_every_page_is_reachable_from_the_index(built: Path) -> None:
    with open(built / ".doctrees" / "environment.pickle", "rb") as f:
        env = pickle.load(f)
    reached, todo = set(), ["index"]
    while todo:
        page = todo.pop()
        if page not in reached:
            reached.add(page)
            todo += env.toctree_includes.get(page, [])
    assert env.found_docs - reached == set()


def test_the_guides_lists_are_read_from_the_package(built: Path) -> None:
    from capital_lux.lessons.chapters import CHAPTERS
    from capital_lux.lessons.problems import EXERCISES

    teacher = (built / "teacher.html").read_text()
    learner = (built / "learner.html").read_text()
    assert all(ex.title in teacher for ex in EXERCISES)
    assert all(chapter.title in learner for chapter in CHAPTERS)


def test_every_pages_help_link_names_a_heading_of_the_built_manual(built: Path) -> None:
    """Each page shown on its own names its part of the manual; the page and the heading's
    anchor exist in the built manual (a renamed heading fails here, not in a learner's browser)."""
    import importlib
    import inspect
    import pkgutil

    import capital_lux.tutor
    from capital_lux.tutor.base import Page

    for module in pkgutil.iter_modules(capital_lux.tutor.__path__):
        importlib.import_module(f"capital_lux.tutor.{module.name}")
    pages, todo = [], list(Page.__subclasses__())
    while todo:
        page = todo.pop()
        pages.append(page)
        todo += page.__subclasses__()
    own = [page for page in pages if "own_header(" in inspect.getsource(page)]
    assert len(own) >= 6, [page.__name__ for page in own]  # the tutor, exercises, what-if, teacher, tables, hotseat
    for page in own:
        assert page.manual, f"{page.__name__} names no part of the manual"
        name, anchor = page.manual.split("#")
        assert (built / name).exists(), f"{page.__name__}: no {name} in the manual"
        assert f'id="{anchor}"' in (built / name).read_text(), f"{page.__name__}: no heading #{anchor} in {name}"


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    """The -W build is what catches a broken link: a page with one must not build."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text('extensions = ["myst_parser"]\nmyst_heading_anchors = 3\n')
    (source / "index.md").write_text("# Index\n\n[the guide](guide.md#no-such-heading)\n")
    (source / "guide.md").write_text("# Guide\n\n```{toctree}\n```\n")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(source), str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "no-such-heading" in done.stderr


def test_the_readme_is_one_screen_and_points_into_the_manual() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= README_LINES, f"the README has {len(text.splitlines())} lines"
    for command in ("make tutor", "make test", "make class"):
        assert command in text
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if not link.startswith("http")]
    assert {"docs/learner.md", "docs/teacher.md", "docs/operator.md", "docs/developer.md"} <= set(local)
    for link in local:
        assert (ROOT / link).exists(), f"the README links to {link}, which is missing"
    for picture in ("tutor", "teacher", "review"):
        assert f"docs/_static/{picture}.png" in local


def test_the_french_guides_translate_every_text() -> None:
    done = subprocess.run([sys.executable, str(DOCS / "translate.py"), "--check"], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
