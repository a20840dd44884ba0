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

from companion.i18n import DEFAULT, LANGUAGES, language, translator
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
            return _page(latest["report"], _lang())

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
        return redirect(f"/?lang={_lang()}", code=303)

    return app


def _lang() -> str:
    """The language asked for (`?lang=it`), else the browser's, else English."""
    asked = request.args.get("lang") or request.accept_languages.best_match(list(LANGUAGES))
    return language(asked)


def _page(figures: dict[str, Any], lang: str = DEFAULT) -> str:
    """The waiting question (frame, text, options), or the review's end, in `lang`."""
    t = translator(lang, "companion.review")
    film = Path(figures["film"]).name
    others = " · ".join(f"<a href='/?lang={code}' lang={code}>{escape(name)}</a>"
                        for code, name in LANGUAGES.items() if code != lang)
    where = t("{actions} actions in the record (game {game}), frame {frame} of {frames}.")
    where = where.format(actions=figures["actions"], game=figures["game_id"],
                         frame=figures["next_frame"], frames=figures["frames"])
    head = (f"<!doctype html><html lang={lang}><meta charset=utf-8>"
            f"<title>{escape(t('Review: {film}').format(film=figures['film']))}</title>"
            f"<style>{STYLE}</style><nav id=languages>{others}</nav>"
            f"<h1>{escape(t('Review of {film}').format(film=film))}</h1><p>{escape(where)}</p>")
    pending = figures["pending"]
    if pending is None:
        end = t("The film is reviewed to its end.") if figures["finished"] else \
            t("Reading stopped: review the film again to go on.")
        return head + f"<p id=done>{escape(end)}</p>"
    said = pending.get("said", {}).get(lang, {})
    text, words = said.get("text", pending["text"]), said.get("words", pending["words"])
    alt = t("frame {frame}").format(frame=pending["frame"])
    image = (f"<img id=frame src='/frame/{pending['number']}.jpg' alt='{escape(alt)}'>"
             if pending["image"] else "")
    buttons = "".join(
        f"<button name=answer value='{escape(action)}'>{escape(word)} <code>{escape(action)}"
        "</code></button>" for word, action in zip(words, pending["options"], strict=True))
    extra = {CHANGE: (NOTHING, t("Nothing happened off the film")),
             FILM_ENDED: (END, t("Nothing more was played"))}.get(pending["kind"])
    if extra is not None:
        buttons += f"<button name=answer value='{extra[0]}'>{escape(extra[1])}</button>"
    question = t("Question {number} (frame {frame})").format(number=pending["number"],
                                                              frame=pending["frame"])
    return head + (
        f"<h2 id=question>{escape(question)}</h2>"
        f"<p id=text>{escape(text)}</p>{image}<form method=post action='/answer?lang={lang}'>"
        f"{buttons}<p>{escape(t('Or another action, as its text:'))}</p><input name=answer>"
        f"<button>{escape(t('Answer'))}</button></form>")
