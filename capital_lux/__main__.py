"""The command line: ``python -m capital_lux SUBCOMMAND`` (also ``capital-lux``)."""

from __future__ import annotations

import argparse
import json
import sys

from . import bench


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="capital-lux", description="Capital Lux: engine, players and tutor.")
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("bench", help="print every benchmark's figures as JSON")
    b.add_argument("names", nargs="*", help=f"benchmarks to run (default all: {', '.join(bench.BENCHMARKS)})")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "bench":
        try:
            figures = bench.run(args.names)
        except ValueError as e:
            parser.error(str(e))
        json.dump(figures, sys.stdout, indent=2)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
