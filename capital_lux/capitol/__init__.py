"""Capitol (Moon & Weissblum, 2001), the second game of the house, in a folder of its own.

Layout: one folder per game, as PettingZoo's ``classic/<game>/`` and OpenSpiel's
``games/<game>.py``. Everything that says what Capitol *is* lives here and only here:

* ``components``: cards, districts, roofs, the pieces sold, the board (constants);
* ``notation``: the actions and their text forms, and what others see of them;
* ``state``: the frozen table, made from a seed (the only chance is the setup's shuffle);
* ``rules``: legal actions, ``apply`` (a new state or a typed refusal), auctions, scoring;
* ``rulings``: the decisions where the rulebook is silent or inconsistent, C1 to C16;
* ``views``: what one seat may know; ``record``: the JSON record and its replay;
* ``bots``: players that decide from a view.

What every game of the house *does* is not copied here but used: the error family
(``capital_lux.engine.errors``: a refusal is a ``CapitalLuxError`` whose message is a
catalogue text), ``N_`` and the catalogues of ``capital_lux.i18n``, a seeded
``random.Random`` passed in (never the global one), the records' JSON conventions (a
``format``/``version``/``players``/``seed``/``actions``/``scores`` object read through the
engine's size- and depth-guarded JSON reader), and the bots' protocol (``name`` and
``choose(view, rng)`` returning one of the view's legal actions).

The folder is one layer of the stack (``tests/test_layers.py``): beside ``players``, above
the engine and i18n, below the analyses, pages and command line. Inside it the rules
(``components`` to ``record``) import nothing above the engine, so the rules stay as pure
as Capital Lux's engine; only ``bots`` and ``text`` may use the catalogues.
"""
