"""Token and phrase primitives (design step 2).

An English token is a Tok without links.  A French token is a Tok whose
`links` list holds the English Tok objects it translates.  Phrases are
built in each language's own word order; the alignment is computed at the
very end (alignments.py) from object identity, so reordering never needs
index bookkeeping.
"""


class Tok:
    __slots__ = ("w", "links", "tag")

    def __init__(self, w, links=(), tag=None):
        self.w = w
        self.links = list(links)
        self.tag = tag

    def __repr__(self):
        return self.w


def E(w, tag=None):
    return Tok(w, (), tag)


def F(w, *links, tag=None):
    flat = []
    for l in links:
        if l is None:
            continue
        if isinstance(l, (list, tuple)):
            flat.extend(l)
        else:
            flat.append(l)
    return Tok(w, flat, tag)


class NP:
    """A noun phrase in both languages plus the features agreement needs."""

    def __init__(self, en, fr, p, g, n, noun=None, kind="noun", pron=None):
        self.en, self.fr = en, fr
        self.p, self.g, self.n = p, g, n  # person index 0..5, gender, number
        self.noun = noun
        self.kind = kind  # noun | name | pron | rel
        self.pron = pron  # PRONOUNS row for pronouns


def person_of(n):
    return 2 if n == "sg" else 5


def wchoice(rng, pairs):
    """Weighted choice from [(item, weight)] with a single rng.random() draw."""
    total = sum(w for _, w in pairs)
    r = rng.random() * total
    for item, w in pairs:
        r -= w
        if r < 0:
            return item
    return pairs[-1][0]
