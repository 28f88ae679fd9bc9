"""Finished sentence pairs and their word alignment.

finalize() post-processes both sides (surface.py), adds the final
punctuation and reads the alignment off the French tokens' links to English
tokens: Pharaoh "i-j" pairs, i = English token index, j = French token
index, sorted.  Every token on both sides must be aligned.
"""

from .tokens import E, F
from .surface import capitalize_first, detok, postprocess_en, postprocess_fr


class Pair:
    __slots__ = ("en", "fr", "align", "template")

    def __init__(self, en, fr, align, template):
        self.en, self.fr, self.align, self.template = en, fr, align, template


def finalize(en, fr, question, template):
    """Post-process both sides, add final punctuation, compute the alignment."""
    en = postprocess_en(list(en))
    fr = postprocess_fr(list(fr))
    p_en = E("?" if question else ".")
    en.append(p_en)
    fr.append(F("?" if question else ".", p_en))
    capitalize_first(en)
    capitalize_first(fr)
    index = {id(t): i for i, t in enumerate(en)}
    assert len(index) == len(en), "English token object reused"
    align = set()
    for j, t in enumerate(fr):
        assert t.links, "unaligned French token %r in %s" % (t.w, detok([x.w for x in fr]))
        for l in t.links:
            assert id(l) in index, "dangling link %r -> %r" % (t.w, l.w)
            align.add((index[id(l)], j))
    covered = {i for i, _ in align}
    for i, t in enumerate(en):
        assert i in covered, "unaligned English token %r in %s" % (
            t.w, detok([x.w for x in en]))
    en_words = [t.w for t in en]
    fr_words = [t.w for t in fr]
    return Pair(en_words, fr_words, sorted(align), template)
