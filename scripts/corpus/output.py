"""Generation loop, self-check, splits, writing and statistics (design step 6).

Only random.Random(seed) is used and no iteration depends on set or hash
order, so the same seed always gives byte-identical files.  Duplicate
English sources are dropped (and must have had the same translation), so the
consecutive test/valid/train slices have disjoint sources.  Every written
line is re-tokenized (tokenizer.py) and checked against the generator's
tokens, alignment ranges and Unicode NFC.
"""

import os
import random
import unicodedata

from .lexicon import ADJS, ADVERBS, CITIES, COUNTRIES, NAMES, NOUN_LIST, NUMBERS, VERBS
from .tokens import wchoice
from .surface import detok
from .templates import TEMPLATES
from .tokenizer import word_tokenize
from .alignments import finalize


MIN_LEN, MAX_LEN = 4, 30


def generate_pair(rng):
    while True:
        name, _, fn = TEMPLATES[wchoice(rng, [(i, t[1]) for i, t in enumerate(TEMPLATES)])]
        res = fn(rng)
        if res is None:
            continue
        en, fr = res
        question = en[0].w in ("Does", "Do", "Did", "Will", "Can", "Is", "Are", "Am",
                               "Was", "Were")
        pair = finalize(en, fr, question, name)
        if not (MIN_LEN <= len(pair.en) <= MAX_LEN and MIN_LEN <= len(pair.fr) <= MAX_LEN):
            continue
        return pair


def check_pair(pair, en_line, fr_line):
    """Self-check: the written lines re-tokenize to exactly the generator tokens."""
    if word_tokenize(en_line) != pair.en:
        raise SystemExit("tokenizer mismatch (en): %r vs %r" % (word_tokenize(en_line), pair.en))
    if word_tokenize(fr_line) != pair.fr:
        raise SystemExit("tokenizer mismatch (fr): %r vs %r" % (word_tokenize(fr_line), pair.fr))
    if "'" in en_line or "\u2019" in en_line:
        raise SystemExit("apostrophe on the English side: %r" % en_line)
    if not (unicodedata.is_normalized("NFC", en_line) and unicodedata.is_normalized("NFC", fr_line)):
        raise SystemExit("line not in Unicode NFC: %r" % fr_line)
    for i, j in pair.align:
        if not (0 <= i < len(pair.en) and 0 <= j < len(pair.fr)):
            raise SystemExit("alignment out of range in %r" % en_line)


def generate(seed, n_train, n_valid, n_test):
    rng = random.Random(seed)
    total = n_train + n_valid + n_test
    seen = {}  # English line -> French line (insertion-ordered dict)
    pairs = []
    attempts = 0
    while len(pairs) < total:
        attempts += 1
        if attempts > total * 20:
            raise SystemExit("could not generate enough distinct sentences")
        pair = generate_pair(rng)
        en_line, fr_line = detok(pair.en), detok(pair.fr)
        if en_line in seen:
            # the grammar is deterministic: one English sentence, one translation
            if seen[en_line] != fr_line:
                raise SystemExit("two translations for %r:\n  %r\n  %r" %
                                 (en_line, seen[en_line], fr_line))
            continue
        check_pair(pair, en_line, fr_line)
        seen[en_line] = fr_line
        pairs.append(pair)
    # sentences are already in random order and all sources are distinct, so
    # consecutive slices give disjoint splits
    test = pairs[:n_test]
    valid = pairs[n_test:n_test + n_valid]
    train = pairs[n_test + n_valid:]
    return train, valid, test


def write_split(out_dir, name, pairs):
    def w(path, lines):
        with open(os.path.join(out_dir, path), "w", encoding="utf-8", newline="\n") as f:
            for line in lines:
                assert line and "\n" not in line
                f.write(line + "\n")
    w(name + ".en", [detok(p.en) for p in pairs])
    w(name + ".fr", [detok(p.fr) for p in pairs])
    w(name + ".align", [" ".join("%d-%d" % a for a in p.align) for p in pairs])


def stats(splits):
    lines = []
    vocab = {"en": set(), "fr": set()}
    for name, pairs in splits:
        for side in ("en", "fr"):
            lens = [len(getattr(p, side)) for p in pairs]
            for p in pairs:
                vocab[side].update(getattr(p, side))
            lines.append("%-5s %s: %6d sentences %7d tokens  len min/mean/max %d/%.2f/%d" % (
                name, side, len(pairs), sum(lens), min(lens), sum(lens) / len(lens), max(lens)))
    lines.append("vocabulary (all splits, case-sensitive token types): en %d, fr %d" % (
        len(vocab["en"]), len(vocab["fr"])))
    train = splits[0][1]
    tv = {"en": set(), "fr": set()}
    for p in train:
        tv["en"].update(p.en)
        tv["fr"].update(p.fr)
    lines.append("vocabulary (train only): en %d, fr %d" % (len(tv["en"]), len(tv["fr"])))
    counts = {}
    for _, pairs in splits:
        for p in pairs:
            counts[p.template] = counts.get(p.template, 0) + 1
    lines.append("templates: " + ", ".join("%s %d" % (k, counts[k]) for k, _, _ in
                                           TEMPLATES if k in counts))
    n_lemmas = (len(NOUN_LIST) + len(ADJS) + len({(v.base, v.inf) for v in VERBS})
                + len(NAMES) + len(CITIES) + len(COUNTRIES) + len(NUMBERS) + len(ADVERBS))
    lines.append("lexicon: %d nouns, %d adjectives, %d verbs, %d names, %d cities, "
                 "%d countries, %d numerals, %d adverbs (%d content entries)" % (
                     len(NOUN_LIST), len(ADJS), len(VERBS), len(NAMES), len(CITIES),
                     len(COUNTRIES), len(NUMBERS), len(ADVERBS), n_lemmas))
    return "\n".join(lines)
