#pragma once
// Two runs' last weights are the same, parameter by parameter (a resumed run against one
// trained straight through).

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>

#include "checkpoint/load_run.h"

namespace s2s::test_support {

inline void expect_same_weights(const std::filesystem::path& a_run,
                                const std::filesystem::path& b_run) {
  const auto a_loaded = checkpoint::load_run(a_run.string(), "last");
  const auto b_loaded = checkpoint::load_run(b_run.string(), "last");
  const auto a = a_loaded.model->parameters(), b = b_loaded.model->parameters();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(torch::allclose(a[i], b[i], 1e-5, 1e-6)) << "parameter " << i;
  }
}

}  // namespace s2s::test_support
