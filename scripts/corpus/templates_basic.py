"""Sentence templates (design step 4): single clauses.

Transitive, intransitive, movement, copula, existential, ditransitive,
object-pronoun and modal sentences.  Each template returns (en, fr) token
lists, or None to ask for another draw.
"""

from .lexicon import ADJS, ADVERBS, COUNTRIES, NAMES, NOUN_LIST, NUMBERS, PRONOUNS, nouns_matching
from .tokens import E, F, wchoice
from .phrases import name_np, noun_phrase, pick_adjs, pronoun_np, random_np
from .places import city_pp, country_phrase, place_pp, random_locative, thing_locative
from .clauses import Clitic, clashes, clause, copula_clause, en_ambiguous_past
from .picks import (
    DI_VERBS, IN_VERBS, MV_VERBS, TENSES, TR_VERBS, compatible_objects, maybe_time, pick_object,
    pick_subject, pick_tense_pol, subject_fits)


def transitive_clause(rng, subj=None, verb=None, tense=None, pol=None, obj=None,
                      time_p=0.3, loc_p=0.06, question=False):
    """SUBJ V OBJ [PP] [TIME]: the basic reordering-free frame."""
    if verb is None:
        verb = rng.choice(TR_VERBS)
    if subj is None:
        subj = pick_subject(rng, verb.subj)
    if tense is None:
        tense, pol = pick_tense_pol(rng, not question)
    if question:
        pol = "aff"
    if en_ambiguous_past(verb, subj, tense, pol, question):
        tense = "pres"
    if obj is None:
        obj = pick_object(rng, verb, neg=pol != "aff", subj=subj)
    post = random_locative(rng) if rng.random() < loc_p else None
    time = maybe_time(rng, tense, time_p)
    en, fr = clause(subj, verb, tense, pol, question=question, obj=obj, post=post, time=time)
    return en, fr, obj


def intransitive_clause(rng, subj=None, tense=None, pol=None, question=False,
                        loc_p=0.4, time_p=0.3):
    """SUBJ V [ADV] [PP] [TIME]: she sings well / elle chante bien."""
    while True:
        verb = rng.choice(IN_VERBS)
        if subj is None or subject_fits(subj, verb):
            break
    if subj is None:
        subj = pick_subject(rng, verb.subj)
    if tense is None:
        tense, pol = pick_tense_pol(rng, not question)
    if question:
        pol = "aff"
    if en_ambiguous_past(verb, subj, tense, pol, question):
        tense = "pres"
    adv = None
    if verb.advs and rng.random() < 0.45:
        adv = rng.choice(verb.advs)
        if ADVERBS[adv][2] == "pre" and pol != "aff":
            adv = None
        if question:
            adv = None
    post = None
    if verb.inf == "voyager":
        # travel in Italy / voyager en Italie, travel in Rome / voyager à Rome
        if rng.random() < 0.5:
            post = country_phrase(rng.choice(COUNTRIES), "in", "in")
        elif rng.random() < 0.6:
            post = city_pp(rng, "in", "à")
    elif rng.random() < loc_p:
        post = random_locative(rng, water=verb.inf == "nager" and rng.random() < 0.6)
    time = maybe_time(rng, tense, time_p)
    return clause(subj, verb, tense, pol, question=question, adv=adv, post=post, time=time)


TO_PLACES = [n for n in NOUN_LIST if "to" in n.flags]
ENTER_PLACES = [n for n in NOUN_LIST if n.cat == "B" and "in" in n.preps]


