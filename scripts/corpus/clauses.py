"""Phrase builders (design step 3): finite clauses.

clause() builds the English and French verb groups (tense, negation,
questions with do/est-ce que, modals, object clitics, adverb placement,
participle agreement) around a subject and its complements;
copula_clause() builds NP is ADJ with predicate agreement.  Neither draws
random numbers: the templates choose everything beforehand.
"""

from .lexicon import (
    ADVERBS, AVOIR, DEVOIR, ETRE, IMPARFAIT, IMPARFAIT_VERBS, POUVOIR, VOULOIR, adj_clash, pp_form)
from .tokens import E, F


class Clitic:
    """An object pronoun: English word, French word, and agreement features."""

    def __init__(self, en, fr, g, n):
        self.en, self.fr, self.g, self.n = en, fr, g, n


def anaphor(np_):
    """Direct-object pronoun referring back to an earlier noun phrase."""
    if np_.n == "pl":
        return Clitic("them", "les", np_.g, "pl")
    if np_.noun is not None and np_.noun.cat == "P" or np_.kind == "name":
        return Clitic("him" if np_.g == "m" else "her", "le" if np_.g == "m" else "la",
                      np_.g, "sg")
    return Clitic("it", "le" if np_.g == "m" else "la", np_.g, "sg")


def en_ambiguous_past(verb, subj, tense, pol, question):
    """English "read"/"cut" are the same in present and past for I/you/we/they."""
    return (tense == "past" and pol == "aff" and not question
            and verb.past == verb.base and subj.p != 2)


def clause(subj, verb, tense, pol="aff", question=False, obj=None, dclitic=None,
           iclitic=None, recip=None, adv=None, post=None, time=None, modal=None,
           rel_gap=None):
    """Build a finite clause.

    subj: NP.  verb: Verb.  tense: pres | past | fut.  pol: aff | neg | never.
    obj: direct-object NP (after the verb in both languages).
    dclitic / iclitic: direct / indirect object pronoun (before the French verb).
    recip: "to NP" recipient for ditransitives.
    adv: key of ADVERBS.  post: (en, fr) tokens appended (PPs).  time: (en, fr).
    modal: None | can | must | want (then verb is the infinitive).
    rel_gap: NP features of an object relativised away (participle agreement).
    Returns (en_tokens, fr_tokens).
    """
    if ("stative" in verb.flags or pol == "never"
            or (adv is not None and ADVERBS[adv][2] == "pre")):
        time = None  # no "he always sang yesterday", "he never sleeps tonight"
    adv_row = ADVERBS[adv] if adv else None
    en_clitic = fr_clitic = None
    clitic = dclitic or iclitic
    if clitic is not None:
        en_clitic = E(clitic.en)
        fr_clitic = F(clitic.fr, en_clitic, tag="clit")
    if modal is None:
        en_head, en_vg, fr_vg, q, adv_en = _finite_group(
            subj, verb, tense, pol, question, adv_row, fr_clitic, dclitic, rel_gap)
    else:
        en_head, en_vg, fr_vg, q = _modal_group(subj.p, verb, modal, tense, pol, question,
                                                fr_clitic)
        adv_en = None  # a modal clause takes no adverb
    post_adv = adv_en if adv_row and adv_row[2] == "post" and modal is None else None
    en_tail, fr_tail = _clause_tail(en_clitic, dclitic, iclitic, obj, recip, post_adv,
                                    post, time)
    fr_q = [F("Est-ce", q), F("que", q, tag="que")] if question else []
    en = en_head + subj.en + en_vg + en_tail
    fr = fr_q + subj.fr + fr_vg + fr_tail
    return en, fr


def _finite_group(subj, verb, tense, pol, question, adv_row, fr_clitic, dclitic, rel_gap):
    """Verb groups of a clause without a modal.

    Returns (English head (question word), English verb group, French verb
    group, question token or None, English adverb tokens or None).
    """
    s3 = subj.p == 2
    if question:
        q = E({"pres": "Does" if s3 else "Do", "past": "Did", "fut": "Will"}[tense])
        main = E(verb.base)
        en_head, en_vg, tense_tok, neg_en, adv_en = [q], [main], q, [], None
    else:
        q, en_head = None, []
        adv_en = None
        if adv_row and adv_row[2] == "pre":
            adv_en = [E(w) for w in adv_row[0]]
        en_vg, main, tense_tok, neg_en = _en_statement(verb, tense, pol, s3, adv_en or [])
    particles = [E(w) for w in verb.particle]
    en_vg = en_vg + particles
    lex = [main] + particles  # English tokens carrying the lexical meaning
    fin, part = _fr_finite(subj, verb, tense, pol, lex, main, tense_tok, q, dclitic, rel_gap)
    fr_vg, adv_en = _fr_verb_group(fin, part, pol, neg_en, fr_clitic, adv_row, adv_en)
    if "enter" in verb.comp:
        fr_vg.append(F("dans", lex))  # enter the house -> entrer dans la maison
    return en_head, en_vg, fr_vg, q, adv_en


