"""Tabletop Companion: watches a physical board wargame, referees it and records it."""

__version__ = "0.1.0"
