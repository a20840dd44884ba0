"""Referee a filmed game (`companion review`): a film read through the live table's pipeline
into a stored game, with what the film cannot show asked of a person (issue 33)."""

from companion.review.reading import (
    END,
    Answerer,
    Asked,
    ReviewOptions,
    ReviewReport,
    review,
    reviews_folder,
)

__all__ = ["END", "Answerer", "Asked", "ReviewOptions", "ReviewReport", "review",
           "reviews_folder"]
