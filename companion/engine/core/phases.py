"""Which verbs a phase takes, declared as data: phase -> verb -> handler, with the rule cited
when someone tries a verb the phase does not take (as Rally the Troops' states list one
handler per verb), and which arguments each verb takes, so that a misspelt argument
(`forced_marchs`) is refused by name instead of passing as if left out. Every game dispatches
its `decide` through one of these."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

from companion.engine.core.errors import IllegalAction
from companion.engine.core.sentence import Sentence
from companion.engine.core.values import Action

__all__ = ["PhaseTable", "refuse_unknown_args"]

H = TypeVar("H")


class PhaseTable(Generic[H]):
    def __init__(self, verbs: Mapping[str, Mapping[str, H]], rules: Mapping[str, str],
                 default_rule: str, takes: Mapping[str, Iterable[str]] | None = None) -> None:
        """`takes`: verb -> the argument names it takes (verbs not named are not checked)."""
        self._verbs = verbs
        self._rules = rules
        self._default_rule = default_rule
        self._takes = {verb: frozenset(names) for verb, names in (takes or {}).items()}

    def verbs(self, phase: str) -> list[str]:
        """The verbs `phase` takes, sorted."""
        return sorted(self._verbs.get(phase, {}))

    def rule(self, phase: str) -> str:
        """The rule that says what a phase is for (cited when a verb does not belong)."""
        return self._rules.get(phase, self._default_rule)

    def handler(self, phase: str, verb: str) -> H:
        """The verb's handler in `phase`; IllegalAction (with the phase's rule and the verbs
        it does take) when there is none."""
        handler = self._verbs.get(phase, {}).get(verb)
        if handler is None:
            raise IllegalAction(self.rule(phase), Sentence(
                "'{verb}' is not possible in the {phase} phase", verb=verb, phase=phase),
                legal=self.verbs(phase))
        return handler

    def dispatch(self, phase: str, action: Action) -> H:
        """The handler for `action` in `phase`, once its verb belongs to the phase and its
        arguments are ones the verb takes."""
        handler = self.handler(phase, action.verb)
        if action.verb in self._takes:
            refuse_unknown_args(action.args, self._takes[action.verb], self.rule(phase),
                                f"'{action.verb}'")
        return handler


def refuse_unknown_args(args: Mapping[str, Any], allowed: Iterable[str], rule: str,
                        what: str) -> None:
    """IllegalAction naming each argument `what` does not take, and the ones it does."""
    takes = sorted(allowed)
    unknown = sorted(set(args) - set(takes))
    if unknown:
        names = ", ".join(f"'{k}'" for k in unknown)
        listed = ", ".join(takes) if takes else Sentence("nothing")
        raise IllegalAction(rule, Sentence("{what} takes no {names} (it takes: {listed})",
                                           what=what, names=names, listed=listed))
