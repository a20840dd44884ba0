"""Referee: a table session joining sensors, engine, record and views.

`SekigaharaReferee` turns what the table shows (stable diffs from the vision tracker, card
scans, button presses) into engine actions, asks when a diff fits more than one action, and
raises an alert (with the rule) when the table shows something illegal, waiting in a desync
state until the table is put back. The live session (camera loop, lights, tablet questions) is
built on it.
"""

from companion.referee.registry import TableRegistry
from companion.referee.sekigahara import Alert, Proposal, Question, SekigaharaReferee

__all__ = ["Alert", "Proposal", "Question", "SekigaharaReferee", "TableRegistry"]
