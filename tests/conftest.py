"""Every test, and every kernel a test starts, writes class results to a database of its own."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Set before any notebook kernel or Voila server starts, so none of them writes a
    # capital_lux_class.sqlite3 beside the notebooks or into a teacher's real database.
    folder = Path(tempfile.mkdtemp(prefix="capital-lux-test-db-"))
    os.environ["CAPITAL_LUX_DB"] = str(folder / "class.sqlite3")
