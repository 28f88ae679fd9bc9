// Heatmap CSV format and the index.jsonl sidecar.

#include "eval/heatmap.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace s2s::eval {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

TEST(HeatmapTest, CsvHasHeaderLabelsAndSixDecimals) {
  // 2 source tokens + </s>, 1 target token + </s>; an exact zero is "0", a weight that rounds
  // to 0.000000 is written in scientific notation.
  auto weights = torch::tensor({0.25f, 0.5f, 0.25f, 0.0f, 1.0f / 3, 2.0f / 3}).view({2, 3});
  EXPECT_EQ(heatmap_csv({"ein", ","}, {"\"a\""}, weights),
            "target\\source,ein,\",\",</s>\n"
            "\"\"\"a\"\"\",0.250000,0.500000,0.250000\n"
            "</s>,0,0.333333,0.666667\n");
  weights[1][0] = 3.2e-9f;
  EXPECT_NE(heatmap_csv({"ein", ","}, {"a"}, weights).find("</s>,3.2e-09,"), std::string::npos);
  EXPECT_THROW(heatmap_csv({"ein"}, {"a"}, weights), c10::Error);  // shape must match the tokens
}

TEST(HeatmapTest, NamesAndQueries) {
  EXPECT_EQ(heatmap_file_name(7, 0), "0007_head0.csv");
  EXPECT_EQ(heatmap_file_name(12345, 3), "12345_head3.csv");
  EXPECT_EQ(decode_name(1), "greedy");
  EXPECT_EQ(decode_name(5), "beam 5");
  EXPECT_EQ(decoder_query(config::DecoderStyle::kBahdanau), "previous decoder state s_{t-1}");
  EXPECT_EQ(decoder_query(config::DecoderStyle::kLuong), "current decoder state s_t");
}

TEST(HeatmapTest, WritesOneFilePerSentenceAndHeadWithIndex) {
  const auto dir = (std::filesystem::temp_directory_path() / "s2s_heatmap_test").string();
  std::filesystem::remove_all(dir);
  HeatmapSentence s;
  s.id = 3;
  s.source = {"ein", "Haus"};
  s.target = {"a", "house"};
  s.attention = torch::softmax(torch::randn({3, 2, 3}), /*dim=*/-1);  // [T + 1, m, S + 1]
  s.source_text = "ein Haus";
  s.hypothesis = "a house";
  s.reference = "a house .";
  const HeatmapInfo info{"beam 4", "additive", decoder_query(config::DecoderStyle::kBahdanau)};
  EXPECT_EQ(write_heatmaps(dir, {s}, info).size(), 3u);  // two heads and index.jsonl

  std::istringstream index(read(dir + "/index.jsonl"));
  std::string line;
  for (int64_t head = 0; head < 2; ++head) {
    ASSERT_TRUE(std::getline(index, line));
    const auto j = nlohmann::json::parse(line);
    EXPECT_EQ(j["file"], heatmap_file_name(3, head));
    EXPECT_EQ(j["id"], 3);
    EXPECT_EQ(j["head"], head);
    EXPECT_EQ(j["source"], "ein Haus");
    EXPECT_EQ(j["hypothesis"], "a house");
    EXPECT_EQ(j["reference"], "a house .");
    EXPECT_EQ(j["decode"], "beam 4");
    EXPECT_EQ(j["scorer"], "additive");
    EXPECT_EQ(j["normalizer"], "softmax");
    EXPECT_EQ(j["coverage"], false);
    EXPECT_EQ(j["query"], "previous decoder state s_{t-1}");
    EXPECT_EQ(read(dir + "/" + heatmap_file_name(3, head)),
              heatmap_csv(s.source, s.target, s.attention.select(1, head)));
  }
  EXPECT_FALSE(std::getline(index, line));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace s2s::eval
