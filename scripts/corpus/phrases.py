"""Phrase builders (design step 3): noun phrases.

Determiners, adjectives (0, 1 or 2, compatible with the noun), names,
pronouns, and "of" complements of kin and part nouns (la mère du garçon).
"""

from .lexicon import ADJS, NAMES, NUMBERS, POSSESSIVES, PRONOUNS, adj_clash, nouns_matching
from .tokens import E, F, NP, person_of, wchoice
from .surface import fr_vowel


def fr_article_def(g, n, links):
    w = "les" if n == "pl" else ("le" if g == "m" else "la")
    return F(w, links, tag="art")


def pick_adjs(rng, noun, p_pre=0.2, p_post=0.27, p_both=0.07, avoid=()):
    """Choose 0, 1 or 2 adjectives compatible with the noun."""
    pres = [a for a in ADJS if a.pos == "pre" and a.fits(noun) and a.en not in avoid]
    posts = [a for a in ADJS if a.pos == "post" and a.fits(noun) and a.en not in avoid]
    r = rng.random()
    if r < p_both:
        combos = [a for a in posts if a.combo]
        if pres and combos:
            a, b = rng.choice(pres), rng.choice(combos)
            if not adj_clash(a.en, b.en):  # no "old modern photo"
                return a, b
    elif r < p_both + p_pre:
        if pres:
            return rng.choice(pres), None
    elif r < p_both + p_pre + p_post:
        if posts:
            return None, rng.choice(posts)
    return None, None


def noun_phrase(rng, noun, det, n="sg", pre=None, post=None, neg=False,
                generic=False, poss=None, number=None):
    """Build a noun phrase.

    det: the | a | bare | this | poss | num | thenum
    neg: the phrase is the direct object of a negated verb, so French
         indefinite/partitive articles become "de" (il ne mange pas de pain).
    generic: object of aimer/adorer/détester/préférer: an English bare noun is
         generic and takes the definite article in French (il aime les chats).
    """
    if noun.mass:
        n = "sg"
    g = noun.g
    en_noun = E(noun.en_pl if n == "pl" else noun.en_sg)
    en, fr_det = _determiner(noun, det, n, en_noun, pre, neg, generic, poss, number)

    en_pre = E(pre.en) if pre else None
    en_post = E(post.en) if post else None
    for t in (en_pre, en_post):
        if t is not None:
            en.append(t)
    en.append(en_noun)

    fr = []
    fr_noun_w = noun.fr_pl if n == "pl" else noun.fr_sg
    fr.extend(fr_det)
    if pre is not None:
        fr.append(F(pre.form(g, n, before_vowel=fr_vowel(fr_noun_w)), en_pre))
    fr.append(F(fr_noun_w, en_noun))
    if post is not None:
        fr.append(F(post.form(g, n), en_post))
    return NP(en, fr, person_of(n), g, n, noun=noun)


def _determiner(noun, det, n, en_noun, pre, neg, generic, poss, number):
    """English and French determiner tokens of noun_phrase()."""
    g = noun.g
    if det == "the":
        t = E("the")
        return [t], [fr_article_def(g, n, t)]
    if det == "a":
        assert n == "sg" and not noun.mass
        t = E("a", tag="a_art")
        if neg and not generic:
            return [t], [F("de", t, tag="de")]
        return [t], [F("un" if g == "m" else "une", t)]
    if det == "bare":
        return [], _bare_article(noun, n, en_noun, pre, neg, generic)
    if det == "this":
        t = E("these" if n == "pl" else "this")
        if n == "pl":
            return [t], [F("ces", t)]
        if g == "m":
            return [t], [F("ce", t, tag="dem")]
        return [t], [F("cette", t)]
    if det == "poss":
        row = PRONOUNS[poss]
        t = E(row[8])
        ms, fs, pl = POSSESSIVES[poss]
        w = pl if n == "pl" else (ms if g == "m" else fs)
        return [t], [F(w, t, tag="possf" if w in ("ma", "ta", "sa") else None)]
    if det in ("num", "thenum"):
        assert n == "pl"
        en, fr_det = [], []
        if det == "thenum":
            t = E("the")
            en.append(t)
            fr_det.append(fr_article_def(g, n, t))
        ne, nf = number
        t = E(ne)
        en.append(t)
        fr_det.append(F(nf, t))
        return en, fr_det
    raise ValueError(det)


def _bare_article(noun, n, en_noun, pre, neg, generic):
    """French article of an English bare plural / mass noun, aligned to the
    noun it belongs to."""
    g = noun.g
    if generic:
        return [fr_article_def(g, n, en_noun)]
    if neg:
        return [F("de", en_noun, tag="de")]
    if noun.mass:
        return [F("de", en_noun, tag="de"), fr_article_def(g, n, en_noun)]
    if pre is not None:
        # des -> de before a pre-nominal adjective: de beaux chevaux
        return [F("de", en_noun, tag="de")]
    return [F("des", en_noun)]


