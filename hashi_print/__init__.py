"""hashi_print: Hashi print kits, SAT-proven puzzle books, and a sheet validator."""

__version__ = "0.1.0"
