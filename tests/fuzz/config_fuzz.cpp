// libFuzzer target: the ISHMEM_* value parsers (lib/common/config.cpp). The first byte picks
// the parser; the rest is the text. load_config gets one value per variable, in table order,
// separated by newlines. Any outcome but a value within its kind's bounds or an
// ISHMEM_ERR_CONFIG error naming the variable is a bug, and so is every sanitizer report.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/config.h"
#include "common/error.h"

using namespace ishmem::detail;

namespace {

constexpr const char *kName = "ISHMEM_FUZZ";

void require(bool ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "config fuzz: %s\n", what);
    abort();
  }
}

void parse_one(unsigned which, const std::string &text) {
  switch (which % 4) {
    case 0:
      parse_size(kName, text.c_str());
      break;
    case 1: {
      double s = parse_seconds(kName, text.c_str());
      require(std::isfinite(s) && s > 0 && s <= 1e6,
              "parse_seconds accepted an out-of-range value");
      break;
    }
    case 2:
      parse_integer(kName, text.c_str());
      break;
    default: {
      std::string got = parse_choice(kName, text.c_str(), "none|error|warn|info|debug");
      require(got == text, "parse_choice returned another text than it was given");
      require(!got.empty() && got.find('|') == std::string::npos,
              "parse_choice accepted a part of the choices list");
      break;
    }
  }
}

// Every variable's value from the lines of `text` (a missing line is unset).
void load_all(const std::string &text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  const auto &vars = config_vars();
  auto getenv_fn = [&](const char *name) -> const char * {
    for (std::size_t i = 0; i < vars.size() && i < lines.size(); ++i)
      if (strcmp(vars[i].name, name) == 0) return lines[i].c_str();
    return nullptr;
  };
  Config config = load_config(getenv_fn);
  require(config.symmetric_size > 0 && config.chunk_size > 0, "load_config accepted a zero size");
  for (const auto &var : vars) config_value_text(config, var.name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0) return 0;
  // The environment holds C strings: the text ends at the first NUL.
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  text.resize(strnlen(text.c_str(), text.size()));
  try {
    if (data[0] >= 0xf0)
      load_all(text);
    else
      parse_one(data[0], text);
  } catch (const Error &e) {
    require(e.code() == ISHMEM_ERR_CONFIG, "a parser failed with another code than CONFIG");
    require(strstr(e.what(), "ISHMEM_") != nullptr, "a config error does not name its variable");
  }
  return 0;
}
