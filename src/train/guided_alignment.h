#pragma once
// The gold side of guided alignment (Chen et al. 2016; Marian's --guided-alignment): the word
// alignments of data.train_alignments, matched to the training pairs that survived filtering,
// and each batch's gold alignment matrix. The loss between it and the attention is in
// train/attention_loss.h.
//
// Links index the words of the `word` tokenizer, as the valid/test alignments do. With
// SentencePiece a link i-j becomes every (source piece of word i, target piece of word j); a
// sentence whose pieces do not spell its words (eval/pieces.h) keeps no links, and the log
// counts such sentences.
//
// Shapes: B sentences, T target steps (</s> included), S source positions (</s> included).

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "batching/batch.h"
#include "config/config.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "eval/alignment.h"

namespace s2s::train {

// The gold alignment of every pair of `train` (corpus order), in its tokens' positions: read
// from data.train_alignments, one line per line of data.train. A file with another number of
// lines, a malformed link or a link outside its sentence is an InputError naming the file and
// line. Empty when data.train_alignments is not set.
std::vector<eval::Alignment> load_train_alignments(const config::DataConfig& data,
                                                   const data::TokenizedCorpus& train,
                                                   const data::Tokenizer& src_tokenizer);

// Word links -> piece links: every (source piece of word i, target piece of word j).
// `src_words` / `tgt_words`: the word of each piece (eval::PieceWords::word_of_piece).
eval::Alignment piece_alignment(const eval::Alignment& words, const std::vector<int64_t>& src_words,
                                const std::vector<int64_t>& tgt_words);

// G [B, T, S] (float, on `device`) for the pairs `indices`: G[b, j, i] = 1 / n_j for each of
// the n_j links i-j of target token j, 0 elsewhere (rows of unlinked tokens, </s>, padding).
torch::Tensor gold_alignment_matrix(const std::vector<eval::Alignment>& alignments,
                                    const std::vector<std::size_t>& indices, int64_t steps,
                                    int64_t sources, const torch::Device& device);

}  // namespace s2s::train
