"""hashi_print: print kits for the Hashi roll-and-write game, SAT-proven puzzle books, and a sheet validator."""

__version__ = "0.1.0"