def movement_clause(rng, subj=None, tense=None, pol=None, question=False):
    """Movement verbs: passé composé with être and agreement (elle est partie)."""
    while True:
        verb = rng.choice(MV_VERBS)
        if subj is None or subject_fits(subj, verb):
            break
    if subj is None:
        subj = pick_subject(rng, verb.subj)
    if tense is None:
        tense, pol = pick_tense_pol(rng, not question)
    if question:
        pol = "aff"
    comp = verb.comp[0]
    post, obj = None, None
    r = rng.random()
    if comp == "to":
        if r < 0.15:
            post = city_pp(rng, "to", "à")
        elif r < 0.3:
            post = country_phrase(rng.choice(COUNTRIES), "to", "to")
        else:
            post = place_pp(rng, "at", rng.choice(TO_PLACES))
            post[0][0].w = "to"  # "to the park" / "au parc"
    elif comp == "from":
        if r < 0.15:
            post = city_pp(rng, "from", "de")
        elif r < 0.3:
            post = country_phrase(rng.choice(COUNTRIES), "from", "from")
        else:
            post = place_pp(rng, "at", rng.choice(TO_PLACES))
            post[0][0].w = "from"
            post[1][0].w, post[1][0].tag = "de", "de"
    elif comp == "at":
        if r < 0.15:
            post = city_pp(rng, "in", "à")
        elif r < 0.3:
            post = country_phrase(rng.choice(COUNTRIES), "in", "in")
        else:
            post = place_pp(rng, "at", rng.choice(TO_PLACES))
    elif comp == "enter":
        obj = random_np(rng, rng.choice(ENTER_PLACES), "loc", allow_of=False, plural=False)
    elif comp == "loc":
        if verb.inf == "tomber":
            # one falls in the garden / in the snow / on the road, not "in Berlin"
            if r < 0.6:
                post = random_locative(rng, city=False, cats=("L", "N"))
        else:
            post = random_locative(rng)
    far = comp in ("to", "from", "at") and r < 0.3  # a city or a country
    time = maybe_time(rng, tense, 0.35 if post is None else 0.2)
    if far and tense == "pres" and time is not None and time[0][0].w == "every":
        time = None  # "she goes to Japan every morning" is not plausible
    return clause(subj, verb, tense, pol, question=question, obj=obj, post=post, time=time)


def copula_sentence(rng, question=False):
    """The car is red. / La voiture est rouge. (predicate agreement)"""
    r = rng.random()
    tense = wchoice(rng, TENSES)
    pol = "aff" if question or rng.random() < 0.7 else "neg"
    if r < 0.2:
        idx = rng.choice([0, 1, 2, 3, 3, 4, 5])
        subj = pronoun_np(idx)
        adjs = [a for a in ADJS if "P" in a.spec and a.pred]
    elif r < 0.27:
        # body parts: ses yeux sont bleus
        noun = rng.choice([n for n in NOUN_LIST if n.cat == "Y"])
        subj = noun_phrase(rng, noun, "poss", "sg" if noun.en_sg == "nose" else "pl",
                           poss=rng.choice([0, 1, 2, 3, 4, 5]))
        adjs = [a for a in ADJS if a.fits(noun) and a.pred]
    else:
        noun = rng.choice([n for n in NOUN_LIST if n.cat != "Y"])
        subj = random_np(rng, noun, "cop", adjs=rng.random() < 0.3)
        adjs = [a for a in ADJS if a.fits(noun) and a.pred]
    if not adjs:
        return None
    adj = rng.choice(adjs)
    if clashes(subj, adj):
        return None
    time = maybe_time(rng, tense, 0.3) if adj.state else None
    return copula_clause(subj, adj, tense, pol, question=question, time=time)


def existential_sentence(rng):
    """There is a cat in the garden. / Il y a un chat dans le jardin."""
    tense = wchoice(rng, TENSES)
    neg = rng.random() < 0.25
    noun = rng.choice([n for n in NOUN_LIST if n.cat in ("P", "A", "V", "O", "U", "F", "R", "C", "D", "M")
                       and not {"part", "surface", "kin"} & set(n.flags)])
    if noun.mass:
        n = "sg"
    else:
        n = "pl" if rng.random() < 0.4 else "sg"
    pre, post = pick_adjs(rng, noun)
    en = []
    there = E("There")
    en.append(there)
    if tense == "pres":
        be = [E("are" if n == "pl" else "is")]
        fw = "a"
    elif tense == "past":
        be = [E("were" if n == "pl" else "was")]
        fw = "avait"
    else:
        be = [E("will"), E("be")]
        fw = "aura"
    en += be
    fr = [F("il", there)]
    if neg:
        no = E("no")
        en.append(no)
        fr.append(F("ne", no, tag="ne"))
        fr += [F("y", there), F(fw, be), F("pas", no)]
        np_ = noun_phrase(rng, noun, "bare", n, pre, post, neg=True)
        # "no" also links to the "de" that replaces the article
        np_.fr[0].links.append(no)
    else:
        fr += [F("y", there), F(fw, be)]
        if noun.mass:
            det = "bare"
        elif n == "pl":
            det = "num" if rng.random() < 0.35 else "bare"
        else:
            det = "a"
        number = rng.choice(NUMBERS) if det == "num" else None
        np_ = noun_phrase(rng, noun, det, n, pre, post, number=number)
    en += np_.en
    fr += np_.fr
    loc = thing_locative(rng, noun)
    if noun.en_sg in [t.w for t in loc[0]]:
        return None  # "a bucket in the bucket"
    en += loc[0]
    fr += loc[1]
    time = maybe_time(rng, tense, 0.15)
    if time:
        en += time[0]
        fr += time[1]
    return en, fr


