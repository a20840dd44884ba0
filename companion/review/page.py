"""The review page (`companion review VIDEO --page`): the question a filmed game's review waits
on, with the frame that raised it and its options as buttons; a tap answers it and the review
reads on to the next question (or the film's end). For people, instead of an answers file.

One reviewer at a time on the machine that reviews (it listens on 127.0.0.1 by default): the
page has no tokens, and an answer runs the review in the request (a lock keeps them in turn).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, redirect, request, send_file
from markupsafe import escape

from companion.review.reading import CHANGE, END, FILM_ENDED, NOTHING, ReviewOptions, review

__all__ = ["create_review_app"]

STYLE = """body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem}
img{max-width:100%;max-height:50vh;border:1px solid #888}
button{display:block;margin:.3rem 0;padding:.6rem;font-size:1rem;text-align:left;width:100%}
code{font-size:.8rem;color:#555}
input{width:100%;box-sizing:border-box;padding:.4rem}"""


def create_review_app(options: ReviewOptions) -> Flask:
    """The page's app; the review is read up to its first question before it serves."""
    app = Flask(__name__)
    lock = threading.Lock()
    answers: dict[str, int | str] = dict(options.answers)
    latest: dict[str, Any] = {"report": review(options).to_json()}

    @app.get("/")
    def page() -> str:
        with lock:
            return _page(latest["report"])

    @app.get("/frame/<int:number>.jpg")
    def frame(number: int) -> Response:
        pending = latest["report"]["pending"]
        if pending is None or pending["number"] != number or not pending["image"]:
            abort(404)
        return send_file(Path(pending["image"]), mimetype="image/jpeg")

    @app.post("/answer")
    def answer() -> Any:
        with lock:
            pending = latest["report"]["pending"]
            given = next((v.strip() for v in request.form.getlist("answer") if v.strip()), "")
            if pending is not None and given:
                answers[str(pending["number"])] = given
                latest["report"] = review(replace(options, answers=dict(answers),
                                                  max_frames=None)).to_json()
        return redirect("/", code=303)

    return app


def _page(figures: dict[str, Any]) -> str:
    """The waiting question (frame, text, options), or the review's end."""
    head = (f"<!doctype html><meta charset=utf-8><title>Review: {escape(figures['film'])}"
            f"</title><style>{STYLE}</style><h1>Review of {escape(Path(figures['film']).name)}"
            f"</h1><p>{figures['actions']} actions in the record (game {figures['game_id']}), "
            f"frame {figures['next_frame']} of {figures['frames']}.</p>")
    pending = figures["pending"]
    if pending is None:
        end = "The film is reviewed to its end." if figures["finished"] else \
            "Reading stopped: review the film again to go on."
        return head + f"<p id=done>{escape(end)}</p>"
    image = (f"<img id=frame src='/frame/{pending['number']}.jpg' alt='frame "
             f"{pending['frame']}'>" if pending["image"] else "")
    buttons = "".join(
        f"<button name=answer value='{escape(text)}'>{escape(words)} <code>{escape(text)}"
        "</code></button>" for words, text in zip(pending["words"], pending["options"],
                                                  strict=True))
    extra = {CHANGE: (NOTHING, "Nothing happened off the film"),
             FILM_ENDED: (END, "Nothing more was played")}.get(pending["kind"])
    if extra is not None:
        buttons += f"<button name=answer value='{extra[0]}'>{extra[1]}</button>"
    return head + (
        f"<h2 id=question>Question {pending['number']} (frame {pending['frame']})</h2>"
        f"<p>{escape(pending['text'])}</p>{image}<form method=post action=/answer>{buttons}"
        "<p>Or another action, as its text:</p><input name=answer>"
        "<button>Answer</button></form>")
