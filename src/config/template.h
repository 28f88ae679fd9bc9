#pragma once
// `s2s config --template`: every config key with its default and what it means, as a config
// file the reader accepts (JSON with // comments), generated from the visit_fields lists.

#include <string>

namespace s2s::config {

std::string config_template();

}  // namespace s2s::config
