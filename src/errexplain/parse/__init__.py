"""Pasted text -> `RaisedError` records: the line lexer and classifier (`lines`) and the
traceback state machine with chains, groups and ranks (`traceback`). Pure and linear-time."""

from errexplain.parse.traceback import parse_traceback

__all__ = ["parse_traceback"]
