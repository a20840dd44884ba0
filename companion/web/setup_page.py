"""The first-run set-up as a page (`companion setup --page`), for the referee on the tablet.

Mounting the camera is a job for two people, one on the ladder and one looking at a screen: the
page shows the camera's live preview with the calibration drawn on every frame (corner markers
found and missing, the board and its zones projected from the fit, the fit in millimetres;
another game's mat, known by its own corner markers, refused by name; a source that cannot
work, the last one tried, said as such),
saves the calibration as `companion calibrate` does, into the user's data folder, and gives
what else the first evening needs: the address the phones use (changed here, saved in
settings.yaml as `companion setup --public-url` saves it), the referee's link as a QR code,
and the table mat for the chosen game.

The page is served before any game exists, so this is one of the referee's own small apps
(no hub; `companion.web.referee_page`): the page itself carries nothing; every `/setup/api/`
route needs the referee's token as a bearer token (the page reads it from its link's fragment,
as the referee's screen does), since the page shows the referee's link and the camera's view of
the table. The host is checked, bodies and texts are bounded, changes need JSON from this page
(CSRF), and the preview is taken at most a few times a second however many ask
(`companion.vision.preview.LivePreview`).
"""

from __future__ import annotations

import io
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, abort, current_app, jsonify, request, send_file
from flask.typing import ResponseReturnValue

from companion.games import MissingCapability, UnknownGameName, all_games, game
from companion.i18n import language, translator
from companion.settings import Settings, SettingsError, load_settings, save_settings
from companion.userdata import calibration_folder
from companion.vision.geometry import Geometry
from companion.vision.preview import MAX_SOURCE, LivePreview, PreviewFrame, to_jpeg, with_caption
from companion.vision.tags import camera_warning
from companion.web.auth import MAX_BODY, body
from companion.web.present import qr_svg
from companion.web.referee_page import RefereePage, create_page_app, extension, serve_page

__all__ = ["SetupOptions", "create_setup_app", "serve_setup_page"]

MAX_URL = 300
"""Characters of a public address typed on the page."""
SUGGESTED = ("pi", "usb:0", "usb:1")
"""Cameras the page offers by name, besides the one in use (any other can be typed)."""
PLACED = "{seen} of {total} corners, fit {fit} mm"
NOT_PLACED = "{seen} of {total} corners: the board cannot be placed"


@dataclass(frozen=True)
class SetupOptions:
    referee_token: str
    game: str
    """The game whose board the preview places first (the page can choose another)."""
    source: str = "usb:0"
    """The camera shown first: pi, usb:N, usb:/dev/videoN, folder:PATH or video:PATH."""
    public_url: str = "http://127.0.0.1:8000"
    """Where the phones reach the table when settings.yaml says nowhere."""
    host: str = "0.0.0.0"
    port: int = 8000
    fps: float = 2.0
    """Preview frames a second, at most."""
    host_names: tuple[str, ...] = ()


@dataclass
class SetupState:
    """What the page works on: the preview, and each game's board once loaded."""

    options: SetupOptions
    game: str
    preview: LivePreview
    boards: dict[str, Geometry] = field(default_factory=dict)

    def board(self, name: str) -> Geometry:
        if name not in self.boards:
            self.boards[name] = game(name).board_geometry()
        return self.boards[name]


def calibrated_games() -> dict[str, str]:
    """The games whose board a camera places (name -> title)."""
    return {name: spec.title for name, spec in all_games().items() if spec.has("board")}


def create_setup_app(options: SetupOptions) -> Flask:
    """The set-up page's app; ValueError naming the problem for a camera or game it cannot
    show (before anything is served)."""
    chosen = _calibrated(options.game)
    boards = {name: game(name).board_geometry() for name in calibrated_games()}
    titles = {title: boards[name] for name, title in calibrated_games().items()}
    preview = LivePreview(options.source, boards[chosen], fps=min(max(options.fps, 0.2), 5.0),
                          boards=titles)  # another game's mat is named, never fitted
    return create_page_app(PAGE, bp, SetupState(options, chosen, preview, boards),
                           options.referee_token, options.host, options.host_names)


