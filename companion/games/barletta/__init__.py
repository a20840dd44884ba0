"""La Disfida di Barletta (Marco Rossi, Acies edizioni): 13 Italian and 13 French knights on a
hex grid. The rules (`rules/`, one module per chapter of the Italian rulebook), the kit
(`kit.py`, `hexes.py`, `data/`: the field, the knights, the melee and surrender tables as
data), registering a copy's own values (`physical_set.py`), the tablet screen (`screen.js`,
issue #22 part 2). No table reading yet."""

from companion.games import GameSpec
from companion.games.barletta import kit as kit
from companion.games.barletta.rules import BarlettaRules

GAME = GameSpec(
    name="barletta", title="La Disfida di Barletta", rules=BarlettaRules, kit="barletta",
    aliases=("disfida", "disfida-di-barletta", "disfida_di_barletta"),
    register="physical_set:REGISTRATION", screen="screen.js",
)
