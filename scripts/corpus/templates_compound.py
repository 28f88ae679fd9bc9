"""Sentence templates (design step 4): compound sentences.

Coordination (with an anaphoric pronoun or free), "because", relative
clauses on subjects and objects, and questions.  Each template returns
(en, fr) token lists, or None to ask for another draw.
"""

from .lexicon import ADJS, NOUN_LIST
from .tokens import E, F, NP, wchoice
from .phrases import noun_phrase, pronoun_np, random_np
from .clauses import anaphor, clashes, clause, copula_clause, en_ambiguous_past
from .picks import (
    CREATION_VERBS, IN_VERBS, MV_VERBS, POLS, TENSES, TR_VERBS, compatible_objects, maybe_time,
    object_avoid, pick_object, pick_subject, pick_tense_pol, subj_spec_for)
from .templates_basic import (
    copula_sentence, intransitive_clause, movement_clause, transitive_clause)


def any_clause(rng, question=False):
    r = rng.random()
    if r < 0.5:
        return transitive_clause(rng, question=question)[:2]
    if r < 0.75:
        return intransitive_clause(rng, question=question)
    return movement_clause(rng, question=question)


def coordinated_anaphora(rng):
    """She buys a car and he washes it. / Elle achète une voiture et il la lave."""
    verb1 = rng.choice(TR_VERBS)
    tense1, pol1 = pick_tense_pol(rng)
    pol1 = "aff"
    subj1 = pick_subject(rng, verb1.subj)
    if en_ambiguous_past(verb1, subj1, tense1, pol1, False):
        tense1 = "pres"
    # pick an object noun that some second verb can take
    noun = rng.choice(compatible_objects(verb1, subj=subj1))
    obj = random_np(rng, noun, "obj", generic=verb1.generic, allow_of=False,
                    avoid=("broken",))
    if obj.n == "sg" and noun.mass and not obj.en[0].w in ("the", "this"):
        return None  # "he drinks water and she ... it" is odd
    if obj.fr[0].w == "des" or (obj.en and obj.en[0].w not in ("the", "a", "this", "these",
                                                               "my", "your", "his", "her",
                                                               "our", "their")):
        if rng.random() < 0.7:
            return None
    # the second verb acts on an existing thing: not build/make/write/prepare
    verbs2 = [v for v in TR_VERBS if noun.matches(v.comp) and v is not verb1
              and v.inf not in CREATION_VERBS]
    if not verbs2:
        return None
    verb2 = rng.choice(verbs2)
    e1, f1 = clause(subj1, verb1, tense1, pol1, obj=obj)
    subj2 = pick_subject(rng, subj_spec_for(verb2, noun))
    # the second event follows the first: same tense, or present -> future,
    # past -> present
    tense2 = tense1
    if rng.random() < 0.2:
        tense2 = {"pres": "fut", "past": "pres", "fut": "fut"}[tense1]
    pol2 = "neg" if rng.random() < 0.25 else "aff"
    if en_ambiguous_past(verb2, subj2, tense2, pol2, False):
        tense2 = "pres"
    cl = anaphor(obj)
    e2, f2 = clause(subj2, verb2, tense2, pol2, dclitic=cl,
                    time=maybe_time(rng, tense2, 0.2))
    return join_clauses(rng, (e1, f1), (e2, f2), "but" if pol2 == "neg" else None)


def join_clauses(rng, c1, c2, conj=None):
    if conj is None:
        conj = wchoice(rng, [("and", 70), ("but", 30)])
    en, fr = list(c1[0]), list(c1[1])
    if conj == "and":
        a = E("and")
        en.append(a)
        fr.append(F("et", a))
    elif conj == "but":
        c, b = E(","), E("but")
        en += [c, b]
        fr += [F(",", c), F("mais", b)]
    elif conj == "because":
        b = E("because")
        en.append(b)
        fr += [F("parce", b), F("que", b, tag="que")]
    en += c2[0]
    fr += c2[1]
    return en, fr


def coordinated_free(rng):
    c1 = any_clause(rng)
    c2 = any_clause(rng)
    return join_clauses(rng, c1, c2)


FEELINGS = [a for a in ADJS if a.en in ("happy", "sad", "tired", "sick", "nervous")]


def feeling_clause(rng, tense):
    """A person in a temporary state: she is tired / elle est fatiguée."""
    if rng.random() < 0.5:
        subj = pronoun_np(rng.choice([0, 1, 2, 3, 4, 5]))
    else:
        subj = pick_subject(rng, ["P"], allow_pron=False)
    adj = rng.choice(FEELINGS)
    if clashes(subj, adj):
        return None
    return subj, copula_clause(subj, adj, tense, "neg" if rng.random() < 0.2 else "aff")


def pronoun_for(np_):
    """Index into PRONOUNS of the pronoun that refers back to np_."""
    if np_.p == 2:
        return 2 if np_.g == "m" else 3
    return {0: 0, 1: 1, 3: 4, 5: 5}[np_.p]


def because_sentence(rng):
    """A feeling and its cause, either way round:
    she is tired because she worked a lot / parce qu'elle a beaucoup travaillé."""
    tense = wchoice(rng, [("pres", 60), ("past", 40)])
    res = feeling_clause(rng, tense)
    if res is None:
        return None
    who, feel = res
    # usually the same person: Oscar is tired because he worked a lot
    subj = pronoun_np(pronoun_for(who)) if rng.random() < 0.7 else None
    # the cause happened before (or at the same time as) the feeling
    cause_tense = "past" if tense == "past" or rng.random() < 0.6 else "pres"
    r = rng.random()
    if r < 0.45:
        cause = intransitive_clause(rng, subj=subj, tense=cause_tense, pol="aff", time_p=0.2)
    elif r < 0.75:
        cause = movement_clause(rng, subj=subj, tense=cause_tense, pol=wchoice(rng, POLS))
    else:
        cause = transitive_clause(rng, subj=subj, tense=cause_tense,
                                  pol=wchoice(rng, POLS))[:2]
    return join_clauses(rng, feel, cause, "because")


