"""Keeping a free game across a reload or a lost kernel.

The game stays on the server: after each of the learner's decisions, the settings and
the learner's own decisions and undos (``Session.script``: enough to replay the seeded
game exactly, the chance met after an undo included) are written to
``<token>.json`` in a per-server folder. The browser keeps only the token, a random
128-bit name, in its local storage (``page_script``); the next page of that browser
hands it back through a hidden field and the tutor offers to resume. Nothing hidden
(the seed, the deck, the bots' cards) ever reaches the browser this way.

The same page script watches the kernel: if it is gone, dies, was restarted empty after a
crash (it no longer echoes the page's pings while idle), or the server stops answering,
the page says so in a sentence and offers to reload, and the reloaded page offers to resume.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import stat
import tempfile
from html import escape
from pathlib import Path
from typing import Final, TypedDict, cast

import ipywidgets as W

from ..engine.cards import N_
from ..engine.errors import CapitalLuxError, UsageError
from ..engine.notation import parse_action
from ..i18n import translator
from .base import tagged
from .session import UNDO, Session

LOG = logging.getLogger("capital_lux.tutor")
TOKEN = re.compile(r"[0-9a-f]{32}")
#: A saved game is a few kilobytes; anything larger is not ours and is not read.
MAX_BYTES = 64 * 1024
STORAGE_KEY = "capital-lux-free-game"


class Kept(TypedDict, total=False):
    """A kept game as its file holds it: enough to replay it (``resume``)."""

    players: int
    seed: int
    seed_chosen: bool
    seed_shown: bool
    bots: str
    script: list[str]
    over: bool
    game: str  # another game than Capital Lux: its name ("capitol")


class SavesError(CapitalLuxError):
    """The folder for saved games cannot be used: which folder and why, for the server's log
    (the learner's page says only that the game cannot be kept)."""


def saves_folder() -> Path:
    """``$CAPITAL_LUX_SAVES``, or a folder of the server's temporary directory, made and kept
    owner-only (0700): saved games hold their secret seed.

    Raises ``SavesError`` for a folder that cannot be made safe: a relative path (it would
    depend on where the server was started), something that is not a folder, a folder of
    another user, or one that cannot be made or written.
    """
    setting = os.environ.get("CAPITAL_LUX_SAVES")
    folder = Path(setting) if setting else Path(tempfile.gettempdir()) / "capital_lux_games"
    where = repr(str(folder))
    if not folder.is_absolute():
        raise SavesError(N_("The folder for saved games {folder} (CAPITAL_LUX_SAVES) is not an absolute path."),
                         folder=where)
    not_a_folder = N_("The folder for saved games {folder} (CAPITAL_LUX_SAVES) is not a folder.")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
        if not stat.S_ISDIR(info.st_mode):
            raise SavesError(not_a_folder, folder=where)
        if info.st_uid != os.geteuid():
            raise SavesError(N_("The folder for saved games {folder} (CAPITAL_LUX_SAVES) belongs to another user "
                                "(uid {uid}): saved games would not be the server's alone."), folder=where,
                             uid=info.st_uid)
        if stat.S_IMODE(info.st_mode) != 0o700:  # 0755 or 0777 would let others read every seed
            os.chmod(folder, 0o700)
    except FileExistsError:
        raise SavesError(not_a_folder, folder=where) from None
    except OSError as error:
        raise SavesError(N_("The folder for saved games {folder} (CAPITAL_LUX_SAVES) cannot be used: {reason}"),
                         folder=where, reason=error.strerror) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SavesError(N_("The folder for saved games {folder} (CAPITAL_LUX_SAVES) cannot be written."),
                         folder=where)
    return folder


def new_token() -> str:
    return secrets.token_hex(16)


def save(token: str, session: Session) -> None:
    """Write the game under ``token`` (atomically: a reader never sees half a file), readable
    by the server's user only. ``SavesError`` if the folder cannot be used, ``OSError`` if
    the file cannot be written."""
    write(token, {
        "players": session.game.players, "seed": session.seed, "seed_chosen": session.seed_chosen,
        "seed_shown": session.seed_shown, "bots": session.bot_kind, "script": session.script,
        "over": session.is_over(),
    })


def write(token: str, data: Kept) -> None:
    """Write a kept game under ``token``: ``save``'s for Capital Lux, and any other game's that
    is replayed from its settings and the learner's moves (Capitol's page, ``game`` naming it)."""
    if not TOKEN.fullmatch(token):
        raise UsageError("a game is kept under a 32-digit hexadecimal token")
    folder = saves_folder()
    # mkstemp makes the file owner-only (0600) from the start: it holds the secret seed
    handle, partial = tempfile.mkstemp(dir=folder, prefix=f".{token}.", suffix=".part")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(json.dumps(data))
        os.replace(partial, folder / f"{token}.json")
    except BaseException:
        os.unlink(partial)
        raise


def load(token: str) -> Kept | None:
    """The game kept under ``token``, or None (unknown, malformed, too large or over).
    ``SavesError`` if the folder for saved games cannot be used."""
    if not isinstance(token, str) or not TOKEN.fullmatch(token):
        return None
    path = saves_folder() / f"{token}.json"
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_BYTES + 1)
        data = json.loads(raw) if len(raw) <= MAX_BYTES else None
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("over") is not False:
        return None
    fields = (data.get("players"), data.get("seed"), data.get("bots"), data.get("script"))
    if not (isinstance(fields[0], int) and isinstance(fields[1], int) and isinstance(fields[2], str)
            and isinstance(fields[3], list) and all(isinstance(d, str) for d in fields[3])):
        return None
    return cast(Kept, data)