def name_np(name):
    w, g = name
    t = E(w)
    return NP([t], [F(w, t)], 2, g, "sg", kind="name")


def pronoun_np(idx):
    row = PRONOUNS[idx]
    t = E(row[0])
    return NP([t], [F(row[1], t, tag="el" if row[1] == "je" else None)],
              row[2], row[3], row[4], kind="pron", pron=row)


DET_WEIGHTS = {
    # role: [(det, weight)]
    "subj": [("the", 45), ("a", 14), ("poss", 18), ("this", 8), ("num", 8), ("thenum", 3)],
    # "a blanket was modern" is odd: copula subjects are definite
    "cop": [("the", 50), ("poss", 25), ("this", 12), ("thenum", 5)],
    "obj": [("the", 34), ("a", 20), ("bare", 16), ("poss", 16), ("this", 7), ("num", 7)],
    "loc": [("the", 82), ("poss", 13), ("this", 5)],
    "recip": [("the", 50), ("poss", 32), ("a", 8), ("this", 10)],
}


def random_np(rng, noun, role, neg=False, generic=False, adjs=True, plural=None,
              allow_of=True, avoid=()):
    """A noun phrase with a random determiner, number and adjectives."""
    dets = DET_WEIGHTS[role]
    if noun.mass:
        dets = [(d, w) for d, w in dets if d in ("the", "bare", "this", "poss")]
        if role == "loc":
            dets = [("the", 1)]
    if generic:
        dets = [(d, w) for d, w in dets if d in ("the", "bare", "poss", "this")]
    if noun.cat == "P" and not ({"kin", "poss"} & set(noun.flags)):
        dets = [(d, w) for d, w in dets if d != "poss"]
    if "kin" in noun.flags:
        dets = [(d, w) for d, w in dets if d != "bare"]  # "he sees brothers"
    if role == "loc" and noun.cat != "B" and noun.en_sg != "garden":
        dets = [(d, w) for d, w in dets if d != "poss"]  # "near their sea"
    det = wchoice(rng, dets)
    if det == "poss" and noun.mass and rng.random() < 0.7:
        det = "the"
    if "one" in noun.flags:
        dets = [(d, w) for d, w in dets if d not in ("num", "thenum", "bare")]
        det = wchoice(rng, dets)
    if "possonly" in noun.flags:
        det = "poss"  # "her husband", never "a husband" (une femme = a woman)
    if det in ("num", "thenum"):
        n = "pl"
    elif det == "a":
        n = "sg"
    elif det == "bare":
        n = "sg" if noun.mass else "pl"
    elif plural is not None:
        n = "pl" if plural else "sg"
    else:
        n = "pl" if rng.random() < 0.3 else "sg"
    if noun.mass or "one" in noun.flags:
        n = "sg"
    pre, post = pick_adjs(rng, noun, avoid=avoid) if adjs else (None, None)
    poss = rng.choice([0, 1, 2, 3, 4, 5]) if det == "poss" else None
    if "possonly" in noun.flags:
        poss = rng.choice([0, 1, 2, 3])  # my/your/his/her husband, not "our husband"
    number = rng.choice(NUMBERS) if det in ("num", "thenum") else None
    np_ = noun_phrase(rng, noun, det, n, pre, post, neg=neg, generic=generic,
                      poss=poss, number=number)
    if allow_of and det in ("the", "a") and rng.random() < 0.14:
        np_ = maybe_of(rng, np_)
    return np_


def of_complement(rng, head):
    """Complement of a kin or part noun: the mother of the boy / la mère du garçon."""
    noun = head.noun
    if "kin" in noun.flags:
        if rng.random() < 0.3:
            return name_np(rng.choice(NAMES))
        comp_noun = rng.choice(nouns_matching(["P"], lambda x: x is not noun))
    elif "part" in noun.flags:
        spec = ["V"] if noun.en_sg == "wheel" else ["B", "V"]
        cands = nouns_matching(spec)
        if noun.en_sg == "roof":
            cands = [c for c in cands if c.cat == "B" and c.en_sg not in
                     ("kitchen", "bedroom", "office")]
        if noun.en_sg == "wheel":
            cands = [c for c in cands if c.en_sg in ("car", "bicycle", "bus", "truck",
                                                     "motorcycle", "taxi", "tractor")]
        if noun.en_sg in ("door", "window"):
            cands = [c for c in cands if c.en_sg not in ("bicycle", "motorcycle")]
        comp_noun = rng.choice(cands)
    else:
        return None
    det = wchoice(rng, [("the", 70), ("poss", 30)])
    poss = rng.choice([0, 1, 2, 3, 4, 5]) if det == "poss" else None
    n = "pl" if rng.random() < 0.2 and "one" not in comp_noun.flags else "sg"
    return noun_phrase(rng, comp_noun, det, n, poss=poss)


def maybe_of(rng, head):
    comp = of_complement(rng, head)
    if comp is None:
        return head
    of = E("of")
    head.en = head.en + [of] + comp.en
    head.fr = head.fr + [F("de", of, tag="de")] + comp.fr
    return head
