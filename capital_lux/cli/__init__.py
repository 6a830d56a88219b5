"""The command line: play, simulate, replay and bench."""