def look_up(token: str, game: str = "") -> Kept | None:
    """The game of ``game`` ("": Capital Lux; "capitol") kept under the token a reloaded page hands
    back, or None: nothing of that game kept, or a folder that cannot be used (said in the log)."""
    try:
        data = load(token)
    except SavesError as error:
        LOG.error("a kept game could not be looked for: %s", error)
        return None
    return data if data is not None and data.get("game", "") == game else None


def offered(token: str, game: str, under_way: bool, offer: W.Box) -> tuple[str, Kept] | None:
    """A page's offer to resume: the token its reloaded page handed back and the game of ``game``
    kept under it, the ``offer`` box shown; None (nothing shown) when nothing of that game is kept
    or a game is already under way on the page."""
    data = look_up(token, game)
    if data is None or under_way:
        return None
    offer.layout.display = None
    return token, data


def resume(data: Kept) -> Session:
    """The kept game replayed: the same seed, bots, decisions and undos give the same table."""
    session = Session.new(int(data["players"]), int(data["seed"]), str(data["bots"]))
    # a drawn seed stays secret after a reload: it would replay every hidden card
    session.seed_chosen = data.get("seed_chosen") is True
    for text in data["script"]:
        if text == UNDO:
            session.undo()  # IndexError if there is nothing to undo: the caller says so
        else:
            session.play(parse_action(text))  # refused if it does not fit: the caller says so
    session.seed_shown = session.seed_shown or data.get("seed_shown") is True
    return session


class Liveness:
    """The page script's check that the kernel still knows the page: the script writes its clock
    into the hidden ``ping`` field and the kernel echoes it into ``pong``. A kernel restarted empty
    after a crash has no such widgets: the echo stops, and the script tells the learner (a kernel that
    is gone or dead the script learns from the server). Put ``widgets`` on the page, once."""

    def __init__(self) -> None:
        self.ping = tagged(W.Text(layout=W.Layout(display="none")), "cl-ping")
        self.pong = W.HTML()
        self.ping.observe(lambda change: self.echo(str(change["new"])), names="value")
        self.widgets: tuple[W.Widget, ...] = (self.ping, self.pong)

    def echo(self, value: str) -> None:
        if value.isdigit() and len(value) <= 16:  # the page's clock in milliseconds, nothing else
            self.pong.value = f'<span data-cl-pong="{value}"></span>'


#: Each page's sentence when its kernel is lost: the tutorial's free game and Capitol's game are
#: kept, the exercises page keeps the answers checked and the one being typed stays on the page.
LOST: Final = {
    "tutorial": N_("The connection to the tutor's server was lost, so this page cannot play any more "
                   "(the server may have stopped or restarted your session). Reload the page: your free "
                   "game is kept, and you can resume it."),
    "capitol": N_("The connection to the tutor's server was lost, so this page cannot play any more "
                  "(the server may have stopped or restarted your session). Reload the page: your game "
                  "of Capitol is kept, and you can resume it."),
    "exercises": N_("The connection to the tutor's server was lost, so this page cannot check answers any more "
                    "(the server may have stopped or restarted your session). The answers you checked are kept: "
                    "copy the answer you are typing, reload the page and join again."),
}
#: Each page's offer to resume the game its browser kept.
OFFER: Final = {
    "tutorial": N_("This browser was playing a free game here before the page was reloaded. "
                   "It is kept: do you want to resume it?"),
    "capitol": N_("This browser was playing a game of Capitol here before the page was reloaded. "
                  "It is kept: do you want to resume it?"),
}


