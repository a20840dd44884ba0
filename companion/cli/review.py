"""`companion review VIDEO --game GAME`: referee a filmed game (issue 33).

The film goes through the live table's pipeline into a stored game (`companion.review`); what
the film cannot show is a numbered question, kept with the frame that raised it. Reading stops
at a question nobody has answered yet; answer it in a JSON file (`{"3": 0}`: question 3, its
first option; or an action's text; `none` for "nothing happened off the film", `end` for "the
film ends the game") and review the same film again with `--answers FILE`: it goes on from
where it stopped. Progress on the terminal; the figures in sentences or as one JSON object.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from companion.cli._capabilities import need
from companion.cli._common import DEFAULT_GAME, fail, open_store, report, spec_of
from companion.cli._progress import Progress

__all__ = ["review_command"]


@click.command("review")
@click.argument("video", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--game", default=DEFAULT_GAME, show_default=True,
              help="The game filmed (one with a table referee).")
@click.option("--db", type=click.Path(path_type=Path, dir_okay=False),
              help="The games database (default: the user's own).")
@click.option("--answers", "answers_file", type=click.Path(path_type=Path, dir_okay=False,
                                                           exists=True),
              help="A JSON file answering questions by number: option index or action text.")
@click.option("--max-frames", type=click.IntRange(min=1),
              help="Stop after reading this many frames (review the film again to go on).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option("--page", is_flag=True,
              help="Answer on a web page: each question with its frame, options as buttons.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The page's address.")
@click.option("--port", default=8010, show_default=True, help="The page's port (0: any).")
def review_command(video: Path, game: str, db: Path | None, answers_file: Path | None,
                   max_frames: int | None, as_json: bool, page: bool, host: str,
                   port: int) -> None:
    """Referee a film of a whole game (any video OpenCV reads) into a stored game.

    Every action the film shows is read as the live camera would; a question the referee asks,
    or what happened off the film (cards, buttons, secret choices), waits for an answer with
    the frame that raised it. Exits 1 when the film cannot be read or the record does not
    verify.
    """
    from companion.review import ReviewOptions, review

    spec = spec_of(game)
    need(spec, "table")
    open_store(db).close()  # a --db in a missing folder: said before anything starts
    options = ReviewOptions(film=video, game=spec.name, db=db,
                            answers=_answers(answers_file) if answers_file else {},
                            max_frames=max_frames)
    if page:
        _serve_page(options, host, port)
        return
    with Progress(f"reviewing {video.name}") as bar:
        try:
            figures = review(options, progress=bar.at).to_json()
        except OSError as exc:
            fail(str(exc))
    report(figures, as_json, _lines(figures, spec.name))
    if not figures["record_verified"]:
        raise SystemExit(1)


def _serve_page(options: Any, host: str, port: int) -> None:
    """The review page until Ctrl-C (the review read up to its first question first)."""
    from werkzeug.serving import make_server

    from companion.review.page import create_review_app

    click.echo(f"reading {options.film.name} up to its first question...")
    server = make_server(host, port, create_review_app(options), threaded=True)
    click.echo(f"review page: http://{host}:{server.server_port}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def _answers(path: Path) -> dict[str, int | str]:
    """Question number -> answer, from a JSON object; exit 2 for anything else."""
    try:
        given = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise click.BadParameter(f"{path}: {exc}", param_hint="--answers") from None
    if not isinstance(given, dict) or not all(isinstance(v, int | str) for v in given.values()):
        raise click.BadParameter(f"{path}: a JSON object of question number -> option index "
                                 "or action text", param_hint="--answers")
    return {str(k): v for k, v in given.items()}


def _lines(figures: dict[str, Any], game: str) -> list[str]:
    """What was read, what waits (the question, its frame and options) and how to go on."""
    total = f" of {figures['frames']}" if figures["frames"] else ""
    lines = [f"Game {figures['game_id']} in {figures['db']}: read {figures['frames_read']} "
             f"frames (up to frame {figures['next_frame']}{total}) at {figures['fps']} "
             f"frames/s; {figures['actions']} actions in the record, {figures['read']} read "
             f"from the film in this run, {figures['answered']} answered; "
             f"{figures['questions']} questions so far."]
    lines += [f"Alert at frame {a['frame']} (rule {a['rule']}): {a['message']} ({a['image']})"
              for a in figures["alerts"]]
    pending = figures["pending"]
    if pending is not None:
        lines.append(f"Question {pending['number']} waits (frame {pending['frame']}"
                     + (f", {pending['image']}" if pending["image"] else "") + "): "
                     + pending["text"])
        lines += [f"  {i}: {words}  [{text}]" for i, (words, text) in
                  enumerate(zip(pending["words"], pending["options"], strict=True))]
        lines.append(f'Answer it in a JSON file ({{"{pending["number"]}": 0}}, or an action\'s '
                     f"text) and run: companion review FILM --game {game} --answers FILE")
    elif figures["finished"]:
        lines.append("The film is reviewed to its end." + (
            " The record verifies." if figures["record_verified"] else
            " The record does NOT verify."))
    else:
        lines.append(f"Stopped at frame {figures['next_frame']}: review the film again to go on.")
    return lines