def _calibrated(name: str) -> str:
    """A game's name, if its board can be placed; ValueError naming the games that can."""
    try:
        game(name).need_board()
        return game(name).name
    except (UnknownGameName, MissingCapability) as exc:
        raise ValueError(f"{exc} (the camera places the board of "
                         f"{', '.join(calibrated_games())})") from None


def _state() -> SetupState:
    return extension(SetupState, bp.name)


bp = Blueprint("setup", __name__)
PAGE = RefereePage(
    name="setup", path="/setup", api="/setup/api/",
    no_token="the set-up page is the referee's: open it with the link companion setup --page "
             "printed (it carries the referee's token)",
    wrong_token="this link's token is not the referee's: open the link companion setup --page "
                "(or companion referee-link) prints",
    limits="20 per second;900 per minute", max_body=MAX_BODY, max_form=MAX_BODY)


@bp.get("/setup/api/state")
def state() -> ResponseReturnValue:
    return jsonify(_described())


def _described() -> dict[str, Any]:
    """The address, the referee's link and its QR code, the games and the camera in use."""
    current = _state()
    try:
        address = load_settings().public_url or current.options.public_url
    except SettingsError as exc:
        abort(409, f"{exc} (fix or delete it, or run companion setup again)")
    link = f"{address}/referee#token={current.options.referee_token}"
    sources = list(dict.fromkeys([current.preview.source, *SUGGESTED]))
    return {"public_url": address, "play_url": f"{address}/play", "referee_link": link,
            "referee_qr": qr_svg(link), "games": calibrated_games(), "game": current.game,
            "source": current.preview.source, "sources": sources,
            "fps": current.preview.fps}


@bp.post("/setup/api/public-url")
def public_url() -> ResponseReturnValue:
    """Save where the phones reach the table (settings.yaml, as companion setup does),
    keeping every other setting."""
    typed = _text(body(), "public_url", MAX_URL)
    try:
        kept = load_settings()
        chosen = Settings.model_validate({**kept.model_dump(), "public_url": typed.strip()})
        save_settings(chosen)
    except SettingsError as exc:
        abort(409, str(exc))
    except ValueError as exc:
        abort(400, _first_problem(exc))
    except OSError as exc:
        abort(507, f"the settings cannot be saved: {exc.strerror}")
    return jsonify(_described())


def _first_problem(exc: ValueError) -> str:
    """A validation error as one sentence (pydantic's own text names its internals)."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        return str(errors()[0]["msg"]).removeprefix("Value error, ")
    return str(exc)


@bp.post("/setup/api/camera")
def camera() -> ResponseReturnValue:
    """Show another camera and/or another game's board."""
    data = body()
    current = _state()
    chosen = _calibrated_or_400(_text(data, "game", 64)) if "game" in data else None
    source = _text(data, "source", MAX_SOURCE) if "source" in data else None
    try:
        current.preview.switch(source, current.board(chosen) if chosen else None)
    except ValueError as exc:
        abort(400, str(exc))
    except TimeoutError as exc:
        abort(503, str(exc))
    if chosen:
        current.game = chosen
    return jsonify(_described())


def _calibrated_or_400(name: str) -> str:
    try:
        return _calibrated(name)
    except ValueError as exc:
        abort(400, str(exc))


