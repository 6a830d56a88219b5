"""The pages' help links: each page shown on its own links its part of the manual, in the
reader's language where that guide is translated, to the copy a school names
(``CAPITAL_LUX_MANUAL``) or to the one the class server serves at ``/manual/``; with neither,
no link. That every page's link names a heading of the built manual is checked in
``tests/test_docs.py``."""

from __future__ import annotations

import asyncio
import re
from html import unescape
from pathlib import Path
from urllib.parse import urljoin

import pytest
from tornado import httpclient, httpserver, netutil, web

from capital_lux.serve import manual
from capital_lux.tutor import base
from capital_lux.tutor.base import MANUAL_VARIABLE, Page


class Sample(Page):
    manual = "teacher.html#exports"

    def __init__(self, lang: str) -> None:
        super().__init__(lang)
        self.own_header("The teacher’s page")
        self.relabel()


def link(page: Sample) -> tuple[str, str] | None:
    found = re.search(r"<a class='cl-manual-link' href='([^']*)'[^>]*>([^<]*)</a>", page.title.value)
    return (unescape(found.group(1)), unescape(found.group(2))) if found else None


def test_the_link_follows_the_pages_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(MANUAL_VARIABLE, "https://docs.example.org/capital-lux/")
    page = Sample("en")
    assert link(page) == ("https://docs.example.org/capital-lux/teacher.html#exports", "Help: the teacher’s guide")
    assert page.title.value.startswith("The teacher’s page")
    page.set_language("fr")  # the French teacher's guide exists: the link opens it
    assert link(page) == ("https://docs.example.org/capital-lux/fr/teacher.html#exports",
                          "Aide\u00a0: le guide de l'enseignant")
    page.set_language("pt")  # no Portuguese guide: the English one, with the link said in Portuguese
    assert link(page) == ("https://docs.example.org/capital-lux/teacher.html#exports", "Ajuda: o guia do professor")


def test_the_served_manual_is_linked_only_once_built(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(MANUAL_VARIABLE, raising=False)
    monkeypatch.setattr(base, "BUILT_MANUAL", tmp_path)
    assert link(Sample("es")) is None
    (tmp_path / "index.html").write_text("<html></html>")
    url, text = link(Sample("es"))
    assert url == "../../manual/teacher.html#exports" and text == "Ayuda: la guía del profesor"


@pytest.mark.parametrize("page_path", ["/", "/voila/render/teacher.ipynb", "/user/ana/voila/render/tutorial.ipynb"])
def test_the_relative_link_reaches_the_servers_manual(page_path: str) -> None:
    """From a single notebook at the root, from a rendered notebook, and under a hub's prefix."""
    server_url = page_path.split("voila/")[0] if "voila/" in page_path else "/"
    assert urljoin(f"http://h{page_path}", base.SERVED_MANUAL + "teacher.html") == f"http://h{server_url}manual/teacher.html"


def test_the_class_server_serves_the_built_manual_read_only(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<h1>Manual</h1>")
    (tmp_path / "teacher.html").write_text("<h1 id='exports'>Exports</h1>")

    async def fetch() -> list[tuple[int, bytes]]:
        sockets = netutil.bind_sockets(0, "127.0.0.1")
        port = sockets[0].getsockname()[1]
        server = httpserver.HTTPServer(web.Application([manual.route("/", tmp_path)]))
        server.add_sockets(sockets)
        client = httpclient.AsyncHTTPClient()
        got = []
        for path, method in (("manual/", "GET"), ("manual/teacher.html", "GET"), ("manual/../x", "GET"),
                             ("manual/nothing.html", "GET"), ("manual/teacher.html", "PUT")):
            response = await client.fetch(f"http://127.0.0.1:{port}/{path}", method=method, raise_error=False,
                                          body=b"x" if method == "PUT" else None)
            got.append((response.code, response.body))
        server.stop()
        return got

    got = asyncio.run(fetch())
    assert got[0] == (200, b"<h1>Manual</h1>") and got[1] == (200, b"<h1 id='exports'>Exports</h1>")
    assert [code for code, _ in got[2:]] == [403, 404, 405]  # outside the folder, not there, not a read
