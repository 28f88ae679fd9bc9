"""The lexicon (design step 1): loads the tables into Noun, Adj and Verb objects.

The tables themselves are data in lexicon_nouns.py, lexicon_words.py and
lexicon_verbs.py; this module re-exports them, so the rest of the package
reads the whole lexicon from here.  Every list keeps the table order, so no
iteration depends on set or hash order.
"""

from .lexicon_nouns import NOUNS_TXT
from .lexicon_words import (
    ADJ_TABLE, ANTONYMS, CITIES, COUNTRIES, NAMES, NUMBERS, POSSESSIVES, PREPS, PRONOUNS)
from .lexicon_verbs import (
    ADVERBS, FINIR_TYPE, FUT_END, IMPARFAIT, IMPARFAIT_VERBS, IRREGULAR, VERB_TABLE)


class Noun:
    def __init__(self, line):
        parts = line.split()
        self.en_sg, self.en_pl, self.fr_sg, self.fr_pl, self.g, self.cat = parts[:6]
        self.flags = parts[6:]
        self.mass = self.en_pl == "-"
        self.preps = [f for f in self.flags if f in PREPS]

    def matches(self, spec):
        return self.cat in spec or any(f in spec for f in self.flags)

    def __repr__(self):
        return "Noun(%s)" % self.en_sg


# "small son" would read as petit-fils (grandson), "beautiful brother" as
# beau-frère (brother-in-law), "small friend" as petit ami (boyfriend).
KIN_BLOCKED_ADJS = {"small", "big", "beautiful"}


def adj_clash(a, b):
    """True if two adjectives (English words) are equal or antonyms (ANTONYMS)."""
    return a == b or any(a in g and b in g for g in ANTONYMS)


class Adj:
    def __init__(self, row):
        self.en, forms, self.pos, spec, flags = row
        f = forms.split()
        if len(f) == 1:
            ms = f[0]
            fs = ms if ms.endswith("e") else ms + "e"
            mp = ms if ms[-1] in "sx" else ms + "s"
            f = [ms, fs, mp, fs + "s"]
        self.ms, self.fs, self.mp, self.fp = f[:4]
        self.msv = f[4] if len(f) > 4 else None  # bel, nouvel, vieil
        self.spec = spec.split()
        self.combo = "combo" in flags
        self.pred = "nopred" not in flags
        self.state = "state" in flags

    def form(self, g, n, before_vowel=False):
        if g == "m" and n == "sg" and before_vowel and self.msv:
            return self.msv
        return {("m", "sg"): self.ms, ("f", "sg"): self.fs,
                ("m", "pl"): self.mp, ("f", "pl"): self.fp}[(g, n)]

    def fits(self, noun):
        if "kin" in noun.flags and self.en in KIN_BLOCKED_ADJS:
            return False
        if "noold" in noun.flags and self.en == "old":
            return False  # vieux garçon / vieille fille are idioms (bachelor, spinster)
        return noun.matches(self.spec)


class Verb:
    def __init__(self, row):
        (self.kind, en, part, self.inf, subj, comp, flags, advs) = row
        self.base, self.s3, self.past = en.split()
        self.particle = part.split()
        self.subj = subj.split()
        self.comp = comp.split()
        self.flags = flags.split()
        self.advs = advs.split()
        self.generic = "generic" in self.flags
        self.aux = "être" if self.kind == "mv" else "avoir"
        # French conjugation
        if self.inf in IRREGULAR:
            pres, self.pp, self.fut = IRREGULAR[self.inf]
            self.pres = pres.split()
        elif self.inf in FINIR_TYPE:
            st = self.inf[:-2]
            self.pres = [st + e for e in ("is", "is", "it", "issons", "issez", "issent")]
            self.pp, self.fut = st + "i", self.inf
        else:
            assert self.inf.endswith("er"), self.inf
            st = self.inf[:-2]
            nous = st + ("eons" if st.endswith("g") else "ons")
            if st.endswith("c"):
                nous = st[:-1] + "çons"
            self.pres = [st + "e", st + "es", st + "e", nous, st + "ez", st + "ent"]
            self.pp, self.fut = st + "é", self.inf
        assert len(self.pres) == 6

    def fut_form(self, p):
        return self.fut + FUT_END[p]

    def imparfait(self, p):
        """Imparfait from the nous stem: voulons -> voul-ait, mangeons -> mange-ait."""
        if self.inf in IMPARFAIT:
            return IMPARFAIT[self.inf][p]
        stem = self.pres[3][:-3]
        return stem + ["ais", "ais", "ait", "ions", "iez", "aient"][p]

    def __repr__(self):
        return "Verb(%s/%s)" % (self.base, self.inf)


def pp_form(ms, g, n):
    """Past participle agreement: écrit/écrite/écrits/écrites, pris/prise/pris."""
    fs = ms + "e"
    if n == "sg":
        return ms if g == "m" else fs
    return (ms if ms.endswith("s") else ms + "s") if g == "m" else fs + "s"


NOUN_LIST = [Noun(l) for l in NOUNS_TXT.strip().splitlines() if l.strip()]
ADJS = [Adj(r) for r in ADJ_TABLE]
VERBS = [Verb(r) for r in VERB_TABLE]
VERB_BY_INF = {v.inf: v for v in VERBS}
ETRE = Verb(("in", "be is was", "", "être", "", "", "", ""))
AVOIR = Verb(("in", "have has had", "", "avoir", "", "", "", ""))
POUVOIR = Verb(("in", "can can could", "", "pouvoir", "", "", "", ""))
DEVOIR = Verb(("in", "must must must", "", "devoir", "", "", "", ""))
VOULOIR = VERB_BY_INF["vouloir"]


def nouns_matching(spec, extra=None):
    out = [n for n in NOUN_LIST if n.matches(spec)]
    if extra:
        out = [n for n in out if extra(n)]
    return out