def _text(data: dict[str, Any], key: str, most: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        abort(400, f"send {key} as text")
    if len(value) > most:
        abort(400, f"{key} has at most {most} characters")
    return value


@bp.get("/setup/api/preview")
def preview() -> ResponseReturnValue:
    """The newest preview frame as a JPEG, its check (corners, fit) in the X-Companion-Check
    header as JSON; when the camera gives no frame, JSON saying why (`problem`)."""
    frame = _state().preview.latest()
    check = _check(frame)
    if frame.image is None or frame.check is None:
        return jsonify(check)
    image = with_caption(frame.image, _caption(frame, _lang()),
                         _goodness(frame))
    response = current_app.response_class(to_jpeg(image), mimetype="image/jpeg")
    response.headers["X-Companion-Check"] = json.dumps(check, ensure_ascii=True)
    response.headers["Cache-Control"] = "no-store"
    return response


def _check(frame: PreviewFrame) -> dict[str, Any]:
    found: dict[str, Any] = {"frame": frame.number, "source": frame.source,
                             "status": frame.status[:300], "problem": frame.problem[:300]}
    if frame.check is not None and frame.frame is not None:
        found |= frame.check.summary()
        found["problem"] = frame.check.problem
        found["size"] = [int(frame.frame.shape[1]), int(frame.frame.shape[0])]
        current = _state()  # frames too coarse for the board's tags: said before play
        found["warning"] = camera_warning(current.board(current.game),
                                          (found["size"][0], found["size"][1]),
                                          translator(_lang(), "companion.web")) or ""
    return found


def _lang() -> str:
    return language(request.args.get("lang", "")[:16])


def _caption(frame: PreviewFrame, lang: str) -> str:
    """The check in words, written on the frame (the page writes the same beside it)."""
    assert frame.check is not None
    t = translator(lang, "companion.web")
    summary = frame.check.summary()
    seen, total = summary["corners_seen"], summary["corners_total"]
    if frame.check.calibration is None:
        return t(NOT_PLACED).format(seen=seen, total=total)
    fit = f"{frame.check.calibration.error_mm:.1f}"
    return t(PLACED).format(seen=seen, total=total,
                            fit=fit.replace(".", ",") if lang == "it" else fit)


def _goodness(frame: PreviewFrame) -> bool | None:
    """True: placed from every corner; None: placed from fewer; False: not placed."""
    assert frame.check is not None
    if frame.check.calibration is None:
        return False
    return True if not frame.check.missing else None


@bp.post("/setup/api/save")
def save() -> ResponseReturnValue:
    """Save the calibration from the frame shown, as `companion calibrate` does: camera.yaml
    and overlay.png in the user's calibration folder for the game."""
    from companion.vision.overlay import calibrate_frame
    from companion.vision.table import BoardNotFound

    body()  # a change: JSON, even if empty
    current = _state()
    frame = current.preview.latest()
    if frame.frame is None:
        abort(409, f"no frame to place the board from: {frame.problem}")
    folder = calibration_folder(current.game)
    try:
        placed = calibrate_frame(current.board(current.game), frame.frame, folder)
    except BoardNotFound as exc:
        abort(409, f"not saved: {exc}")
    except OSError as exc:
        abort(507, f"the calibration cannot be saved in {folder}: {exc.strerror}")
    return jsonify({"saved": str(folder / "camera.yaml"), "overlay": str(folder / "overlay.png"),
                    "corners_seen": placed.corners_seen, "fit_mm": round(placed.error_mm, 2),
                    "game": current.game, "frame": frame.number})


@bp.get("/setup/api/mat.pdf")
def mat() -> ResponseReturnValue:
    """The game's table mat (as `companion print-mat` writes it), to print at 100%."""
    from companion.vision.mat import write_mat

    current = _state()
    name = _calibrated_or_400(request.args.get("game", current.game)[:64])
    with tempfile.TemporaryDirectory(prefix="companion-mat-") as folder:
        path = Path(folder) / "mat.pdf"
        write_mat(path, current.board(name), game(name).title)
        data = path.read_bytes()
    return send_file(io.BytesIO(data), mimetype="application/pdf", as_attachment=True,
                     download_name=f"{name}-mat.pdf", max_age=0)


def serve_setup_page(options: SetupOptions) -> None:
    """Serve the page until interrupted (uvicorn, as `companion serve`), then let the
    camera go. ValueError for a camera or game the page cannot show."""
    app = create_setup_app(options)
    try:
        serve_page(app, options.host, options.port)
    finally:
        extension(SetupState, bp.name, app).preview.close()
