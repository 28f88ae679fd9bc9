#pragma once
// Attention heatmaps as CSV, one file per sentence and head:
//   target\source,<src_1>,...,<src_S>,</s>
//   <tgt_1>,a_11,...,a_1(S+1)          one row per generated target token, </s> included;
//   ...                                weights with 6 decimals, each row sums to 1;
//                                      an exact 0 as "0", a weight below 5e-7 as "3.2e-09"
//   </s>,...
// Models with encoder self-attention also get <id>_self_head<h>.csv (source x source).
// A sidecar index.jsonl has one JSON object per file: file, matrix ("decoder_attention" or
// "encoder_self_attention"), id, head, source, hypothesis,
// reference, decode ("greedy" / "beam K"), scorer, normalizer, coverage (bool), local (and window,
// its D, with local attention), query (which decoder state was the query),
// units ("tokens", "pieces", or "words": pieces merged into words, eval/pieces.h), members (the
// number of models whose mean attention it is: 1, or an ensemble's size, eval/ensemble.h).
// Fields containing a comma, a quote or a newline are quoted, quotes doubled (RFC 4180).

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/choices.h"

namespace s2s::eval {

// One decoded sentence to draw.
struct HeatmapSentence {
  int64_t id = 0;                   // sentence id (1-based line in the split)
  std::vector<std::string> source;  // source tokens, without </s>
  std::vector<std::string> target;  // hypothesis tokens, without </s>
  torch::Tensor attention;          // [target + 1, m, source + 1]
  torch::Tensor self_attention;     // [m, source + 1, source + 1] encoder self-attention, or
                                    // undefined when the model has none
  std::string source_text;          // the raw source line
  std::string hypothesis;           // the detokenized hypothesis
  std::string reference;            // the raw reference line ("" if none)
};

// What every heatmap of one export shares.
struct HeatmapInfo {
  std::string decode;                  // "greedy" or "beam K"
  std::string scorer;                  // model.attention.scorer
  std::string query;                   // decoder_query(style)
  std::string units = "tokens";        // what rows and columns are: "tokens", "pieces" or "words"
  int64_t members = 1;                 // models averaged: 1, or an ensemble's members
  std::string normalizer = "softmax";  // model.attention.normalizer: sparse ones give exact 0s
  bool coverage = false;               // model.attention.coverage
  std::string local = "none";          // model.attention.local: none, local_m or local_p
  int64_t window = 0;                  // its D (local attention only)
};

// "previous decoder state s_{t-1}" (bahdanau) or "current decoder state s_t" (luong).
std::string decoder_query(config::DecoderStyle style);
// "greedy" for beam size 1, else "beam K".
std::string decode_name(int64_t beam_size);

// The CSV text of one head: weights [target + 1, source + 1].
std::string heatmap_csv(const std::vector<std::string>& source,
                        const std::vector<std::string>& target, const torch::Tensor& weights);

// "<id>_head<h>.csv", e.g. "0007_head0.csv".
std::string heatmap_file_name(int64_t id, int64_t head);
// "<id>_self_head<h>.csv": the encoder self-attention (source x source) of head h.
std::string self_attention_file_name(int64_t id, int64_t head);

// Writes every sentence's CSVs into `dir` (created if missing) and `dir`/index.jsonl
// (rewritten). Returns the names of the files written, index.jsonl last.
std::vector<std::string> write_heatmaps(const std::string& dir,
                                        const std::vector<HeatmapSentence>& sentences,
                                        const HeatmapInfo& info);

}  // namespace s2s::eval
