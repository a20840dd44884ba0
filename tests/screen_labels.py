"""What every game's screen test measures of its board's labels in a real browser (issue 32: a
board four players read at 1.5 m): each visible text's size as drawn, after the board's scaling
on the screen, and that no two visible texts overlap."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

READ_AT_TABLE = 18.0
"""The least size (CSS px) a board's label is drawn on the 1280x800 table page (issue 32)."""

LABELS = """board => Array.from(board.querySelectorAll('text')).filter(n =>
        n.textContent.trim() && n.checkVisibility({checkVisibilityCSS: true})
        && n.getBoundingClientRect().width > 0).map(n => {
    const r = n.getBoundingClientRect();
    const ctm = n.getScreenCTM();
    return {text: n.textContent.trim(), cls: n.getAttribute('class') || '',
            x: r.x, y: r.y, w: r.width, h: r.height,
            size: parseFloat(getComputedStyle(n).fontSize) * Math.hypot(ctm.a, ctm.b)};
})"""


def labels(page: Page, board: str) -> list[dict[str, Any]]:
    """Every visible text of the board (`board` a selector of its SVG): its text, class, box on
    the screen (CSS px) and its font's size as drawn (computed size times the board's scale)."""
    page.wait_for_function("""sel => { const b = document.querySelector(sel);
        return b && b.getBoundingClientRect().width > 0; }""", arg=board, timeout=5000)
    return page.eval_on_selector(board, LABELS)


def too_small(found: list[dict[str, Any]], least: float = READ_AT_TABLE) -> list[str]:
    """The labels drawn under `least` px, said as text, class and size."""
    return [f"{n['text']!r} ({n['cls']}) {n['size']:.1f} px" for n in found if n["size"] < least]


def overlapping(found: list[dict[str, Any]], slack: float = 1.0) -> list[str]:
    """Each pair of labels whose boxes overlap by more than `slack` px both ways."""
    pairs = []
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            across = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            down = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if across > slack and down > slack:
                pairs.append(f"{a['text']!r} ({a['cls']}) / {b['text']!r} ({b['cls']})")
    return pairs
