"""Which verbs a phase takes, declared as data: phase -> verb -> handler, with the rule cited
when someone tries a verb the phase does not take (as Rally the Troops' states list one
handler per verb). Every game dispatches its `decide` through one of these."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

from companion.engine.core.errors import IllegalAction

__all__ = ["PhaseTable"]

H = TypeVar("H")


class PhaseTable(Generic[H]):
    def __init__(self, verbs: Mapping[str, Mapping[str, H]], rules: Mapping[str, str],
                 default_rule: str) -> None:
        self._verbs = verbs
        self._rules = rules
        self._default_rule = default_rule

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
            raise IllegalAction(self.rule(phase), f"'{verb}' is not possible in the {phase} "
                                "phase", legal=self.verbs(phase))
        return handler
