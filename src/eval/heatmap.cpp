#include "eval/heatmap.h"

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/error.h"
#include "util/fs.h"
#include "util/table.h"

namespace s2s::eval {
namespace {

constexpr char kEos[] = "</s>";

// Six decimals; an exact zero (padding, or off a sparse normalizer's support) as "0", and a
// weight that six decimals would round to 0.000000 in scientific notation, so the two stay apart.
std::string format_weight(float w) {
  if (w == 0.0f) return "0";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), w < 5e-7f ? "%.1e" : "%.6f", static_cast<double>(w));
  return buffer;
}

void append_row(std::ostringstream& out, const std::string& label,
                const std::vector<std::string>& cells) {
  out << util::csv_field(label);
  for (const auto& cell : cells) out << ',' << cell;
  out << '\n';
}

nlohmann::ordered_json index_line(const std::string& file, const HeatmapSentence& s, int64_t head,
                                  const HeatmapInfo& info, const char* matrix) {
  nlohmann::ordered_json j;
  j["file"] = file;
  j["matrix"] = matrix;
  j["id"] = s.id;
  j["head"] = head;
  j["source"] = s.source_text;
  j["hypothesis"] = s.hypothesis;
  j["reference"] = s.reference;
  j["decode"] = info.decode;
  j["scorer"] = info.scorer;
  j["normalizer"] = info.normalizer;
  j["coverage"] = info.coverage;
  j["local"] = info.local;
  if (info.local != "none") j["window"] = info.window;
  j["query"] = info.query;
  j["units"] = info.units;
  j["members"] = info.members;
  return j;
}

}  // namespace

std::string decoder_query(config::DecoderStyle style) {
  return style == config::DecoderStyle::kLuong ? "current decoder state s_t"
                                               : "previous decoder state s_{t-1}";
}

std::string decode_name(int64_t beam_size) {
  return beam_size <= 1 ? "greedy" : "beam " + std::to_string(beam_size);
}

std::string heatmap_csv(const std::vector<std::string>& source,
                        const std::vector<std::string>& target, const torch::Tensor& weights) {
  const auto rows = static_cast<int64_t>(target.size()) + 1;
  const auto cols = static_cast<int64_t>(source.size()) + 1;
  TORCH_CHECK(weights.dim() == 2 && weights.size(0) == rows && weights.size(1) == cols,
              "heatmap weights must be [", rows, ", ", cols, "], got ", weights.sizes());
  std::ostringstream out;
  std::vector<std::string> header;
  for (const auto& token : source) header.push_back(util::csv_field(token));
  header.emplace_back(kEos);
  append_row(out, "target\\source", header);
  const auto w = weights.to(torch::kCPU, torch::kFloat).contiguous();
  const auto a = w.accessor<float, 2>();
  for (int64_t t = 0; t < rows; ++t) {
    std::vector<std::string> cells;
    for (int64_t i = 0; i < cols; ++i) cells.push_back(format_weight(a[t][i]));
    append_row(out, t + 1 < rows ? target[static_cast<std::size_t>(t)] : kEos, cells);
  }
  return out.str();
}

std::string self_attention_file_name(int64_t id, int64_t head) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%04lld_self_head%lld.csv", static_cast<long long>(id),
                static_cast<long long>(head));
  return buffer;
}

std::string heatmap_file_name(int64_t id, int64_t head) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%04lld_head%lld.csv", static_cast<long long>(id),
                static_cast<long long>(head));
  return buffer;
}

std::vector<std::string> write_heatmaps(const std::string& dir,
                                        const std::vector<HeatmapSentence>& sentences,
                                        const HeatmapInfo& info) {
  util::make_output_dir("heatmaps", dir);
  std::ostringstream index;
  std::vector<std::string> files;
  for (const auto& s : sentences) {
    TORCH_CHECK(s.attention.defined() && s.attention.dim() == 3, "heatmap of sentence ", s.id,
                " needs attention [T + 1, m, S + 1]");
    for (int64_t h = 0; h < s.attention.size(1); ++h) {
      const auto name = heatmap_file_name(s.id, h);
      util::write_file_atomic(dir + "/" + name,
                              heatmap_csv(s.source, s.target, s.attention.select(1, h)));
      index << index_line(name, s, h, info, "decoder_attention").dump() << '\n';
      files.push_back(name);
    }
    // Encoder self-attention: source x source, one file per head.
    for (int64_t h = 0; s.self_attention.defined() && h < s.self_attention.size(0); ++h) {
      const auto name = self_attention_file_name(s.id, h);
      util::write_file_atomic(dir + "/" + name,
                              heatmap_csv(s.source, s.source, s.self_attention.select(0, h)));
      index << index_line(name, s, h, info, "encoder_self_attention").dump() << '\n';
      files.push_back(name);
    }
  }
  util::write_file_atomic(dir + "/index.jsonl", index.str());
  files.emplace_back("index.jsonl");
  return files;
}

}  // namespace s2s::eval