def _en_statement(verb, tense, pol, s3, pre_adv):
    """English verb group of a statement (no particle yet).

    pre_adv: adverb tokens placed before the lexical verb (often, always).
    Returns (tokens, lexical verb token, token carrying the tense, tokens
    that ne/pas/jamais link to).
    """
    if tense == "pres":
        if pol == "neg":
            do, no = E("does" if s3 else "do"), E("not")
            main = E(verb.base)
            return [do, no, main], main, do, [no]
        main = E(verb.s3 if s3 else verb.base)
        if pol == "never":
            no = E("never")
            return [no] + pre_adv + [main], main, main, [no]
        return pre_adv + [main], main, main, []
    if tense == "past":
        if pol == "neg":
            did, no = E("did"), E("not")
            main = E(verb.base)
            return [did, no, main], main, did, [no]
        main = E(verb.past)
        if pol == "never":
            no = E("never")
            return [no, main], main, main, [no]
        return pre_adv + [main], main, main, []
    will = E("will")
    main = E(verb.base)
    if pol in ("neg", "never"):
        no = E("not" if pol == "neg" else "never")
        return [will, no, main], main, will, [no]
    return [will] + pre_adv + [main], main, will, []


def _fr_finite(subj, verb, tense, pol, lex, main, tense_tok, q, dclitic, rel_gap):
    """French finite verb and past participle (None outside the passé composé)."""
    p = subj.p
    if tense == "past" and verb.inf in IMPARFAIT_VERBS:
        # states in the past: il voulait, elle aimait (not "a voulu")
        return F(verb.imparfait(p), lex, tense_tok if tense_tok is not main else None, q), None
    if tense == "past":
        aux = ETRE if verb.aux == "être" else AVOIR
        if verb.aux == "être":
            g, n = subj.g, subj.n
        elif dclitic is not None:
            g, n = dclitic.g, dclitic.n
        elif rel_gap is not None:
            g, n = rel_gap.g, rel_gap.n
        else:
            g, n = "m", "sg"
        if pol == "neg":
            fin = F(aux.pres[p], tense_tok)
        else:
            fin = F(aux.pres[p], tense_tok, q)
        return fin, F(pp_form(verb.pp, g, n), lex)
    if tense == "pres":
        return F(verb.pres[p], lex, tense_tok if tense_tok is not main else None, q), None
    return F(verb.fut_form(p), lex, tense_tok, q), None


def _fr_verb_group(fin, part, pol, neg_en, fr_clitic, adv_row, adv_en):
    """ne + clitic + finite verb + pas/jamais + adverb/participle, in French order.

    Returns (French tokens, English adverb tokens or None).
    """
    fr_vg = []
    if pol != "aff":
        fr_vg.append(F("ne", neg_en, tag="ne"))
    if fr_clitic is not None:
        fr_vg.append(fr_clitic)
    fr_vg.append(fin)
    if pol == "neg":
        fr_vg.append(F("pas", neg_en))
    elif pol == "never":
        fr_vg.append(F("jamais", neg_en))
    fr_adv = None
    if adv_row:
        if adv_en is None:
            adv_en = [E(w) for w in adv_row[0]]
        fr_adv = F(adv_row[1], adv_en)
        if part is None or adv_row[3] == "mid":
            fr_vg.append(fr_adv)
    if part is not None:
        fr_vg.append(part)
        if fr_adv is not None and adv_row[3] == "post":
            fr_vg.append(fr_adv)
    return fr_vg, adv_en


def _modal_group(p, verb, modal, tense, pol, question, fr_clitic):
    """Verb groups of modal + infinitive; clitics go before the infinitive.

    Returns (English head (Can), English verb group, French verb group,
    question token or None).
    """
    mverb = {"can": POUVOIR, "must": DEVOIR, "want": VOULOIR}[modal]
    main = E(verb.base)
    particles = [E(w) for w in verb.particle]
    q, mtoks, mod_en, neg_en = _en_modal(modal, tense, pol, question, p == 2)
    en_head = [q] if q is not None else []
    en_vg = mtoks + [main] + particles
    mfin_w = mverb.fut_form(p) if tense == "fut" else mverb.pres[p]
    fr_vg = []
    if pol == "neg":
        fr_vg.append(F("ne", neg_en, tag="ne"))
    fr_vg.append(F(mfin_w, mod_en, [t for t in neg_en if t.w == "cannot"]))
    if pol == "neg":
        fr_vg.append(F("pas", neg_en))
    if fr_clitic is not None:
        fr_vg.append(fr_clitic)  # il veut le voir
    fr_vg.append(F(verb.inf, main, particles))
    if "enter" in verb.comp:
        fr_vg.append(F("dans", main))
    return en_head, en_vg, fr_vg, q


