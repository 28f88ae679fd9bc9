#include "serve/response.h"

#include <optional>
#include <utility>

#include "eval/pieces.h"
#include "eval/report_data.h"
#include "eval/report_svg.h"

namespace s2s::serve {
namespace {

using nlohmann::json;

// [T + 1, m, S + 1] -> the mean over heads as T + 1 rows of S + 1 doubles.
std::vector<std::vector<double>> mean_rows(const torch::Tensor& attention) {
  const auto mean = attention.to(torch::kCPU, torch::kDouble).mean(/*dim=*/1).contiguous();
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(mean.size(0)));
  const auto* data = mean.data_ptr<double>();
  const auto cols = mean.size(1);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const auto* row = data + static_cast<int64_t>(r) * cols;
    rows[r].assign(row, row + cols);
  }
  return rows;
}

std::vector<std::string> with_eos(std::vector<std::string> tokens) {
  tokens.emplace_back("</s>");
  return tokens;
}

// The mean over heads of attention [T + 1, m, S + 1] with the tokens of both axes (</s> last),
// as the report holds a heatmap: what the response lists and what svg_heatmap draws.
eval::Heatmap attention_matrix(const torch::Tensor& attention, std::vector<std::string> source,
                               std::vector<std::string> target) {
  eval::Heatmap h;
  h.cols = with_eos(std::move(source));
  h.rows = with_eos(std::move(target));
  h.weights = mean_rows(attention);
  return h;
}

// {"source": [...], "target": [...], "heads": m, "weights": [[...]]}, or null.
json matrix_json(const std::optional<eval::Heatmap>& h, int64_t heads) {
  if (!h) return nullptr;
  return {{"source", h->cols}, {"target", h->rows}, {"heads", heads}, {"weights", h->weights}};
}

// The attention over whole words when SentencePiece split them, or nothing when the pieces do
// not spell the words (a normalization changed the text).
std::optional<eval::Heatmap> word_attention(const eval::Translation& t,
                                            const std::string& source_text, const TokenView& view) {
  const auto src = eval::piece_words_of(t.source, source_text, view.lowercase);
  const auto tgt = eval::piece_words_of(t.tokens, t.text, view.lowercase);
  if (!src || !tgt) return std::nullopt;
  return attention_matrix(eval::merge_piece_attention(t.attention, *src, *tgt), src->words,
                          tgt->words);
}

}  // namespace

json translation_json(const eval::Translation& t, const std::string& source_text,
                      const std::vector<std::string>& warnings, const TranslateRequest& request,
                      const TokenView& view) {
  json out = {{"translation", t.text}, {"score", t.score}};
  if (request.n_best > 1) {
    json list = json::array();
    for (const auto& c : t.n_best) {
      list.push_back(
          {{"translation", c.text}, {"score", c.score}, {"normalized_score", c.normalized_score}});
    }
    out["n_best"] = std::move(list);
  }
  if (!warnings.empty()) out["warnings"] = warnings;
  if (!request.attention && !request.heatmap) return out;
  // An empty input, or a model without attention, has no matrix.
  std::optional<eval::Heatmap> matrix, words;
  const int64_t heads = t.attention.defined() ? t.attention.size(1) : 0;
  if (t.attention.defined()) {
    matrix = attention_matrix(t.attention, t.source, t.tokens);
    if (view.pieces) words = word_attention(t, source_text, view);
  }
  if (request.attention) {
    out["attention"] = matrix_json(matrix, heads);
    if (view.pieces) out["word_attention"] = matrix_json(words, heads);
  }
  if (request.heatmap) {
    const auto& shown = words ? words : matrix;
    out["heatmap"] = shown ? json(eval::svg_heatmap(*shown)) : json(nullptr);
  }
  return out;
}

}  // namespace s2s::serve
