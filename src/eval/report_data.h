#pragma once
// What `s2s report` reads of a run directory (eval/report.h): config.json, <split>.scores.json,
// metrics.jsonl and the heatmaps the run exported (heatmaps/index.jsonl and its CSVs, with the
// gold alignment links of the split where the hypothesis is the reference). Only the run's
// documented files, never the model.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace s2s::eval {

// One heatmap CSV (eval/heatmap.h) with its index.jsonl line.
struct Heatmap {
  nlohmann::json index;           // file, matrix, id, head, source, hypothesis, reference, ...
  std::vector<std::string> cols;  // source tokens (and </s>)
  std::vector<std::string> rows;  // target tokens (and </s>), or source tokens (self-attention)
  std::vector<std::vector<double>> weights;
  std::set<std::pair<std::size_t, std::size_t>> gold;  // (row, col) cells of gold links
};

struct RunData {
  std::string dir, name;
  nlohmann::json config, scores;  // scores: null without <split>.scores.json
  std::vector<nlohmann::json> events;
  std::vector<Heatmap> heatmaps;
  std::string heatmap_note;  // why there are none, or why gold links are missing
};

// The run in `dir`: its scores on `split` and the heatmaps of the first `limit` sentences.
// InputError naming the file for a directory without config.json or with a broken file.
RunData load_run(const std::string& dir, const std::string& split, int64_t limit);

// v with `digits` decimals ("nan", "inf", "-inf" for those).
std::string fmt_number(double v, int digits);

}  // namespace s2s::eval
