"""Sekigahara (GMT Games): set-up, the weekly cycle, movement, recruitment, overrun, Mori and
victory (chapters 2-7 and 9.3 of the rules; docs/sekigahara.md has the interpretations).

Options: `knowledge` is `full` (the engine deals every card: simulation, tests) or `table` (the
physical game: hands are unknown, cards are checked for consistency with what was seen);
`edition` is `2016` (default) or `2011` where the two rulebooks differ.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

from companion.engine.core import (
    CHANCE,
    Action,
    Event,
    GameType,
    IllegalAction,
    Option,
    Outcome,
    PhaseTable,
    Pick,
    Rules,
    Sentence,
    register,
)
from companion.games.sekigahara.kit import SIDES, SekigaharaKit
from companion.games.sekigahara.rules import legal, picks, words
from companion.games.sekigahara.rules.aftermath import (
    casualties_due,
    decide_casualties,
    decide_retreat,
)
from companion.games.sekigahara.rules.battle import (
    decide_challenge,
    decide_defect,
    decide_deploy,
    decide_done,
    decide_prove,
    initiative,
)
from companion.games.sekigahara.rules.cards import deal, sample_deal
from companion.games.sekigahara.rules.combat import decide_castle, decide_declare
from companion.games.sekigahara.rules.context import Batch, Context, other
from companion.games.sekigahara.rules.corrections import REVEALING, correct
from companion.games.sekigahara.rules.mori import decide_mori
from companion.games.sekigahara.rules.movement import decide_end_movement, decide_level, decide_move
from companion.games.sekigahara.rules.names import side_said
from companion.games.sekigahara.rules.offers import keep_accepted
from companion.games.sekigahara.rules.recruitment import decide_recruit
from companion.games.sekigahara.rules.setup import (
    check_setup,
    decide_draw_blocks,
    initial_state,
    sample_draw_blocks,
    setup_actions,
)
from companion.games.sekigahara.rules.state import SekigaharaState, evolve
from companion.games.sekigahara.rules.views import view
from companion.games.sekigahara.rules.weekly import (
    advance,
    decide_bid,
    decide_choose_first,
    decide_discard,
)
from companion.i18n import translator

__all__ = ["SekigaharaRules", "SekigaharaState", "check_setup", "setup_actions"]

Handler = Callable[[Context, Batch, Action], None]

PHASES: PhaseTable[Handler] = PhaseTable({
    "reinforcements": {"discard": decide_discard},
    "bid": {"bid": decide_bid},
    "first_player": {"choose_first": decide_choose_first},
    "movement": {"movement_level": decide_level, "move": decide_move,
                 "recruit": decide_recruit, "mori": decide_mori,
                 "end_movement": decide_end_movement},
    "combat": {"declare": decide_declare, "castle": decide_castle, "deploy": decide_deploy,
               "done": decide_done, "challenge": decide_challenge, "prove": decide_prove,
               "defect": decide_defect, "casualties": decide_casualties,
               "retreat": decide_retreat},
}, {"reinforcements": "6.2", "bid": "6.3", "first_player": "6.3", "movement": "7.1",
    "combat": "8.1", "setup": "5.2"}, default_rule="6.1", takes={
    "discard": ("cards",), "bid": ("card",), "choose_first": ("first",),
    "movement_level": ("level", "cards"),
    "move": ("from", "paths", "leader", "forced_march", "marching", "forced_marches"),
    "recruit": ("blocks", "to"), "mori": ("cards",), "end_movement": (),
    "declare": ("at",), "castle": ("inside",), "deploy": ("block", "card", "also"),
    "done": (), "challenge": ("card",), "prove": ("card",), "defect": (),
    "casualties": ("blocks",), "retreat": ("to", "castle")})
"""Each phase's verbs (with the rule that says what the phase is for) and the arguments each
verb takes (a misspelt one is refused by name)."""


@register
class SekigaharaRules(Rules[SekigaharaState, SekigaharaKit]):
    game_type = GameType(
        name="sekigahara", title="Sekigahara", kit="sekigahara", min_players=2, max_players=2,
        chance=True, hidden_information=True,
        rulebook="shared/seeds/sekigahara-rules-de-2016-yucata.txt (2016)",
        turn_rule="6.4", end_rule="2", setup_rule="5", lists_every_action=False,
        options=(
            Option("knowledge", "full", ("full", "table"),
                   help="full: the companion deals and draws; table: hands are counted, the "
                   "players' cards and bag draws come from the table"),
            Option("edition", "2016", ("2016", "2011"), help="the rulebook's edition"),
        ),
    )

    @cached_property
    def ctx(self) -> Context:
        return Context(self.kit, self.options["knowledge"], self.options["edition"])

    @property
    def roles(self) -> tuple[str, ...]:
        return SIDES

    def initial_state(self) -> SekigaharaState:
        return initial_state(self.ctx)

    def to_move(self, state: SekigaharaState) -> tuple[str, ...]:
        if state.outcome is not None:
            return ()
        if state.pending:
            return (CHANCE,)
        if state.phase == "reinforcements":
            return tuple(s for s in SIDES if state.owed_discards.get(s, 0) > 0)
        if state.phase == "bid":
            return tuple(s for s in SIDES if s not in state.bids and state.hands[s].count > 0)
        if state.phase == "combat":
            return self._combat_to_move(state)
        return (state.active,) if state.active else ()

    def turn_rule(self, state: SekigaharaState) -> str:
        """Who may act is ruled by the phase: bids (6.3), initiative (8.5), a siege (8.9.4),
        the castle's holder choosing to stay inside or not (8.9.2)..."""
        if state.phase == "combat" and state.castle_choice is not None:
            return "8.9.2"
        battle = state.battle
        if state.phase == "combat" and battle is not None:
            if battle.challenge is not None:
                return "8.6.1"
            return {"deploy": "8.9.4" if battle.siege else "8.5", "casualties": "8.7.2",
                    "retreat": "8.8.1"}[battle.stage]
        return {"reinforcements": "6.2", "bid": "6.3", "first_player": "6.3",
                "combat": "8.1"}.get(state.phase, "6.4")

    def _combat_to_move(self, state: SekigaharaState) -> tuple[str, ...]:
        battle = state.battle
        if state.castle_choice is not None:
            return (state.castles[state.castle_choice[0]],)
        if battle is None:
            return (state.active,) if state.active else ()
        if battle.stage == "retreat":
            return (other(battle.winner or battle.defender),)
        if battle.stage == "casualties":
            due = casualties_due(self.ctx, state)
            return (due[0],) if due else ()
        if battle.challenge is not None:
            return (other(battle.challenge[0]),)
        roles = [initiative(battle)]
        challenger = self._challenger(state)
        if challenger:
            roles.append(challenger)
        return tuple(dict.fromkeys(r for r in roles if r))

    def _challenger(self, state: SekigaharaState) -> str | None:
        """The side that may play a loyalty card now (8.6.1), if it could hold one."""
        battle = state.battle
        assert battle is not None
        group = [d for d in battle.deployments if d.group == battle.challenge_open]
        if not group or group[0].immune or battle.siege:
            return None
        side = other(group[0].side)
        hand = state.hands[side]
        # Whether it *could* hold one, never whether it does: who may act is public (3.3).
        loyal = {c.id for c in self.kit.cards if c.side == side and c.kind == "loyalty"}
        return side if (loyal - hand.discard) and hand.count else None

    def legal_actions(self, state: SekigaharaState, role: str) -> Sequence[Action]:
        """Every legal action, except where the choices are combinatorial (which cards to
        discard, how to split a stack), where a representative sample that the rules accept."""
        if role not in self.to_move(state) or role == CHANCE:
            return []
        candidates = legal.candidates(self.ctx, state, role)
        return [a for a in candidates if self.accepts(state, a)]

    def random_action(self, state: SekigaharaState, role: str,
                      rng: random.Random) -> Action | None:
        """A random candidate the rules accept, trying candidates in random order."""
        if role not in self.to_move(state) or role == CHANCE:
            return None
        candidates = legal.candidates(self.ctx, state, role)
        rng.shuffle(candidates)
        return next((a for a in candidates if self.accepts(state, a)), None)


    def decide(self, state: SekigaharaState, action: Action) -> Sequence[Event]:
        """The action's events; a refusal suggests only actions this method accepts."""
        try:
            return self._decide(state, action)
        except IllegalAction as error:
            raise keep_accepted(error, lambda a: self.accepts(state, a)) from None

    def accepts(self, state: SekigaharaState, action: Action) -> bool:
        """Whether `decide` takes the action (without sorting out a refusal's suggestions)."""
        try:
            self._decide(state, action)
        except IllegalAction:
            return False
        return True

    def _decide(self, state: SekigaharaState, action: Action) -> Sequence[Event]:
        batch = Batch(state)
        if action.role == CHANCE:
            self._chance(batch, action)
        else:
            PHASES.dispatch(state.phase, action)(self.ctx, batch, action)
        advance(self.ctx, batch)
        return batch.events

    def _chance(self, batch: Batch, action: Action) -> None:
        if action.verb == "draw_blocks":
            decide_draw_blocks(self.ctx, batch, action)
            return
        side = action.args.get("side")
        pending = next((p for p in batch.state.pending if p.kind == "cards" and p.side == side),
                       None)
        if action.verb != "deal" or pending is None:
            due = [Sentence("{kind} {side} {count}", side=side_said(p.side), count=p.count,
                            kind=Sentence("cards") if p.kind == "cards" else Sentence("blocks"))
                   for p in batch.state.pending]
            raise IllegalAction("3.3", Sentence("no cards are drawn for {side} now",
                                                side=side_said(side)), legal=due)
        cards = action.args.get("cards")
        if not isinstance(cards, tuple):
            raise IllegalAction("3.3", "a deal names the cards drawn")
        deal(self.ctx, batch.state, batch, str(side), [str(c) for c in cards], pending)

    def correct(self, state: SekigaharaState, action: Action) -> Sequence[Event]:
        """`referee correct {block, to}`: the block really stands at `to` (a location, a box,
        the bag or the eliminated blocks); control follows (4.2, 4.3)."""
        return correct(self.ctx, state, action)

    def undo_barrier(self, action: Action, events: Sequence[Event]) -> bool:
        """No undo past a draw or a reveal: chance, bids shown, deployments, challenges..."""
        return action.role == CHANCE or any(e.type in REVEALING for e in events)

    def evolve(self, state: SekigaharaState, event: Event) -> SekigaharaState:
        return evolve(state, event)

    def view(self, state: SekigaharaState, role: str) -> dict[str, Any]:
        return view(self.ctx, state, role, self.to_move(state))

    def outcome(self, state: SekigaharaState) -> Outcome | None:
        return state.outcome

    def say(self, state: SekigaharaState, action: Action, viewer: str, lang: str = "en") -> str:
        """The action in a player's words, hiding from `viewer` what 3.1 and 3.3 hide
        (words.py): "March 3 blocks Osaka → Kyoto by highway"."""
        return words.say(self.kit, state, action, viewer, lang)

    def begins_turn(self, event: Event) -> bool:
        """A turn is a side's movement phase (6.1: turns A and B of each week)."""
        return event.type == "PhaseBegan" and event.data.get("phase") == "movement"

    def rule_summary(self, rule: str, lang: str = "en") -> str:
        """One line of our own for the rule (or the rule it is part of), data/rule_summaries."""
        return words.rule_summary(rule, lang)

    def piece_name(self, piece: str, lang: str = "en") -> str:
        """A block or a card as players name it ("Mōri 3", "Maeda swords card")."""
        t = translator(lang, "companion.games.sekigahara")
        if piece in self.kit.block:
            return words.block_name(self.kit, piece, t)
        if piece in self.kit.card:
            return words.card_name(self.kit, piece, t)
        return piece

    def picks(self, state: SekigaharaState, lang: str = "en") -> list[Pick]:
        """The bag draws and deck draws due, as the referee enters them by hand (picks.py)."""
        return picks.picks(self.ctx, state, lang)

    def marks(self, state: SekigaharaState, action: Action) -> dict[str, Any]:
        """A move's arrows, a retreat's arrow, the place of a fight or an arrival."""
        return words.marks(self.kit, state, action)

    def sample_chance(self, state: SekigaharaState, rng: random.Random) -> Action:
        pending = state.pending[0]
        if pending.kind == "blocks":
            return sample_draw_blocks(self.ctx, state, pending, rng)
        return Action(CHANCE, "deal", sample_deal(self.ctx, state, pending, rng))


