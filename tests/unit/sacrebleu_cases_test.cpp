// Parity with sacreBLEU 2.6.0 itself: every case of ../shared/bleu/cases.jsonl (scored by
// sacreBLEU; see that folder's README) must give the same BLEU and chrF within 0.01 and exactly
// the same n-gram counts, totals and lengths. The cases stay in ../shared, never in this repo;
// without that folder the test is skipped (support/shared_dir.h).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "metrics/bleu.h"
#include "metrics/chrf.h"
#include "support/shared_dir.h"

namespace s2s::metrics {
namespace {

constexpr double kScoreTolerance = 0.01;  // what "compatible" means in the cases' README
constexpr double kBpTolerance = 1e-6;     // bp is stored rounded to 6 places

std::vector<nlohmann::json> load_cases(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::json> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) cases.push_back(nlohmann::json::parse(line));
  }
  return cases;
}

// Every mismatch of one case, or "" if it agrees with sacreBLEU.
std::string check_case(const nlohmann::json& c, double& max_bleu_error, double& max_chrf_error) {
  const auto hyps = c.at("hyps").get<std::vector<std::string>>();
  const auto refs = c.at("refs").get<std::vector<std::string>>();
  BleuOptions options;
  options.tokenize = c.at("tokenize").get<std::string>();
  options.lowercase = c.at("lowercase").get<bool>();

  std::ostringstream problems;
  const BleuResult bleu = corpus_bleu(hyps, refs, options);
  const double bleu_error = std::abs(bleu.score - c.at("bleu").get<double>());
  max_bleu_error = std::max(max_bleu_error, bleu_error);
  if (bleu_error > kScoreTolerance) {
    problems << " bleu " << bleu.score << " != " << c.at("bleu");
  }
  if (bleu.counts != c.at("counts").get<std::vector<std::int64_t>>()) {
    problems << " counts " << nlohmann::json(bleu.counts) << " != " << c.at("counts");
  }
  if (bleu.totals != c.at("totals").get<std::vector<std::int64_t>>()) {
    problems << " totals " << nlohmann::json(bleu.totals) << " != " << c.at("totals");
  }
  if (bleu.sys_len != c.at("sys_len").get<std::int64_t>()) {
    problems << " sys_len " << bleu.sys_len << " != " << c.at("sys_len");
  }
  if (bleu.ref_len != c.at("ref_len").get<std::int64_t>()) {
    problems << " ref_len " << bleu.ref_len << " != " << c.at("ref_len");
  }
  if (std::abs(bleu.bp - c.at("bp").get<double>()) > kBpTolerance) {
    problems << " bp " << bleu.bp << " != " << c.at("bp");
  }

  // The cases' chrF is sacreBLEU's default: cased, whatever the BLEU case says.
  const ChrfResult chrf = corpus_chrf(hyps, refs);
  const double chrf_error = std::abs(chrf.score - c.at("chrf").get<double>());
  max_chrf_error = std::max(max_chrf_error, chrf_error);
  if (chrf_error > kScoreTolerance) {
    problems << " chrf " << chrf.score << " != " << c.at("chrf");
  }
  return problems.str();
}

TEST(SacreBleuParityTest, EveryCaseMatchesSacreBleu) {
  const std::string cases_path = test_support::shared_path("bleu/cases.jsonl");
  S2S_SKIP_IF_ABSENT(cases_path) << "parity with sacreBLEU is not checked";
  const std::vector<nlohmann::json> cases = load_cases(cases_path);
  ASSERT_FALSE(cases.empty()) << cases_path << " holds no cases";

  double max_bleu_error = 0.0;
  double max_chrf_error = 0.0;
  int failures = 0;
  for (const nlohmann::json& c : cases) {
    const std::string name = c.at("name").get<std::string>();
    std::string problems;
    try {
      problems = check_case(c, max_bleu_error, max_chrf_error);
    } catch (const std::exception& e) {
      problems = std::string(" threw: ") + e.what();
    }
    if (!problems.empty()) {
      ++failures;
      ADD_FAILURE() << name << ":" << problems;
    }
  }
  EXPECT_EQ(failures, 0) << "of " << cases.size() << " cases";
  std::cout << "[parity] " << cases.size() << " cases, " << failures
            << " failing; largest |BLEU error| " << max_bleu_error << ", largest |chrF error| "
            << max_chrf_error << "\n";
}

}  // namespace
}  // namespace s2s::metrics
