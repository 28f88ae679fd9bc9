#include "serve/response.h"

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

// The heatmap of `matrix` ({"source", "target", "weights"}), drawn as the report draws one.
std::string heatmap_svg(const json& matrix) {
  eval::Heatmap h;
  h.cols = matrix.at("source").get<std::vector<std::string>>();
  h.rows = matrix.at("target").get<std::vector<std::string>>();
  h.weights = matrix.at("weights").get<std::vector<std::vector<double>>>();
  return eval::svg_heatmap(h);
}

// The attention over whole words when SentencePiece split them, or null when the pieces do not
// spell the words (a normalization changed the text).
json word_attention(const eval::Translation& t, const std::string& source_text,
                    const TokenView& view) {
  const auto src = eval::piece_words_of(t.source, source_text, view.lowercase);
  const auto tgt = eval::piece_words_of(t.tokens, t.text, view.lowercase);
  if (!src || !tgt) return nullptr;
  return attention_json(eval::merge_piece_attention(t.attention, *src, *tgt), src->words,
                        tgt->words);
}

}  // namespace

json attention_json(const torch::Tensor& attention, std::vector<std::string> source,
                    std::vector<std::string> target) {
  return {{"source", with_eos(std::move(source))},
          {"target", with_eos(std::move(target))},
          {"heads", attention.size(1)},
          {"weights", mean_rows(attention)}};
}

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
  json matrix = nullptr, words = nullptr;
  if (t.attention.defined()) {
    matrix = attention_json(t.attention, t.source, t.tokens);
    if (view.pieces) words = word_attention(t, source_text, view);
  }
  if (request.attention) {
    out["attention"] = matrix;
    if (view.pieces) out["word_attention"] = words;
  }
  if (request.heatmap) {
    const auto& shown = words.is_null() ? matrix : words;
    out["heatmap"] = shown.is_null() ? json(nullptr) : json(heatmap_svg(shown));
  }
  return out;
}

}  // namespace s2s::serve