def _en_modal(modal, tense, pol, question, s3):
    """English modal tokens: (question token or None, modal tokens in the verb
    group, tokens the French modal links to, tokens ne/pas link to)."""
    if modal == "can":
        if question:
            q = E("Can")
            return q, [], [q], []
        if tense == "fut":
            w = E("will")
            no = [E("not")] if pol == "neg" else []
            be, able, to = E("be"), E("able"), E("to")
            return None, [w] + no + [be, able, to], [w, be, able, to], no
        if pol == "neg":
            c = E("cannot")
            return None, [c], [c], [c]
        c = E("can")
        return None, [c], [c], []
    if modal == "must":
        if tense == "fut":
            w, have, to = E("will"), E("have"), E("to")
            return None, [w, have, to], [w, have, to], []
        m = E("must")
        no = [E("not")] if pol == "neg" else []
        return None, [m] + no, [m], no
    to = E("to")  # want to
    if pol == "neg":
        do, no, want = E("does" if s3 else "do"), E("not"), E("want")
        return None, [do, no, want, to], [do, want, to], [no]
    want = E("wants" if s3 else "want")
    return None, [want, to], [want, to], []


def _clause_tail(en_clitic, dclitic, iclitic, obj, recip, post_adv, post, time):
    """Everything after the verb group: objects, recipient, adverb, PPs, time."""
    en_tail, fr_tail = [], []
    if iclitic is not None:
        en_tail.append(en_clitic)  # gives him the book
    if dclitic is not None:
        en_tail.append(en_clitic)
    if obj is not None:
        en_tail += obj.en
        fr_tail += obj.fr
    if recip is not None:
        to = E("to")
        en_tail += [to] + recip.en
        fr_tail += [F("à", to, tag="a")] + recip.fr
    if post_adv is not None:
        en_tail += post_adv
    if post is not None:
        en_tail += post[0]
        fr_tail += post[1]
    if time is not None:
        en_tail += time[0]
        fr_tail += time[1]
    return en_tail, fr_tail


def clashes(np_, adj):
    """True if the subject already carries this adjective or its opposite."""
    return any(adj_clash(t.w, adj.en) for t in np_.en)


def copula_clause(subj, adj, tense, pol="aff", question=False, time=None):
    """NP is/was/will be ADJ -> NP est/était/sera ADJ (with agreement)."""
    p, s3 = subj.p, subj.p == 2
    if tense == "pres":
        w = "am" if p == 0 else ("is" if s3 else "are")
    elif tense == "past":
        w = "was" if p in (0, 2) else "were"
    else:
        w = "will"
    en_head, en_vg = [], []
    if question:
        q = E(w.capitalize())
        en_head = [q]
        be_toks = [q]
        if tense == "fut":
            b = E("be")
            en_vg = [b]
            be_toks.append(b)
        neg_en = []
    else:
        t = E(w)
        be_toks = [t]
        neg_en = []
        en_vg = [t]
        if pol == "neg":
            no = E("not")
            en_vg.append(no)
            neg_en = [no]
        if tense == "fut":
            b = E("be")
            en_vg.append(b)
            be_toks.append(b)
    a = E(adj.en)
    en = en_head + subj.en + en_vg + [a]
    if tense == "pres":
        fw = ETRE.pres[p]
    elif tense == "past":
        fw = IMPARFAIT["être"][p]  # was -> imparfait (était), the descriptive past
    else:
        fw = ETRE.fut_form(p)
    fr_vg = []
    if pol == "neg":
        fr_vg.append(F("ne", neg_en, tag="ne"))
    fr_vg.append(F(fw, be_toks))
    if pol == "neg":
        fr_vg.append(F("pas", neg_en))
    fr_vg.append(F(adj.form(subj.g, subj.n), a))
    fr = subj.fr + fr_vg
    if question:
        fr = [F("Est-ce", be_toks[0]), F("que", be_toks[0], tag="que")] + fr
    if time is not None:
        en += time[0]
        fr += time[1]
    return en, fr


# =============================================================================
# 4. SENTENCE TEMPLATES
