"""Referee: a table session joining sensors, engine, record and views.

Turns table diffs and input events into engine actions, asks on the tablet when a diff is
ambiguous, and raises legality alerts. Built by "The referee at work" issue; empty until then.
"""
