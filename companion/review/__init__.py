"""Referee a filmed game (`companion review`): a film read through the live table's pipeline
into a stored game, with what the film cannot show asked of a person (issue 33)."""

from companion.review.reading import (
    CHANGE,
    END,
    FILM_ENDED,
    NOTHING,
    OFF_FILM,
    REFEREE_QUESTION,
    Answerer,
    Asked,
    ReviewOptions,
    ReviewReport,
    review,
    reviews_folder,
)

__all__ = ["CHANGE", "END", "FILM_ENDED", "NOTHING", "OFF_FILM", "REFEREE_QUESTION", "Answerer",
           "Asked", "ReviewOptions", "ReviewReport", "review", "reviews_folder"]
