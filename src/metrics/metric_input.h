#pragma once
// Input handling shared by the corpus metrics (BLEU, chrF): reading a file of sentences,
// checking that hypotheses and references line up, and decoding UTF-8 with errors that name the
// offending line.

#include <string>
#include <string_view>
#include <vector>

namespace s2s::metrics {

// The lines of a UTF-8 text file, without their "\n" (or "\r\n"), and without a leading byte
// order mark. A final line without "\n" counts; an empty file has no lines. Throws
// s2s::InputError naming the path if the file cannot be read, or the path and line if a line is
// not valid UTF-8.
std::vector<std::string> read_text_lines(const std::string& path);

// The rules sacreBLEU applies to one reference per segment: as many hypotheses as references,
// and no empty reference (sacreBLEU refuses them: "Empty or `None` reference sentence found.").
// Throws s2s::InputError.
void check_hyps_refs(const std::vector<std::string>& hyps, const std::vector<std::string>& refs);

// Several references per segment: `references[r]` is the r-th reference of every segment. The
// same rules for each stream, and at least one stream.
using ReferenceSets = std::vector<std::vector<std::string>>;
void check_reference_sets(const std::vector<std::string>& hyps, const ReferenceSets& references);

// The reference files of `lines` segments whose hypotheses come from `hyp_name` (a file, or
// "the decoded source"), read with read_text_lines. s2s::InputError, naming the files, for a file
// named twice, a file of another line count, no lines, or an empty reference line.
ReferenceSets read_reference_files(const std::vector<std::string>& paths, std::size_t lines,
                                   const std::string& hyp_name);

// Decodes one sentence; s2s::InputError naming `what` ("hypothesis", "reference") and the
// 1-based `line` if it is not valid UTF-8.
std::u32string decode_sentence(std::string_view utf8, const char* what, std::size_t line);

}  // namespace s2s::metrics