def page_script(lang: str, page: str = "tutorial", key: str = STORAGE_KEY) -> str:
    """The page's small script: hands a kept token to the tutor, stores new ones, and
    watches the kernel (a sentence and a reload button if it is gone). ``page``: whose sentence
    (``LOST``: the exercises page stays as it is, so an answer being typed can be copied).
    ``key``: where the browser keeps the token (one per page that keeps a game)."""
    t = translator(lang)
    lost = t.gettext(LOST[page])
    reload_label = t.gettext("Reload the page")
    return f"""<script>
(() => {{
  const KEY = {json.dumps(key)};
  const seen = () => {{
    const tag = document.querySelector('[data-cl-save]');
    if (tag) {{
      if (tag.dataset.clSave) localStorage.setItem(KEY, tag.dataset.clSave); else localStorage.removeItem(KEY);
    }}
    const input = document.querySelector('.cl-resume-token input');
    if (input && !input.dataset.clSent) {{
      input.dataset.clSent = '1';
      const token = localStorage.getItem(KEY);
      if (token) {{ input.value = token; input.dispatchEvent(new Event('input', {{bubbles: true}})); }}
    }}
  }};
  new MutationObserver(seen).observe(document.body, {{subtree: true, childList: true, attributes: true}});
  seen();
  let config = {{}};
  try {{ config = JSON.parse(document.getElementById('jupyter-config-data').textContent); }} catch (e) {{}}
  if (!config.kernelId) return;
  const url = (config.baseUrl || '/') + 'api/kernels/' + config.kernelId;
  const gone = () => {{
    if (document.querySelector('.cl-kernel-lost')) return;
    const box = document.createElement('div');
    box.className = 'cl-kernel-lost';
    box.setAttribute('role', 'alert');
    box.style.cssText = 'position:fixed;top:0;left:0;right:0;z-index:1000;padding:12px;background:#fff3cd;'
      + 'border-bottom:2px solid #8a6d3b;font:16px sans-serif';
    box.textContent = {json.dumps(lost)} + ' ';
    const button = document.createElement('button');
    button.textContent = {json.dumps(reload_label)};
    button.onclick = () => location.reload();
    box.appendChild(button);
    document.body.appendChild(box);
  }};
  // A kernel that crashed and was restarted answers the server but no longer knows this page:
  // ask it, through a hidden field, to echo a number; an idle kernel that does not is lost.
  let sent = '', sentAt = 0;
  const timer = setInterval(async () => {{
    let model = null;
    try {{
      const answer = await fetch(url, {{cache: 'no-store'}});
      model = answer.ok ? await answer.json() : null;
      if (answer.status === 404 || (model && model.execution_state === 'dead')) {{ clearInterval(timer); gone(); return; }}
    }} catch (e) {{ clearInterval(timer); gone(); return; }}
    const ping = document.querySelector('.cl-ping input');
    const pong = document.querySelector('[data-cl-pong]');
    if (!ping || document.hidden) return;
    const answered = !sent || (pong && pong.dataset.clPong === sent);
    const now = Date.now();
    if (!answered && now - sentAt > 15000 && model && model.execution_state === 'idle') {{
      clearInterval(timer); gone(); return;
    }}
    if (answered && now - sentAt > 10000) {{
      sent = String(now); sentAt = now;
      ping.value = sent;
      ping.dispatchEvent(new Event('input', {{bubbles: true}}));
    }}
  }}, 5000);
}})();
</script>"""


def cannot_keep_html(lang: str) -> str:
    """The page's sentence when its game cannot be kept (the server's path and the reason go to
    its log, not to the page)."""
    sorry = translator(lang).gettext("This game cannot be kept if the page is reloaded: the server cannot store "
                                     "saved games. Your teacher can find why in the server's log.")
    return f'<div class="cl-note cl-cannot-keep" role="status">{escape(sorry)}</div>'


def offer_html(lang: str, page: str = "tutorial") -> str:
    text = translator(lang).gettext(OFFER[page])
    return f'<div class="cl-note">{escape(text)}</div>'
