"""Numbers about a position: exact and simulated risk, simulation runs, charts."""
