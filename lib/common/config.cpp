#include "common/config.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/error.h"

namespace ishmem::detail {

std::size_t parse_size(const char *name, const char *text) {
  errno = 0;
  char *end = nullptr;
  unsigned long long value = strtoull(text, &end, 10);
  // strtoull skips blanks and accepts a sign (" -1" is ULLONG_MAX): only digits may lead.
  if (end == text || errno != 0 || !isdigit(static_cast<unsigned char>(text[0])))
    fail(ISHMEM_ERR_CONFIG, "%s=\"%s\": not a size (bytes, K, M, G or T suffix)", name, text);
  unsigned shift = 0;
  switch (*end) {
    case '\0':
      break;
    case 'k':
    case 'K':
      shift = 10;
      ++end;
      break;
    case 'm':
    case 'M':
      shift = 20;
      ++end;
      break;
    case 'g':
    case 'G':
      shift = 30;
      ++end;
      break;
    case 't':
    case 'T':
      shift = 40;
      ++end;
      break;
    default:
      break;
  }
  if (*end == 'B' || *end == 'b') ++end;
  if (*end != '\0')
    fail(ISHMEM_ERR_CONFIG, "%s=\"%s\": not a size (bytes, K, M, G or T suffix)", name, text);
  if (shift && value > (~0ull >> shift))
    fail(ISHMEM_ERR_CONFIG, "%s=\"%s\": size too large", name, text);
  return static_cast<std::size_t>(value << shift);
}

namespace {
constexpr double kMaxSeconds = 1e6;
constexpr long kMaxTeams = 1024;  // a slot bitmap of 16 words in every split's allreduce
}  // namespace

double parse_seconds(const char *name, const char *text) {
  errno = 0;
  char *end = nullptr;
  double value = strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !std::isfinite(value) || value <= 0)
    fail(ISHMEM_ERR_CONFIG, "%s=\"%s\": not a positive number of seconds", name, text);
  // More than about eleven days is no deadline at all, and far larger values overflow time
  // arithmetic: a typo, not a wish.
  if (value > kMaxSeconds)
    fail(ISHMEM_ERR_CONFIG, "%s=\"%s\": more than %.0f seconds", name, text, kMaxSeconds);
  return value;
}

long parse_integer(const char *name, const char *text) {
  errno = 0;
  char *end = nullptr;
  long value = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0)
    fail(ISHMEM_ERR_CONFIG, "%s=\"%s\": not an integer", name, text);
  return value;
}

std::string parse_choice(const char *name, const char *text, const char *choices) {
  const char *p = choices;
  size_t len = strlen(text);
  while (*p) {
    const char *bar = strchr(p, '|');
    size_t n = bar ? static_cast<size_t>(bar - p) : strlen(p);
    if (n == len && strncmp(p, text, n) == 0) return text;
    p += n + (bar ? 1 : 0);
  }
  fail(ISHMEM_ERR_CONFIG, "%s=\"%s\": must be one of %s", name, text, choices);
}

namespace {
std::size_t parse_kind_size(const char *n, const char *t, const char *) {
  return parse_size(n, t);
}
double parse_kind_seconds(const char *n, const char *t, const char *) {
  return parse_seconds(n, t);
}
long parse_kind_integer(const char *n, const char *t, const char *) {
  return parse_integer(n, t);
}
std::string parse_kind_choice(const char *n, const char *t, const char *c) {
  return parse_choice(n, t, c);
}

std::string to_text(std::size_t v) {
  return std::to_string(v);
}
std::string to_text(double v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
std::string to_text(long v) {
  return std::to_string(v);
}
std::string to_text(const std::string &v) {
  return v;
}
}  // namespace

Config load_config(const std::function<const char *(const char *)> &getenv_fn) {
  auto get = getenv_fn ? getenv_fn : [](const char *n) -> const char * { return getenv(n); };
  Config config;
#define ISHMEMI_CONFIG_LOAD(field, NAME, kind, def, choices, doc)     \
  {                                                                   \
    const char *text = get("ISHMEM_" #NAME);                          \
    if (!text || !*text) text = def;                                  \
    config.field = parse_kind_##kind("ISHMEM_" #NAME, text, choices); \
  }
  ISHMEMI_CONFIG_VARS(ISHMEMI_CONFIG_LOAD)
#undef ISHMEMI_CONFIG_LOAD
  if (config.symmetric_size == 0) fail(ISHMEM_ERR_CONFIG, "ISHMEM_SYMMETRIC_SIZE must not be 0");
  if (config.chunk_size == 0) fail(ISHMEM_ERR_CONFIG, "ISHMEM_CHUNK_SIZE must not be 0");
  if (config.trim_interval < 0)
    fail(ISHMEM_ERR_CONFIG, "ISHMEM_TRIM_INTERVAL=%ld: must not be negative", config.trim_interval);
  if (config.max_teams < 2 || config.max_teams > kMaxTeams)
    fail(ISHMEM_ERR_CONFIG, "ISHMEM_MAX_TEAMS=%ld: must be 2 to %ld (WORLD and SHARED included)",
         config.max_teams, kMaxTeams);
  if (config.max_local_pes < 0)
    fail(ISHMEM_ERR_CONFIG, "ISHMEM_MAX_LOCAL_PES=%ld: must not be negative (0: no cap)",
         config.max_local_pes);
  // ISHMEM_NODE_LOCAL=self is the older name of split mode with one PE per node.
  if (config.node_local == "self") {
    if (config.max_local_pes > 1)
      fail(ISHMEM_ERR_CONFIG,
           "ISHMEM_NODE_LOCAL=self means ISHMEM_MAX_LOCAL_PES=1, but ISHMEM_MAX_LOCAL_PES=%ld; "
           "set only one of them",
           config.max_local_pes);
    config.max_local_pes = 1;
  }
  if (config.progress_interval < 1 || config.progress_interval > 1000000)
    fail(ISHMEM_ERR_CONFIG, "ISHMEM_PROGRESS_INTERVAL=%ld: must be 1 to 1000000 microseconds",
         config.progress_interval);
  if (config.proxy_ring < 2 || config.proxy_ring > (1l << 20) ||
      (config.proxy_ring & (config.proxy_ring - 1)))
    fail(ISHMEM_ERR_CONFIG, "ISHMEM_PROXY_RING=%ld: must be a power of two from 2 to 1048576",
         config.proxy_ring);
  return config;
}

const std::vector<ConfigVarInfo> &config_vars() {
  static const std::vector<ConfigVarInfo> vars = {
#define ISHMEMI_CONFIG_INFO(field, NAME, kind, def, choices, doc) \
  {"ISHMEM_" #NAME, #kind, def, choices, doc},
      ISHMEMI_CONFIG_VARS(ISHMEMI_CONFIG_INFO)
#undef ISHMEMI_CONFIG_INFO
  };
  return vars;
}

std::string config_value_text(const Config &config, const char *name) {
#define ISHMEMI_CONFIG_TEXT(field, NAME, kind, def, choices, doc) \
  if (strcmp(name, "ISHMEM_" #NAME) == 0) return to_text(config.field);
  ISHMEMI_CONFIG_VARS(ISHMEMI_CONFIG_TEXT)
#undef ISHMEMI_CONFIG_TEXT
  return "";
}

}  // namespace ishmem::detail
