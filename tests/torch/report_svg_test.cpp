// The report's heatmap SVG (eval/report_svg.h): exact zeros, as sparse normalizers give, stay
// apart from small weights in the picture, the hover text and the data attribute.
#include "eval/report_svg.h"

#include <gtest/gtest.h>

#include <string>

namespace s2s::eval {
namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ReportSvgTest, ExactZerosAreMarkedAndSmallWeightsAreNot) {
  Heatmap h;
  h.cols = {"ein", "Haus", "</s>"};
  h.rows = {"a", "</s>"};
  h.weights = {{0.0, 1.0 - 3e-9, 3e-9}, {0.25, 0.0, 0.75}};
  const auto svg = svg_heatmap(h);
  EXPECT_EQ(count(svg, "class=\"cell\""), 4);
  EXPECT_EQ(count(svg, "class=\"cell zero\""), 2);
  EXPECT_EQ(count(svg, "exactly 0"), 2);
  EXPECT_EQ(count(svg, "<circle"), 3);  // two cells and the legend's mark
  EXPECT_NE(svg.find("data-weight=\"3.0e-09\""), std::string::npos);
  EXPECT_NE(svg.find(">=0</text>"), std::string::npos);

  h.weights = {{0.5, 0.25, 0.25}, {0.25, 0.5, 0.25}};  // softmax-like: no mark, no legend
  const auto dense = svg_heatmap(h);
  EXPECT_EQ(count(dense, "<circle"), 0);
  EXPECT_EQ(dense.find(">=0</text>"), std::string::npos);
}

}  // namespace
}  // namespace s2s::eval
