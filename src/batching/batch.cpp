#include "batching/batch.h"

#include <algorithm>

namespace s2s::batching {
namespace {

// rows -> [B, max len] int64 tensor padded with <pad>, on the CPU.
torch::Tensor pad_rows(const std::vector<const std::vector<int64_t>*>& rows, std::size_t offset,
                       std::size_t trim_end) {
  std::size_t width = 0;
  for (const auto* r : rows) width = std::max(width, r->size() - offset - trim_end);
  auto out = torch::full({static_cast<int64_t>(rows.size()), static_cast<int64_t>(width)},
                         data::Vocab::kPad, torch::kLong);
  auto* data = out.data_ptr<int64_t>();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = *rows[i];
    std::copy(r.begin() + static_cast<std::ptrdiff_t>(offset),
              r.end() - static_cast<std::ptrdiff_t>(trim_end), data + i * width);
  }
  return out;
}

}  // namespace

std::vector<int64_t> EncodedCorpus::src_lengths() const {
  std::vector<int64_t> out;
  out.reserve(src.size());
  for (const auto& s : src) out.push_back(static_cast<int64_t>(s.size()));
  return out;
}

std::vector<int64_t> EncodedCorpus::tgt_lengths() const {
  std::vector<int64_t> out;
  out.reserve(tgt.size());
  for (const auto& t : tgt) out.push_back(static_cast<int64_t>(t.size()) - 1);
  return out;
}

EncodedCorpus encode_corpus(const data::TokenizedCorpus& corpus, const data::Vocab& src_vocab,
                            const data::Vocab& tgt_vocab) {
  EncodedCorpus out;
  out.src.reserve(corpus.size());
  out.tgt.reserve(corpus.size());
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    out.src.push_back(src_vocab.encode(corpus.src[i], /*add_bos=*/false, /*add_eos=*/true));
    out.tgt.push_back(tgt_vocab.encode(corpus.tgt[i], /*add_bos=*/true, /*add_eos=*/true));
  }
  return out;
}

Batch make_source_batch(const std::vector<std::vector<int64_t>>& sources,
                        const std::vector<std::size_t>& indices, const torch::Device& device) {
  std::vector<const std::vector<int64_t>*> rows;
  std::vector<int64_t> lengths;
  for (auto i : indices) {
    rows.push_back(&sources[i]);
    lengths.push_back(static_cast<int64_t>(sources[i].size()));
  }
  Batch b;
  b.src = pad_rows(rows, 0, 0).to(device);
  b.src_lengths = torch::tensor(lengths, torch::kLong).to(device);
  b.indices = indices;
  return b;
}

Batch make_batch(const EncodedCorpus& corpus, const std::vector<std::size_t>& indices,
                 const torch::Device& device) {
  Batch b = make_source_batch(corpus.src, indices, device);
  std::vector<const std::vector<int64_t>*> rows;
  for (auto i : indices) {
    rows.push_back(&corpus.tgt[i]);
    b.target_tokens += static_cast<int64_t>(corpus.tgt[i].size()) - 1;
  }
  b.tgt_in = pad_rows(rows, /*offset=*/0, /*trim_end=*/1).to(device);
  b.tgt_out = pad_rows(rows, /*offset=*/1, /*trim_end=*/0).to(device);
  return b;
}

}  // namespace s2s::batching
