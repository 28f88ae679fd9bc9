#pragma once
// Scoring a decoded split: BLEU and chrF of the hypotheses against the raw references (with the
// run's evaluation settings), and teacher-forced scores of the references: loss, perplexity and,
// for a model with attention, attention entropy and (with gold alignments) the AER.

#include <optional>
#include <string>
#include <vector>

#include "checkpoint/load_run.h"
#include "config/config.h"
#include "eval/alignment.h"
#include "eval/splits.h"
#include "metrics/bleu.h"
#include "metrics/chrf.h"

namespace s2s::eval {

// The BLEU and chrF settings of an evaluation section.
metrics::BleuOptions bleu_options(const config::EvaluationConfig& evaluation);
metrics::ChrfOptions chrf_options(const config::EvaluationConfig& evaluation);

struct SplitScores {
  metrics::BleuResult bleu;
  metrics::ChrfResult chrf;
  ForcedScores forced;
  std::optional<EntropyStats> entropy;  // models with attention
  std::optional<AerCounts> aer;         // splits with gold alignments
};

// Scores `hypotheses` (one per sentence of `split`, detokenized) and the split's references
// under teacher forcing; the gold alignments describe the reference, not the hypothesis.
SplitScores score_split(checkpoint::LoadedRun& run, const Split& split,
                        const std::vector<std::string>& hypotheses);

}  // namespace s2s::eval
