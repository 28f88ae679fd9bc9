// `s2s serve` below HTTP: the request parser (each field and its refusals), the decoding
// queue (batches that merge only jobs with the same search, answers in order and equal to the
// translator's, a full queue refused, stop() finishing what was queued) and the response JSON.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "config/config.h"
#include "model/build_model.h"
#include "serve/decode_queue.h"
#include "serve/page.h"
#include "serve/request.h"
#include "serve/response.h"

namespace s2s::serve {
namespace {

// The status and reason of parsing `body` (200 and "" when it parses).
std::pair<int, std::string> refusal(const std::string& body, int64_t default_beam = 1) {
  try {
    parse_translate_request(body, default_beam);
  } catch (const ApiError& e) {
    return {e.status, e.what()};
  }
  return {200, ""};
}

TEST(ServeRequestTest, ParsesEveryField) {
  auto r = parse_translate_request(R"({"text": "ein Hund"})", 4);
  EXPECT_TRUE(r.single);
  EXPECT_EQ(r.texts, std::vector<std::string>{"ein Hund"});
  EXPECT_FALSE(r.beam.has_value());
  EXPECT_EQ(r.n_best, 1);
  r = parse_translate_request(
      R"({"texts": ["a", ""], "beam": 5, "n_best": 5, "length_penalty": 1.5,
          "attention": true, "heatmap": true})",
      1);
  EXPECT_FALSE(r.single);
  EXPECT_EQ(r.texts, (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(r.beam, 5);
  EXPECT_EQ(r.n_best, 5);
  EXPECT_EQ(r.length_penalty, 1.5);
  EXPECT_TRUE(r.attention && r.heatmap);
  // n_best is checked against the server's beam when the request names none.
  EXPECT_EQ(parse_translate_request(R"({"text": "a", "n_best": 4})", 4).n_best, 4);
}

TEST(ServeRequestTest, RefusesWithTheFieldNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{", "invalid JSON: "},
      {"", "empty body"},
      {"\"a\"", "expected a JSON object"},
      {R"({"text": null})", "text: expected a string, found null"},
      {R"({"texts": "a"})", "texts: expected an array of strings, found a string"},
      {R"({"texts": ["a", {}]})", "texts[1]: expected a string, found an object"},
      {R"({"texts": []})", "texts: empty"},
      {R"({"text": "a", "texts": []})", "give text or texts, not both"},
      {R"({})", "missing field: text or texts"},
      {R"({"text": "a", "beams": 2})", "unknown field 'beams'"},
      {R"({"text": "a", "beam": 101})", "beam: must be in 1..100, got 101"},
      {R"({"text": "a", "beam": 2.5})", "beam: expected an integer, found a number"},
      {R"({"text": "a", "beam": 18446744073709551615})", "beam: must be in 1..100"},
      {R"({"text": "a", "n_best": 0})", "n_best: must be in 1..100, got 0"},
      {R"({"text": "a", "n_best": 2})",
       "n_best: 2 hypotheses need a beam of at least 2 (beam is 1)"},
      {R"({"text": "a", "length_penalty": "1"})", "length_penalty: expected a number"},
      {R"({"text": "a", "length_penalty": -0.5})", "length_penalty: must be a number >= 0"},
      {R"({"text": "a", "heatmap": 1})", "heatmap: expected a boolean, found an integer"},
      {R"({"text": "a", "text": "b"})", "duplicate key 'text'"},
      {std::string(100, '[') + std::string(100, ']'), "nested deeper"},
  };
  for (const auto& [body, reason] : cases) {
    const auto [status, what] = refusal(body);
    EXPECT_EQ(status, 400) << body;
    EXPECT_NE(what.find(reason), std::string::npos) << body << " -> " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  std::string many = R"({"texts": [)";
  for (std::size_t i = 0; i <= kMaxTexts; ++i) many += i ? ", \"a\"" : "\"a\"";
  EXPECT_NE(refusal(many + "]}").second.find("at most 256 per request"), std::string::npos);
}

class DecodeQueueTest : public testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(5);
    const std::vector<std::vector<std::string>> words = {{"a", "b", "c", "d", "e", "f"}};
    vocab_ = data::Vocab::build(words);
    config::ModelConfig m;
    m.emb_size = 8;
    m.hidden_size = 8;
    model_ = model::build_model(m, vocab_.size(), vocab_.size());
    base_.search.max_len_extra = 3;
  }
  eval::Translator translator() const {
    return eval::Translator(model_, vocab_, vocab_, tokenizer_, tokenizer_, torch::kCPU);
  }
  static std::vector<std::vector<std::string>> sources(int i) {
    const std::vector<std::vector<std::vector<std::string>>> all = {
        {{"a", "b"}}, {{"c", "d", "e"}, {}}, {{"f"}}, {{"a", "c", "e", "b"}}};
    return all[static_cast<std::size_t>(i) % all.size()];
  }

  data::Vocab vocab_;
  data::WhitespaceTokenizer tokenizer_;
  model::Seq2Seq model_{nullptr};
  eval::TranslateOptions base_;
};

TEST_F(DecodeQueueTest, BatchesJobsWithTheSameSearchAndAnswersEachInOrder) {
  const auto t = translator();
  std::vector<BatchReport> batches;
  std::mutex mutex;
  DecodeQueue queue(t, base_, {/*max_batch=*/4, /*wait_ms=*/200, 1, 64}, [&](const BatchReport& b) {
    const std::lock_guard<std::mutex> lock(mutex);
    batches.push_back(b);
  });
  auto beam2 = base_.search;
  beam2.beam_size = 2;
  std::vector<std::future<Translations>> futures;
  for (int i = 0; i < 4; ++i) futures.push_back(queue.submit(sources(i), base_.search));
  auto other = queue.submit(sources(0), beam2);
  for (int i = 0; i < 4; ++i) {
    const auto got = futures[static_cast<std::size_t>(i)].get();
    const auto want = t.translate_tokens(sources(i), base_);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].text, want[k].text);
      EXPECT_NEAR(got[k].score, want[k].score, 1e-5);
    }
  }
  EXPECT_EQ(other.get().size(), 1u);
  queue.stop();
  // 5 sentences with greedy search: at most 4 a batch, so jobs 0-2 (4 sentences) and job 3;
  // the beam-2 job alone.
  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batches[0].jobs, 3u);
  EXPECT_EQ(batches[0].sentences, 4u);
  std::size_t jobs = 0;
  for (const auto& b : batches) jobs += b.jobs;
  EXPECT_EQ(jobs, 5u);
}

