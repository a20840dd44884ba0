"""Entering a board from a photo (`companion kit author`): the page and its JSON API.

A rulebook that does not print its board (Shogun's) leaves the user to enter theirs once: the
page shows a photo of it (uploaded, or the camera's view), the user clicks each area's centre
and outline, links neighbours and types each area's values, and the page writes the game's kit
files into the user's data folder and shows each problem the kit check finds next to the area
it concerns. Every change is kept at once as a draft (`companion.kits.author`), so closing the
page loses nothing and opening it again resumes.

Like the set-up page, this is one of the referee's own small apps, served before any game
exists (`companion.web.referee_page`): the page carries nothing, and every `/kit-author/api/`
route needs the referee's token as a bearer token. The host is checked, a change is JSON from
this page (CSRF), the photo is an image of at most `MAX_IMAGE` bytes and `MAX_PIXELS` pixels,
and any other body at most `MAX_DRAFT_BYTES`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from flask import Blueprint, Flask, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue
from pydantic import ValidationError

from companion.kits.author import (
    MAX_DRAFT_BYTES,
    AuthorError,
    AuthorSpec,
    Draft,
    author_spec,
    check_draft,
    draft_folder,
    kit_folder,
    load_draft,
    new_draft,
    save_draft,
    write_kit,
)
from companion.vision.preview import MAX_PIXELS
from companion.web.auth import body, require_json_from_here
from companion.web.referee_page import RefereePage, create_page_app, extension, serve_page

__all__ = ["MAX_IMAGE", "AuthorOptions", "create_kit_author_app", "serve_kit_author_page",
           "store_image"]

MAX_IMAGE = 12 * 1024 * 1024
"""Bytes of an uploaded photo: a 12 MP phone photo as JPEG is 3-6 MB."""
API = "/kit-author/api/"
IMAGE_TYPES = {"image/jpeg": "jpg", "image/png": "png"}


@dataclass(frozen=True)
class AuthorOptions:
    referee_token: str
    game: str
    name: str
    """The new kit's name (an id): its draft and its folder are named after it."""
    data: Path
    """The user's data folder (`companion.userdata.data_dir()`)."""
    camera: str | None = None
    """A camera whose current view can be taken as the photo (pi, usb:0, folder:PATH)."""
    host: str = "0.0.0.0"
    port: int = 8000
    host_names: tuple[str, ...] = ()


@dataclass
class AuthorState:
    """What the page works on; the lock keeps two tabs' saves from interleaving."""

    options: AuthorOptions
    spec: AuthorSpec
    folder: Path
    target: Path
    lock: threading.Lock

    def draft(self) -> Draft:
        """The kept draft, or a new one; 409 when the kept one cannot be read."""
        try:
            return load_draft(self.folder) or new_draft(self.spec, self.options.name)
        except AuthorError as exc:
            abort(409, str(exc))


def create_kit_author_app(options: AuthorOptions) -> Flask:
    """The page's app; AuthorError for a game without a description or a draft that cannot
    be read (said before anything is served)."""
    spec = author_spec(options.game)
    folder = draft_folder(spec.game, options.name, options.data)
    if load_draft(folder) is None:
        save_draft(folder, new_draft(spec, options.name))
    state = AuthorState(options, spec, folder, kit_folder(options.name, options.data),
                        threading.Lock())
    return create_page_app(PAGE, bp, state, options.referee_token, options.host,
                           options.host_names)


def _state() -> AuthorState:
    return extension(AuthorState, bp.name)


def _check_change() -> None:
    """A change is JSON from this page (or the photo, as an image), within its size."""
    size = request.content_length or 0
    if request.path == API + "image":
        _check_image_request(size)
        return
    if size > MAX_DRAFT_BYTES:
        abort(413, f"{size} bytes sent: at most {MAX_DRAFT_BYTES}")
    require_json_from_here()


def _check_image_request(size: int) -> None:
    origin = request.headers.get("Origin")
    if origin is not None and origin.rstrip("/") != request.host_url.rstrip("/"):
        abort(403, "cross-site request refused")
    if request.mimetype not in IMAGE_TYPES:
        abort(415, "send the photo as a JPEG or PNG image")
    if size > MAX_IMAGE:
        abort(413, f"the photo is {size / 2**20:.1f} MB: at most {MAX_IMAGE // 2**20} MB (a "
                   "smaller JPEG shows the board as well)")


bp = Blueprint("kit_author", __name__)
PAGE = RefereePage(
    name="kit_author", path="/kit-author", api=API,
    no_token="the kit author page is the referee's: open it with the link companion kit author "
             "printed (it carries the referee's token)",
    wrong_token="this link's token is not the referee's: open the link companion kit author "
                "printed",
    limits="30 per second;1800 per minute", max_body=MAX_IMAGE, max_form=MAX_DRAFT_BYTES,
    check_change=_check_change,
    too_large=f"too large: a photo has at most {MAX_IMAGE // 2**20} MB")


@bp.get("/kit-author/api/state")
def state() -> ResponseReturnValue:
    """The game's description, the draft, its problems so far, and where things are kept."""
    current = _state()
    draft = current.draft()
    _, found = check_draft(current.spec, draft)
    return jsonify({"spec": current.spec.describe(), "draft": draft.model_dump(),
                    "problems": [f.as_json() for f in found], "camera": current.options.camera,
                    "draft_file": str(current.folder / "draft.json"),
                    "kit_folder": str(current.target),
                    "check_command": f"companion kit check {current.target}"})


