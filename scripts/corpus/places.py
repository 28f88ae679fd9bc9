"""Phrase builders (design step 3): locative PPs and time adverbials."""

from .lexicon import CITIES, NOUN_LIST, NUMBERS, PREPS
from .tokens import E, F
from .phrases import random_np


# ---- places -----------------------------------------------------------------

def place_pp(rng, prep, noun):
    """Locative PP: in the garden / dans le jardin, at the market / au marché."""
    en_p, fr_p = PREPS[prep]
    ets = [E(w) for w in en_p]
    fts = [F(w, ets, tag={"de": "de", "à": "a"}.get(w)) for w in fr_p]
    # places are singular (to the park), except natural things: near the trees
    plural = "plloc" in noun.flags and rng.random() < 0.35
    np_ = random_np(rng, noun, "loc", adjs=rng.random() < 0.5, allow_of=False,
                    plural=plural)
    return ets + np_.en, fts + np_.fr


def city_pp(rng, en_prep, fr_prep):
    ce, cf = rng.choice(CITIES)
    p, c = E(en_prep), E(ce)
    return [p, c], [F(fr_prep, p, tag={"de": "de", "à": "a"}.get(fr_prep)), F(cf, c)]


def country_phrase(country, en_prep, kind):
    """kind: to | in | from | obj (visiter la France).  Returns (en, fr)."""
    en_words, fr_name, gn = country
    p = E(en_prep) if en_prep else None
    en_toks = [E(w) for w in en_words]
    the = en_toks[0] if en_words[0] == "the" else None
    name_toks = [t for t in en_toks if t is not the]
    en = ([p] if p else []) + en_toks
    fr_country = F(fr_name, name_toks)
    if gn == "p":
        art = F("les", the, tag="art")
    else:
        art = F("le" if gn == "m" else "la", name_toks, tag="art")
    if kind == "obj":
        return en, [art, fr_country]
    if kind in ("to", "in"):
        if gn == "f":
            return en, [F("en", p), fr_country]
        return en, [F("à", p, tag="a"), art, fr_country]  # au Canada, aux États-Unis
    if kind == "from":
        if gn == "f":
            return en, [F("de", p, tag="de"), fr_country]  # de France, d'Italie
        return en, [F("de", p, tag="de"), art, fr_country]  # du Canada, des États-Unis
    raise ValueError(kind)


LOC_NOUNS = [n for n in NOUN_LIST if n.preps and n.cat in ("B", "L", "N")]
WATER_NOUNS = [n for n in LOC_NOUNS if "water" in n.flags]


def random_locative(rng, water=False, city=True, cats=("B", "L", "N")):
    """A locative PP for a person/animal/vehicle: in the park, near the river...
    Only swimmers get "in the lake"; others are at most near the water."""
    if city and rng.random() < 0.1:
        return city_pp(rng, "in", "à")
    if water:
        noun = rng.choice(WATER_NOUNS)
        return place_pp(rng, "in", noun)
    noun = rng.choice([n for n in LOC_NOUNS if n.cat in cats])
    preps = noun.preps
    if "water" in noun.flags:
        preps = ["near"]
    return place_pp(rng, rng.choice(preps), noun)


SURFACES = [n for n in NOUN_LIST if "surface" in n.flags]
CONTAINERS = [n for n in NOUN_LIST if "contain" in n.flags]
DCONTAINERS = [n for n in NOUN_LIST if "dcontain" in n.flags]


def thing_locative(rng, thing):
    """Where a thing can be: on/under the table, in the box, in the glass."""
    if thing.cat == "D":
        return place_pp(rng, "in", rng.choice(DCONTAINERS))
    if thing.cat == "V":
        # vehicles stand near/in front of/behind buildings, or in the street
        noun = rng.choice([n for n in LOC_NOUNS if set(n.preps) & {"near", "front", "behind"}]
                          + [n for n in LOC_NOUNS if n.en_sg in ("street", "road")])
        preps = [p for p in noun.preps if p in ("near", "front", "behind")] or noun.preps
        return place_pp(rng, rng.choice(preps), noun)
    if thing.cat in ("P", "A", "U"):
        return random_locative(rng)
    if thing.cat == "M":
        return place_pp(rng, "on", rng.choice([n for n in SURFACES if n.en_sg == "table"]))
    if rng.random() < 0.55:
        noun = rng.choice(SURFACES)
        return place_pp(rng, rng.choice(["on", "on", "under"]), noun)
    return place_pp(rng, "in", rng.choice(CONTAINERS))


# ---- time expressions ------------------------------------------------------

def time_expr(rng, tense):
    """Sentence-final time adverbial compatible with the tense."""
    def simple(pairs):
        ens = [E(w) for w in pairs[0]]
        frs = []
        for w, idx in pairs[1]:
            frs.append(F(w, [ens[i] for i in idx], tag="art" if w in ("la", "le") else None))
        return ens, frs

    if tense == "pres":
        opts = [(["every", "day"], [("chaque", [0]), ("jour", [1])]),
                (["every", "morning"], [("chaque", [0]), ("matin", [1])]),
                (["every", "evening"], [("chaque", [0]), ("soir", [1])]),
                (["every", "week"], [("chaque", [0]), ("semaine", [1])]),
                (["today"], [("aujourd'", [0]), ("hui", [0])])]
        return simple(rng.choice(opts))
    if tense == "past":
        r = rng.random()
        if r < 0.2:
            ne, nf = rng.choice(NUMBERS[:9])
            unit = rng.choice([("days", "jours"), ("years", "ans"), ("weeks", "semaines")])
            n, u, ago = E(ne), E(unit[0]), E("ago")
            return [n, u, ago], [F("il", ago), F("y", ago), F("a", ago), F(nf, n), F(unit[1], u)]
        opts = [(["yesterday"], [("hier", [0])]),
                (["last", "night"], [("hier", [0]), ("soir", [1])]),
                (["last", "week"], [("la", [1]), ("semaine", [1]), ("dernière", [0])]),
                (["last", "year"], [("la", [1]), ("année", [1]), ("dernière", [0])]),
                (["last", "month"], [("le", [1]), ("mois", [1]), ("dernier", [0])]),
                (["this", "morning"], [("ce", [0]), ("matin", [1])]),
                (["today"], [("aujourd'", [0]), ("hui", [0])])]
        return simple(rng.choice(opts))
    r = rng.random()
    if r < 0.15:
        ne, nf = rng.choice(NUMBERS[:9])
        unit = rng.choice([("days", "jours"), ("weeks", "semaines")])
        i, n, u = E("in"), E(ne), E(unit[0])
        return [i, n, u], [F("dans", i), F(nf, n), F(unit[1], u)]
    opts = [(["tomorrow"], [("demain", [0])]),
            (["tomorrow", "morning"], [("demain", [0]), ("matin", [1])]),
            (["next", "week"], [("la", [1]), ("semaine", [1]), ("prochaine", [0])]),
            (["next", "year"], [("la", [1]), ("année", [1]), ("prochaine", [0])]),
            (["next", "month"], [("le", [1]), ("mois", [1]), ("prochain", [0])]),
            (["tonight"], [("ce", [0]), ("soir", [0])]),
            (["soon"], [("bientôt", [0])])]
    return simple(rng.choice(opts))
