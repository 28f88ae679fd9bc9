#pragma once
// How a run was made, recorded in its manifest.json (run/manifest.h) under "provenance": the
// program (version, git commit), LibTorch and the BLAS it calls, the CPU and threads, the
// precision, the seed, and the size and SHA-256 of every data file read (training, validation
// and test corpora, alignment files, vocabularies). `s2s evaluate` compares the files it reads
// with these and warns, naming the file, when one has changed since.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.h"

namespace s2s::run {

// The data files a config reads: its corpora (both sides) and alignment files.
std::vector<std::string> data_files(const config::Config& config);

// The provenance of a training of `config` reading `files` (each hashed).
nlohmann::json provenance(const config::Config& config, const std::vector<std::string>& files);

// Stores `provenance` in the manifest of `dir`, keeping its other fields.
void record_provenance(const std::string& dir, const nlohmann::json& provenance);

// Warns, naming the file, for each of `files` whose size or SHA-256 differs from what the
// manifest of `dir` recorded. Files it did not record, and runs without provenance, are silent.
void warn_changed_files(const std::string& dir, const std::vector<std::string>& files);

}  // namespace s2s::run