TEST_F(DecodeQueueTest, RefusesWhenFullAndFinishesWhatWasQueuedOnStop) {
  const auto t = translator();
  // A long wait keeps the first job queued: the second fills the queue of 2, the third is refused.
  DecodeQueue queue(t, base_, {/*max_batch=*/100, /*wait_ms=*/60000, 1, /*capacity=*/2});
  auto first = queue.submit(sources(0), base_.search);
  auto second = queue.submit(sources(2), base_.search);
  EXPECT_THROW(queue.submit(sources(1), base_.search), QueueFull);
  EXPECT_EQ(queue.waiting(), 2u);
  queue.stop();  // does not wait out wait_ms: decodes both at once
  EXPECT_EQ(first.get().size(), 1u);
  EXPECT_EQ(second.get().front().text, t.translate_tokens(sources(2), base_).front().text);
  EXPECT_THROW(queue.submit(sources(0), base_.search), QueueFull);
}

TEST_F(DecodeQueueTest, SeveralWorkersAnswerEveryJobFromManyClients) {
  // Two workers race for the oldest job: the one that loses it must start over, not read an
  // empty queue.
  const auto t = translator();
  DecodeQueue queue(t, base_, {/*max_batch=*/3, /*wait_ms=*/2, /*threads=*/2, 1000});
  std::vector<std::thread> clients;
  std::atomic<int> right{0};
  for (int c = 0; c < 6; ++c) {
    clients.emplace_back([&, c] {
      for (int i = 0; i < 20; ++i) {
        const auto got = queue.submit(sources(c + i), base_.search).get();
        const auto want = t.translate_tokens(sources(c + i), base_);
        if (got.size() == want.size() && got.front().text == want.front().text) ++right;
      }
    });
  }
  for (auto& c : clients) c.join();
  EXPECT_EQ(right.load(), 120);
}

TEST_F(DecodeQueueTest, SameSearchComparesEveryOption) {
  eval::SearchOptions a, b;
  EXPECT_TRUE(same_search(a, b));
  b.length_penalty = 1.0;
  EXPECT_FALSE(same_search(a, b));
  b = a;
  b.n_best = 2;
  EXPECT_FALSE(same_search(a, b));
}

TEST(ServeResponseTest, AttentionRowsWithTheirTokens) {
  eval::Translation t;
  t.source = {"ein", "Hund"};
  t.tokens = {"a", "dog"};
  t.text = "a dog";
  t.score = -1.5;
  // [T + 1 = 3, m = 2, S + 1 = 3]; the mean over heads is what the response holds.
  t.attention = torch::tensor({0.5, 0.5, 0.0, 1.0, 0.0, 0.0,  //
                               0.0, 1.0, 0.0, 0.0, 0.5, 0.5,  //
                               0.0, 0.0, 1.0, 0.0, 0.0, 1.0})
                    .view({3, 2, 3});
  t.n_best = {{"a dog", -1.5, -1.2}, {"the dog", -2.0, -1.7}};
  TranslateRequest r;
  r.texts = {"ein Hund"};
  r.attention = r.heatmap = true;
  r.n_best = 2;
  const auto j = translation_json(t, "ein Hund", {"cut"}, r, {});
  EXPECT_EQ(j.at("translation"), "a dog");
  EXPECT_EQ(j.at("n_best").size(), 2u);
  EXPECT_EQ(j.at("n_best")[1].at("translation"), "the dog");
  EXPECT_EQ(j.at("warnings")[0], "cut");
  const auto& a = j.at("attention");
  EXPECT_EQ(a.at("source"), (nlohmann::json{"ein", "Hund", "</s>"}));
  EXPECT_EQ(a.at("target"), (nlohmann::json{"a", "dog", "</s>"}));
  EXPECT_EQ(a.at("heads"), 2);
  EXPECT_EQ(a.at("weights")[0], (nlohmann::json{0.75, 0.25, 0.0}));
  EXPECT_EQ(a.at("weights")[1], (nlohmann::json{0.0, 0.75, 0.25}));
  EXPECT_EQ(j.at("heatmap").get<std::string>().rfind("<svg class=\"heatmap\"", 0), 0u);
  EXPECT_FALSE(j.contains("word_attention"));  // not SentencePiece
  // Without the options: neither matrix nor heatmap; with one hypothesis no n-best list.
  r.attention = r.heatmap = false;
  r.n_best = 1;
  const auto plain = translation_json(t, "ein Hund", {}, r, {});
  EXPECT_FALSE(plain.contains("attention") || plain.contains("heatmap") ||
               plain.contains("n_best") || plain.contains("warnings"));
}

TEST(ServePageTest, SelfContained) {
  const auto& page = page_html();
  EXPECT_NE(page.find("<textarea"), std::string::npos);
  for (const auto* external : {"src=\"http", "href=\"http", "@import", "url(http"}) {
    EXPECT_EQ(page.find(external), std::string::npos) << external;
  }
}

}  // namespace
}  // namespace s2s::serve