def subject_relative(rng, head_noun=None, head=None):
    """the man who sees the dog / l'homme qui voit le chien (verb agrees with head)."""
    if head is None:
        head = random_np(rng, head_noun, "subj", allow_of=False)
    noun = head.noun
    rel_w = "who" if noun.cat == "P" else "that"
    rt = E(rel_w)
    rel_subj = NP([rt], [F("qui", rt)], head.p, head.g, head.n, noun=noun, kind="rel")
    r = rng.random()
    tense = wchoice(rng, TENSES)
    if r < 0.65:
        verbs = [v for v in TR_VERBS if noun.matches(v.subj)]
        if not verbs:
            return None
        verb = rng.choice(verbs)
        if en_ambiguous_past(verb, rel_subj, tense, "aff", False):
            tense = "pres"
        obj = pick_object(rng, verb, subj=rel_subj)
        if obj.en and obj.en[-1].w == noun.en_sg:
            return None
        e, f = clause(rel_subj, verb, tense, "aff", obj=obj)
    else:
        # no time adverb inside the relative: "the man who sleeps tonight eats"
        # would be ambiguous about which verb the adverb modifies
        e, f = intransitive_clause(rng, subj=rel_subj, tense=tense, pol="aff",
                                   loc_p=0.3, time_p=0.0)
    return NP(head.en + e, head.fr + f, head.p, head.g, head.n, noun=noun)


def object_relative(rng, head_noun, verb=None, neg=False, no_creation=False,
                    main_verb=None, tense=None):
    """the book that she reads / le livre qu'elle lit; participle agrees with que:
    la lettre qu'elle a écrite."""
    verbs = [v for v in TR_VERBS if head_noun.matches(v.comp) and v is not main_verb
             and not (no_creation and v.inf in CREATION_VERBS)]
    if verb is None:
        if not verbs:
            return None
        verb = rng.choice(verbs)
    avoid = object_avoid(verb) + (object_avoid(main_verb) if main_verb else ())
    head = random_np(rng, head_noun, "subj", allow_of=False, neg=neg, avoid=avoid)
    subj = pick_subject(rng, subj_spec_for(verb, head_noun))
    if tense is None:
        tense = wchoice(rng, TENSES)
    if en_ambiguous_past(verb, subj, tense, "aff", False):
        tense = "pres"
    t = E("that")
    e, f = clause(subj, verb, tense, "aff", rel_gap=head)
    return NP(head.en + [t] + e, head.fr + [F("que", t, tag="que")] + f,
              head.p, head.g, head.n, noun=head_noun)


def relative_sentence(rng):
    r = rng.random()
    if r < 0.3:
        # relative clause on the subject
        verb = rng.choice(TR_VERBS + IN_VERBS + MV_VERBS)
        cands = [n for n in NOUN_LIST if n.matches(verb.subj) and not n.mass]
        head = subject_relative(rng, rng.choice(cands))
        if head is None:
            return None
        if verb.kind == "tr" and rng.random() < 0.6:
            return transitive_clause(rng, subj=head, verb=verb, time_p=0.1)[:2]
        if verb.kind == "mv":
            return movement_clause(rng, subj=head)
        return intransitive_clause(rng, subj=head)
    if r < 0.5:
        # object relative on the subject: The cake that she made is delicious.
        noun = rng.choice([n for n in NOUN_LIST if not n.mass and
                           any(n.matches(v.comp) for v in TR_VERBS)])
        head = object_relative(rng, noun)
        if head is None:
            return None
        adjs = [a for a in ADJS if a.fits(noun) and a.pred and not clashes(head, a)]
        if not adjs:
            return None
        return copula_clause(head, rng.choice(adjs), wchoice(rng, TENSES),
                             "neg" if rng.random() < 0.2 else "aff")
    # relative clause on the object
    verb = rng.choice(TR_VERBS)
    subj = pick_subject(rng, verb.subj)
    tense, pol = pick_tense_pol(rng)
    pol = "aff" if rng.random() < 0.8 else "neg"
    if en_ambiguous_past(verb, subj, tense, pol, False):
        tense = "pres"
    cands = [n for n in compatible_objects(verb) if not n.mass]
    if not cands:
        return None
    noun = rng.choice(cands)
    if rng.random() < 0.5 and noun.cat in ("P", "A"):
        obj = subject_relative(rng, head=noun_phrase(rng, noun, "the",
                                                     "pl" if rng.random() < 0.3 else "sg"))
        if obj is None:
            return None
    else:
        # under negation an indefinite head becomes "de": pas de livre qu'elle a lu
        # "he builds the table that she built" makes no sense: one creation verb
        # a thing made in the main clause cannot have been used before it:
        # no "I will make pies that she ate"
        creation = verb.inf in CREATION_VERBS
        obj = object_relative(rng, noun, neg=pol != "aff", no_creation=creation,
                              main_verb=verb, tense=tense if creation else None)
        if obj is None:
            return None
    return clause(subj, verb, tense, pol, obj=obj)


def question_sentence(rng):
    r = rng.random()
    if r < 0.25:
        return copula_sentence(rng, question=True)
    if r < 0.35:
        verb = rng.choice(IN_VERBS)
        subj = pick_subject(rng, verb.subj)
        return clause(subj, verb, "pres", "aff", modal="can", question=True)
    return any_clause(rng, question=True)
