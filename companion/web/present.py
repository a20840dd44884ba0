"""Turning a hub view into what a screen receives (the same for the API and the stream)."""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlsplit

import segno

__all__ = ["present", "qr_svg"]


def qr_svg(text: str) -> str:
    """A QR code as inline SVG: phones pair by scanning it off the table display (4). It has a
    viewBox and no fixed size, so the page can size it whole (a fixed size is cropped, not
    scaled, and a cropped code does not scan)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, xmldecl=False, svgns=True,
                                     omitsize=True)
    return out.getvalue().decode()


def present(role: str, view: dict[str, Any]) -> dict[str, Any]:
    """The message for a screen of `role`: the view, with pairing links drawn as QR codes
    (only the referee's view has any), and the table's address a phone types instead."""
    pairing = {who: {"qr": qr_svg(offer["url"]) if offer.get("url") else None,
                     "digits": offer.get("digits"), "code": offer.get("code"),
                     "address": _address(offer.get("url"))}
               for who, offer in view.get("pairing", {}).items()}
    return {"role": role, **view, "pairing": pairing}


def _address(url: str | None) -> str | None:
    """Where a phone opens to type the six digits: the pairing link's host (the table's
    public address), never the address the referee's browser happens to use."""
    if not url:
        return None
    return urlsplit(url).netloc + "/play"
