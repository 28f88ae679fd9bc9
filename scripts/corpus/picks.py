"""Sentence templates (design step 4), shared choices.

Tense/polarity weights, verb groups, and random subjects, objects and time
adverbials that fit a verb.
"""

from .lexicon import CITIES, COUNTRIES, NAMES, NOUN_LIST, VERBS
from .tokens import E, F, NP, wchoice
from .phrases import name_np, pronoun_np, random_np
from .places import country_phrase, time_expr


TENSES = [("pres", 40), ("past", 35), ("fut", 25)]
POLS = [("aff", 72), ("neg", 22), ("never", 6)]


def pick_subject(rng, spec, allow_pron=True, allow_name=True):
    """Subject NP whose category fits the verb's subject spec."""
    human = "P" in spec
    r = rng.random()
    if human and allow_pron and r < 0.33:
        return pronoun_np(rng.choice([0, 1, 2, 2, 3, 3, 4, 5, 5]))
    if human and allow_name and r < 0.43:
        return name_np(rng.choice(NAMES))
    cands = [n for n in NOUN_LIST if n.matches(spec) and not n.mass]
    noun = rng.choice(cands)
    return random_np(rng, noun, "subj")


# What an animal subject can plausibly see, eat, look for, follow...
ANIMAL_OBJ_CATS = ("A", "F", "M", "D", "P")


def is_animal(np_):
    return np_ is not None and np_.noun is not None and np_.noun.cat == "A"


def compatible_objects(verb, avoid_mass=False, subj=None):
    out = [n for n in NOUN_LIST if n.matches(verb.comp)]
    if avoid_mass:
        out = [n for n in out if not n.mass]
    if is_animal(subj):
        out = [n for n in out if n.cat in ANIMAL_OBJ_CATS] or out
    return out


def subj_spec_for(verb, obj_noun):
    """Subject spec for a verb whose object is known: animals only act on
    animals, food and people (no "the cow looks for the magazine")."""
    if obj_noun.cat not in ANIMAL_OBJ_CATS and "P" in verb.subj:
        return [x for x in verb.subj if x != "A"]
    return verb.subj


def object_avoid(verb):
    """Adjectives that make no sense on this verb's object (break the broken lamp)."""
    return ("broken",) if verb.inf == "casser" else ()


def pick_object(rng, verb, neg=False, subj=None):
    """Direct object NP for a transitive verb (nouns, names, cities, countries)."""
    comp = verb.comp
    r = rng.random()
    if "CITY" in comp and r < 0.15:
        ce, cf = rng.choice(CITIES)
        t = E(ce)
        return NP([t], [F(cf, t)], 2, "m", "sg", kind="name")
    if "COUNTRY" in comp and r < 0.3:
        c = rng.choice(COUNTRIES)
        en, fr = country_phrase(c, None, "obj")
        g = "f" if c[2] == "f" else "m"
        return NP(en, fr, 2, g, "pl" if c[2] == "p" else "sg", kind="name")
    if "P" in comp and rng.random() < 0.12:
        return name_np(rng.choice(NAMES))
    noun = rng.choice(compatible_objects(verb, subj=subj))
    return random_np(rng, noun, "obj", neg=neg, generic=verb.generic,
                     avoid=object_avoid(verb))


def pick_tense_pol(rng, pol_ok=True):
    tense = wchoice(rng, TENSES)
    pol = wchoice(rng, POLS) if pol_ok else "aff"
    return tense, pol


def maybe_time(rng, tense, p=0.3):
    p = min(1.0, p * 1.4)
    return time_expr(rng, tense) if rng.random() < p else None


TR_VERBS = [v for v in VERBS if v.kind == "tr"]
CREATION_VERBS = {"construire", "faire", "écrire", "préparer", "dessiner", "peindre"}
DI_VERBS = [v for v in VERBS if v.kind == "di" or "both" in v.flags]
IN_VERBS = [v for v in VERBS if v.kind == "in" or "intr" in v.flags]
MV_VERBS = [v for v in VERBS if v.kind == "mv"]


def subject_fits(subj, verb):
    """A pronoun/name subject is human; noun subjects are chosen to fit."""
    if subj.kind in ("pron", "name"):
        return "P" in verb.subj
    return subj.noun.matches(verb.subj)
