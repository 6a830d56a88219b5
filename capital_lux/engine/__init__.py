"""The rules engine: cards, notation, state, rules, views, seeded games and positions.

Pure and seeded: no widget, chart or bot is imported here.
"""
