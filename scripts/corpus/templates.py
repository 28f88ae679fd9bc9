"""The sentence templates and their weights (design step 4)."""

from .templates_basic import (
    copula_sentence, ditransitive_sentence, existential_sentence, intransitive_clause,
    modal_sentence, movement_clause, pronoun_object_sentence, transitive_clause)
from .templates_compound import (
    because_sentence, coordinated_anaphora, coordinated_free, question_sentence, relative_sentence)


TEMPLATES = [
    ("transitive", 10, lambda rng: transitive_clause(rng)[:2]),
    ("intransitive", 5, intransitive_clause),
    ("movement", 8, movement_clause),
    ("copula", 5, copula_sentence),
    ("existential", 5, existential_sentence),
    ("ditransitive", 7, ditransitive_sentence),
    ("pronoun_object", 4, pronoun_object_sentence),
    ("modal", 6, modal_sentence),
    ("coord_anaphora", 16, coordinated_anaphora),
    ("coord_free", 12, coordinated_free),
    ("because", 3, because_sentence),
    ("relative", 17, relative_sentence),
    ("question", 4, question_sentence),
]
