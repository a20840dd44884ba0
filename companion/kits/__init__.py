"""Game component data (maps, cards, pieces) as YAML files, validated into frozen objects.

Kits are data, rules are code: the engine looks constants up here by name. `load_kit` takes a
shipped kit's name or a folder holding a user's edited copy, and raises `KitError` listing every
problem with its file, line and entry.
"""

from companion.kits import rumble_nation, sekigahara, skirmish
from companion.kits.loader import Kit, KitManifest, KitSpec, load_kit, register_spec, shipped_kits
from companion.kits.problems import KitError, KitProblem
from companion.kits.sekigahara import SekigaharaKit
from companion.kits.skirmish import SkirmishKit

__all__ = [
    "Kit", "KitError", "KitManifest", "KitProblem", "KitSpec", "SekigaharaKit", "SkirmishKit",
    "load_kit", "register_spec", "rumble_nation", "sekigahara", "shipped_kits", "skirmish",
]
