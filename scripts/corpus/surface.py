"""French/English surface post-processing (design step 5) and detokenization.

French: elision (l', d', n', qu', j', m', t'), cet/mon before a vowel, the
contractions au/aux/du/des.  English: a -> an.  detok() writes a token list
as a line: single spaces, except before . , ? ! ; : and after a token ending
in an apostrophe.
"""

from .tokens import Tok


# Words whose initial sound blocks elision and contraction (h aspiré, numbers).
NO_ELISION = {"onze", "huit", "haut", "héros", "hibou", "hache", "haricot"}
FR_VOWELS = set("aàâeéèêëiîïoôœuùûyh")  # every h-word in the lexicon has a mute h
ELIDABLE = {"le", "la", "je", "me", "te", "de", "ne", "que"}


def fr_vowel(word):
    w = word.lower()
    return w not in NO_ELISION and w[0] in FR_VOWELS


def postprocess_fr(toks):
    """Elision (l', d', n', qu', j', m', t'), cet/mon before vowels, then the
    contractions au/aux/du/des (à/de + definite article)."""
    out = []
    for i, t in enumerate(toks):
        nxt = toks[i + 1].w if i + 1 < len(toks) else "."
        w = t.w
        if t.tag in ("art", "clit", "el", "de", "ne", "que") and w.lower() in ELIDABLE:
            if nxt[0].isalpha() and fr_vowel(nxt):
                w = w[:-1] + "'"
        elif t.tag == "dem" and fr_vowel(nxt):
            w = "cet"
        elif t.tag == "possf" and fr_vowel(nxt):
            w = {"ma": "mon", "ta": "ton", "sa": "son"}[w]
        out.append(Tok(w, t.links, t.tag))
    merged = []
    i = 0
    while i < len(out):
        t = out[i]
        if i + 1 < len(out) and out[i + 1].tag == "art" and out[i + 1].w in ("le", "les"):
            key = (t.w, out[i + 1].w)
            new = {("à", "le"): "au", ("à", "les"): "aux",
                   ("de", "le"): "du", ("de", "les"): "des"}.get(key)
            if new is not None and t.tag in ("a", "de"):
                links = t.links + [l for l in out[i + 1].links if l not in t.links]
                merged.append(Tok(new, links, None))
                i += 2
                continue
        merged.append(t)
        i += 1
    return merged


EN_AN_EXCEPT = {"university", "universities", "uniform", "useful", "european", "one"}


def postprocess_en(toks):
    """a -> an before a vowel sound."""
    for i, t in enumerate(toks):
        if t.tag == "a_art" and i + 1 < len(toks):
            nxt = toks[i + 1].w.lower()
            if nxt[0] in "aeiou" and nxt not in EN_AN_EXCEPT:
                t.w = "an"
    return toks


def capitalize_first(toks):
    w = toks[0].w
    toks[0].w = w[0].upper() + w[1:]


NO_SPACE_BEFORE = {".", ",", "?", "!", ";", ":"}


def detok(words):
    """Join tokens: no space before punctuation, none after an apostrophe."""
    s = ""
    for i, w in enumerate(words):
        if i > 0 and w not in NO_SPACE_BEFORE and not words[i - 1].endswith("'"):
            s += " "
        s += w
    return s


# =============================================================================
