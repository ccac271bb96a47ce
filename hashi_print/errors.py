"""The one exception family of hashi_print: bad input and broken rules, said with where."""

from __future__ import annotations


class HashiError(ValueError):
    """Something the user gave us is wrong; the message says what and where."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line

    def located(self, source: str | None = None, line: int | None = None) -> HashiError:
        """Return a copy of this error that names the file and line, keeping what is already set."""
        return type(self)(
            self.message,
            source=self.source if self.source is not None else source,
            line=self.line if self.line is not None else line,
        )

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source
        if self.line is not None:
            where = f"{where} line {self.line}" if where else f"line {self.line}"
        return f"{where}: {self.message}" if where else self.message


class RefusedRequest(HashiError):
    """A request the server refuses; `status` is the HTTP status it answers with."""

    status = 400


class FormatError(HashiError):
    """A file, ID or URL cannot be read as the format it claims to be."""


class PuzzleError(HashiError):
    """A puzzle is well-formed text but not a valid puzzle (e.g. a clue its island cannot reach)."""


class UnsolvableError(PuzzleError):
    """A well-formed puzzle that cannot have a solution (a clue above what its lanes can carry)."""


class RuleError(HashiError):
    """A move or a sheet breaks a rule of the game; `rule` names which."""

    def __init__(self, message: str, *, rule: str = "rule", where: str = "", source: str | None = None,
                 line: int | None = None):
        super().__init__(message, source=source, line=line)
        self.rule = rule
        self.where = where

    def located(self, source: str | None = None, line: int | None = None) -> RuleError:
        """Return a copy of this error that names the file and line, keeping what is already set."""
        return RuleError(
            self.message, rule=self.rule, where=self.where,
            source=self.source if self.source is not None else source,
            line=self.line if self.line is not None else line,
        )


class OutputError(HashiError):
    """A file or folder cannot be written where the user asked (checked before long work starts)."""


class LayoutError(HashiError):
    """A board side, deck or scoring file breaks its format's constraints."""


class OptionError(HashiError):
    """A command's option makes no sense: an unknown paper or trim, a count or size out of range."""


class BankError(HashiError):
    """A puzzle bank cannot be opened, is busy, or cannot give what was asked of it."""
