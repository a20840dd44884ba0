"""The engine core: what every game shares.

Actions and events (small immutable values), the `Rules` base class each game implements, the
registry of games, `Game` (apply actions, fold events, per-role views, seeded chance) and the
random-play simulator. Nothing here is specific to any one game, and nothing does I/O.
"""

from companion.engine.core.batch import Batch
from companion.engine.core.errors import EngineError, IllegalAction, UnknownGame, UnknownRole
from companion.engine.core.game import Game, Ply, chance_rng, fold
from companion.engine.core.phases import PhaseTable, refuse_unknown_args
from companion.engine.core.picks import Pick, PickField
from companion.engine.core.rules import (
    CHANCE,
    PUBLIC,
    REFEREE,
    GameType,
    Option,
    Rules,
    game_names,
    register,
    rules_class,
)
from companion.engine.core.rulings import Alert, Proposal, Question, Ruling
from companion.engine.core.sentence import Sentence, say
from companion.engine.core.simulate import DeadEnd, Playout, pick_action, random_playout
from companion.engine.core.values import (
    Action,
    Event,
    Outcome,
    Ranking,
    canonical_json,
    freeze,
    rank,
    thaw,
)

__all__ = [
    "CHANCE",
    "PUBLIC",
    "REFEREE",
    "Action",
    "Alert",
    "Batch",
    "DeadEnd",
    "EngineError",
    "Event",
    "Game",
    "GameType",
    "IllegalAction",
    "Option",
    "Outcome",
    "PhaseTable",
    "Pick",
    "PickField",
    "Playout",
    "Ply",
    "Proposal",
    "Question",
    "Ranking",
    "Rules",
    "Ruling",
    "Sentence",
    "UnknownGame",
    "UnknownRole",
    "canonical_json",
    "chance_rng",
    "fold",
    "freeze",
    "game_names",
    "pick_action",
    "random_playout",
    "rank",
    "refuse_unknown_args",
    "register",
    "rules_class",
    "say",
    "thaw",
]
