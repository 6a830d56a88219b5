"""``python -m capital_lux``: the command line (``capital_lux.cli``)."""

import sys

from .cli.main import run

if __name__ == "__main__":
    sys.exit(run())
