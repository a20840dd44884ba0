"""The rules engine: a pure, deterministic function of (kit, options, actions).

Importing this package registers every game's rules. It imports no OpenCV, Flask or hardware
library and never touches files, clocks or the network.
"""

from companion.engine import rumble_nation, sekigahara, skirmish
from companion.engine.core import *  # noqa: F403
from companion.engine.core import __all__ as _core_all

__all__ = [*_core_all, "rumble_nation", "sekigahara", "skirmish"]
