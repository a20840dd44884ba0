"""The rules engine: a pure, deterministic function of (kit, options, actions).

`companion.engine.core` is what every game shares; each game's rules live in its own folder
(`companion/games/<name>/rules/`) and register with the core when the game is first asked for
by name. It imports no OpenCV, Flask or hardware library and never touches files, clocks or the
network.
"""

from companion.engine.core import *  # noqa: F403
from companion.engine.core import __all__ as _core_all

__all__ = [*_core_all]
