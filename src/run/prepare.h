#pragma once
// Prepared training corpora (data/prepared.h): where one lives, how it is made in one streaming
// pass, and how a training reuses it. `s2s prepare -c CONFIG` makes it; `train` with
// data.prepared makes it on first use and reuses it after, like fairseq-preprocess's output.
//
// A prepared corpus lives beside the training data (TRAIN.prepared/) or in data.prepared_dir,
// never in a run directory (so --overwrite never touches it), one directory per preparation
// settings (the corpus, tokenizer, lower-casing, length limit, vocabulary and SentencePiece
// options): trainings that differ in anything else share it. It keeps its vocabularies and
// SentencePiece models: a training reads them from there, and a SentencePiece model is trained
// once, with the seed of the config that prepared the corpus, on a seeded sample of at most
// data.sentencepiece.input_sentence_size pairs drawn while streaming.

#include <memory>
#include <string>

#include "config/config.h"
#include "data/prepared.h"
#include "data/vocab.h"
#include "run/run_dir.h"
#include "run/tokenizers.h"

namespace s2s::run {

// The directory of the prepared corpus of `config`'s training split.
std::string prepared_path(const config::Config& config);

struct Prepared {
  Tokenizers tokenizers;
  data::Vocab src_vocab, tgt_vocab;
  std::shared_ptr<const data::PreparedCorpus> corpus;
};

// Opens the prepared corpus of `config`, preparing it first if there is none, or replacing it
// when `overwrite` (the user asked). Processes that start together wait for the one preparing.
// Refuses (InputError, one line) a corpus whose source files changed since it was prepared, and
// a truncated, corrupt or foreign one.
Prepared open_prepared(const config::Config& config, bool overwrite = false);

// Refuses vocabularies of `run` (a resumed run, or an ensemble's first member) that differ from
// the prepared corpus's: its ids mean the prepared vocabularies' tokens.
void check_vocabularies(const Prepared& prepared, const RunPaths& run);

}  // namespace s2s::run