@bp.put("/kit-author/api/draft")
def put_draft() -> ResponseReturnValue:
    """Keep the areas, links and kit values the page sends (the whole drawing, each time)."""
    data = body()
    current = _state()
    with current.lock:
        kept = current.draft()
        try:
            draft = Draft.model_validate({
                "game": kept.game, "name": kept.name, "image": kept.image,
                "kit": data.get("kit", {}), "areas": data.get("areas", []),
                "links": data.get("links", [])})
        except ValidationError as exc:
            abort(400, _first_problem(exc))
        _save(current, draft)
    _, found = check_draft(current.spec, draft)
    return jsonify({"saved": True, "problems": [f.as_json() for f in found]})


def _first_problem(exc: ValidationError) -> str:
    """pydantic's first error as `areas.3.outline: List should have at most 64 items`."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def _save(current: AuthorState, draft: Draft) -> None:
    try:
        save_draft(current.folder, draft)
    except OSError as exc:
        abort(507, f"the draft cannot be saved in {current.folder}: {exc.strerror}")


@bp.post("/kit-author/api/image")
def upload_image() -> ResponseReturnValue:
    """The photo of the board, as a JPEG or PNG body; kept beside the draft."""
    data = request.get_data(cache=False)
    try:
        size = store_image(_state(), data)
    except ValueError as exc:
        abort(400, str(exc))
    return jsonify({"image": True, "width": size[0], "height": size[1]})


def store_image(current: AuthorState, data: bytes) -> tuple[int, int]:
    """Keep `data` as the draft's photo, once it reads as an image of at most MAX_PIXELS;
    ValueError saying why not. Returns (width, height)."""
    kind = "png" if data.startswith(b"\x89PNG\r\n\x1a\n") else \
        "jpg" if data.startswith(b"\xff\xd8\xff") else None
    if kind is None:
        raise ValueError("this file is not a JPEG or PNG image")
    header = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_REDUCED_GRAYSCALE_8)
    if header is None:
        raise ValueError("this image cannot be read (is the file whole?)")
    if header.shape[0] * header.shape[1] * 64 > MAX_PIXELS:
        raise ValueError(f"the photo has more than {MAX_PIXELS // 1_000_000} million pixels")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("this image cannot be read (is the file whole?)")
    with current.lock:
        draft = current.draft()
        current.folder.mkdir(parents=True, exist_ok=True)
        (current.folder / f"board.{kind}").write_bytes(data)
        if draft.image and draft.image != f"board.{kind}":
            (current.folder / draft.image).unlink(missing_ok=True)
        _save(current, draft.model_copy(update={"image": f"board.{kind}"}))
    return int(image.shape[1]), int(image.shape[0])


@bp.get("/kit-author/api/image")
def image() -> ResponseReturnValue:
    current = _state()
    name = current.draft().image
    if name is None or not (current.folder / name).is_file():
        abort(404, "no photo yet: upload one")
    response = current_app.response_class((current.folder / name).read_bytes(),
                                          mimetype="image/png" if name.endswith("png")
                                          else "image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/kit-author/api/camera")
def from_camera() -> ResponseReturnValue:
    """The camera's current view as the photo (when the command was given --camera)."""
    from companion.vision.preview import preview_source, release

    body()
    current = _state()
    if current.options.camera is None:
        abort(409, "no camera: start companion kit author with --camera, or upload a photo")
    try:
        source = preview_source(current.options.camera)
    except ValueError as exc:
        abort(400, str(exc))
    try:
        frame = source.next_frame()
    finally:
        release(source)
    if frame is None:
        abort(503, f"no picture from the camera {current.options.camera}")
    size = store_image(current, cv2.imencode(".jpg", frame)[1].tobytes())
    return jsonify({"image": True, "width": size[0], "height": size[1]})


@bp.post("/kit-author/api/write")
def write() -> ResponseReturnValue:
    """Write the kit from the kept draft and check it: every problem pinned to its area."""
    body()
    current = _state()
    with current.lock:
        try:
            result = write_kit(current.spec, current.draft(), current.target)
        except AuthorError as exc:
            abort(409, str(exc))
        except OSError as exc:
            abort(507, f"the kit cannot be written in {current.target}: {exc.strerror}")
    return jsonify({"ok": result.ok, "folder": str(result.folder),
                    "problems": [f.as_json() for f in result.problems],
                    "check_command": f"companion kit check {result.folder}"})


def serve_kit_author_page(options: AuthorOptions, image: bytes | None = None,
                          ready: Callable[[], None] | None = None) -> None:
    """Serve the page until interrupted (uvicorn, as the set-up page); with `image`, that
    photo first; `ready` is called once both are known good, before serving. AuthorError for
    a game without a description or a draft that cannot be read; ValueError for a bad photo."""
    app = create_kit_author_app(options)
    if image is not None:
        store_image(extension(AuthorState, bp.name, app), image)
    if ready is not None:
        ready()
    serve_page(app, options.host, options.port)
