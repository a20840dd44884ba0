"""Game component data (maps, cards, pieces) as YAML files, validated into frozen objects.

Kits are data, rules are code: the engine looks constants up here by name. Each game's kit
module (in its game folder) registers a `KitSpec` and the kit its package ships; `load_kit`
takes a shipped kit's name or a folder holding a user's edited copy, and raises `KitError`
listing every problem with its file, line and entry.
"""

from companion.kits.loader import (
    Kit,
    KitManifest,
    KitSpec,
    load_kit,
    register_spec,
    shipped_folder,
    shipped_kits,
)
from companion.kits.problems import KitError, KitProblem

__all__ = [
    "Kit", "KitError", "KitManifest", "KitProblem", "KitSpec", "load_kit", "register_spec",
    "shipped_folder", "shipped_kits",
]
