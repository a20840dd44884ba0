"""Refusals that suggest concrete actions, and keeping only the suggestions the rules accept.

A refusal read out at the table ("the Kyoto-Minakuchi road was already used; legal: ...") is
acted on at once: a suggestion the rules then refuse in turn would mislead the players. So a
rule module names each suggestion together with the action behind it (`refusal`), and
`SekigaharaRules.decide` keeps only the pairs whose action it accepts (`keep_accepted`) before
the refusal leaves the engine: the words come from actions `decide` takes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.engine.core import Action, IllegalAction

__all__ = ["Offer", "keep_accepted", "refusal"]

Offer = tuple[str, Action]
"""A suggestion in a player's words and the action behind it."""


def refusal(rule: str, message: str, offers: Sequence[Offer]) -> IllegalAction:
    """An IllegalAction whose `legal` words and `alternatives` are the offers, pair by pair."""
    return IllegalAction(rule, message, legal=[word for word, _ in offers],
                         alternatives=[action for _, action in offers])


def keep_accepted(error: IllegalAction, accepts: Callable[[Action], bool]) -> IllegalAction:
    """The same refusal with only the suggestions `accepts` takes (and their words).

    A refusal without alternatives suggests no concrete action and is returned as it is.
    """
    if not error.alternatives:
        return error
    if len(error.legal) != len(error.alternatives):
        raise ValueError(f"rule {error.rule}: each suggested action needs its words")
    kept = [(word, action) for word, action in zip(error.legal, error.alternatives, strict=True)
            if accepts(action)]
    return IllegalAction(error.rule, error.message, action=error.action,
                         legal=[word for word, _ in kept],
                         alternatives=[action for _, action in kept])
