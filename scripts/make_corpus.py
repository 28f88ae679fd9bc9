#!/usr/bin/env python3
"""Deterministic generator of a synthetic English->French parallel corpus.

The sentences are produced by a small hand-written grammar over a real
bilingual lexicon, so every French sentence is a correct translation of its
English source and the word alignment is known exactly.

Usage:
    python3 scripts/make_corpus.py --out data/en-fr [--seed 1234]

Writes train/valid/test .en/.fr files (one sentence per line, UTF-8, LF) and
their gold word alignments (.align, Pharaoh "i-j" format, sorted,
i = 0-based English token index, j = 0-based French token index).  The same
seed always gives byte-identical files: only random.Random(seed) is used and
no iteration depends on set or hash order.  Valid/test English sources are
distinct from each other and from every training source.

Token indices refer to the project's `word` tokenizer; every written line is
re-tokenized with a Python copy of it (corpus/tokenizer.py) and the script
aborts if the result differs from the generator's tokens or an alignment is
out of range.

This file is the command line; the generator is the package in corpus/ next
to it, one module per step of the design:
  1. lexicon tables (lexicon_nouns, lexicon_words, lexicon_verbs), loaded
     into Noun/Adj/Verb objects by lexicon
  2. token / phrase primitives (tokens: every French token records the
     English tokens it translates; the alignment is read off those links at
     the end, in alignments)
  3. phrase builders (phrases: noun phrases; places: locative PPs and time
     adverbials; clauses: finite clauses)
  4. sentence templates (picks, templates_basic, templates_compound,
     templates)
  5. French/English surface post-processing (surface: elision, contractions,
     a/an, detokenization)
  6. tokenizer self-check, split, dedupe, write, statistics (tokenizer,
     output)
Standard library only.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from corpus.output import generate, stats, write_split  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory (created if missing)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--train", type=int, default=20000)
    ap.add_argument("--valid", type=int, default=1000)
    ap.add_argument("--test", type=int, default=1000)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    train, valid, test = generate(args.seed, args.train, args.valid, args.test)
    os.makedirs(args.out, exist_ok=True)
    write_split(args.out, "train", train)
    write_split(args.out, "valid", valid)
    write_split(args.out, "test", test)
    if not args.quiet:
        print(stats([("train", train), ("valid", valid), ("test", test)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