def clitic_choices(subj):
    """Object pronouns that do not refer to the subject itself (no "I see me",
    "I help us", "you see you": those would need reflexive verbs)."""
    if subj.kind != "pron":
        return list(range(6))
    blocked = {0: {0, 4}, 1: {1}, 3: {0, 4}}.get(subj.p, set())
    return [i for i in range(6) if i not in blocked]


def ditransitive_sentence(rng):
    """give OBJ to NP / give PRONOUN OBJ: au/aux, lui/leur before the verb."""
    verb = rng.choice(DI_VERBS)
    subj = pick_subject(rng, verb.subj)
    tense, pol = pick_tense_pol(rng)
    noun = rng.choice([n for n in compatible_objects(verb)])
    obj = random_np(rng, noun, "obj", neg=pol != "aff", allow_of=False)
    time = maybe_time(rng, tense, 0.2)
    if rng.random() < 0.6:
        rnoun = rng.choice(nouns_matching(["P"]))
        if rng.random() < 0.25:
            recip = name_np(rng.choice(NAMES))
        else:
            if subj.noun is rnoun:
                return None
            recip = random_np(rng, rnoun, "recip", adjs=rng.random() < 0.4, allow_of=False)
        return clause(subj, verb, tense, pol, obj=obj, recip=recip, time=time)
    # indirect object pronoun: "gives him the book" -> "lui donne le livre"
    idx = rng.choice(clitic_choices(subj))
    row = PRONOUNS[idx]
    cl = Clitic(row[5], row[7], row[3], row[4])
    return clause(subj, verb, tense, pol, obj=obj, iclitic=cl, time=time)


def pronoun_object_sentence(rng):
    """She sees him. / Elle le voit.  He did not help us. / Il ne nous a pas aidés."""
    verb = rng.choice([v for v in TR_VERBS if "P" in v.comp])
    subj = pick_subject(rng, verb.subj)
    tense, pol = pick_tense_pol(rng)
    if en_ambiguous_past(verb, subj, tense, pol, False):
        tense = "pres"
    idx = rng.choice(clitic_choices(subj))
    row = PRONOUNS[idx]
    cl = Clitic(row[5], row[6], row[3], row[4])
    time = maybe_time(rng, tense, 0.3)
    return clause(subj, verb, tense, pol, dclitic=cl, time=time)


def modal_sentence(rng):
    """can / must / want to + infinitive; clitics go before the infinitive."""
    modal = wchoice(rng, [("can", 40), ("must", 30), ("want", 30)])
    if modal == "can":
        tense = "fut" if rng.random() < 0.35 else "pres"
    elif modal == "must":
        tense = "fut" if rng.random() < 0.25 else "pres"
    else:
        tense = "pres"
    pol = "neg" if rng.random() < 0.3 and not (modal == "must" and tense == "fut") else "aff"
    kind = rng.random()
    if kind < 0.45:
        verb = rng.choice([v for v in TR_VERBS if "stative" not in v.flags])
        subj = pick_subject(rng, verb.subj)
        obj = pick_object(rng, verb, neg=pol != "aff", subj=subj)
        return clause(subj, verb, tense, pol, obj=obj, modal=modal,
                      time=maybe_time(rng, tense, 0.2))
    if kind < 0.6:
        verb = rng.choice([v for v in TR_VERBS if "P" in v.comp and "stative" not in v.flags])
        subj = pick_subject(rng, verb.subj)
        row = PRONOUNS[rng.choice(clitic_choices(subj))]
        cl = Clitic(row[5], row[6], row[3], row[4])
        return clause(subj, verb, tense, pol, dclitic=cl, modal=modal)
    verb = rng.choice([v for v in IN_VERBS + MV_VERBS if v.inf != "tomber"])
    subj = pick_subject(rng, verb.subj)
    post = None
    if verb.kind == "mv" and verb.comp[0] == "to":
        post = place_pp(rng, "at", rng.choice(TO_PLACES))
        post[0][0].w = "to"
    elif rng.random() < 0.3 and (verb.kind == "in" or "loc" in verb.comp):
        post = random_locative(rng)
    obj = None
    if "enter" in verb.comp:
        obj = random_np(rng, rng.choice(ENTER_PLACES), "loc", allow_of=False, plural=False)
    return clause(subj, verb, tense, pol, obj=obj, post=post, modal=modal,
                  time=maybe_time(rng, tense, 0.2))
