// The ISHMEM_* configuration table: parsers, defaults, overrides and error messages.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>

#include "common/config.h"
#include "common/error.h"

using namespace ishmem::detail;

namespace {

// Runs `f`, which must throw Error(ISHMEM_ERR_CONFIG) with a message naming `name`.
template <class F>
void expect_config_error(F &&f, const std::string &name) {
  try {
    f();
    ADD_FAILURE() << "no error for " << name;
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ISHMEM_ERR_CONFIG) << e.what();
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos)
        << "message does not name " << name << ": " << e.what();
  }
}

TEST(Config, ParseSizeSuffixes) {
  EXPECT_EQ(parse_size("V", "0"), 0u);
  EXPECT_EQ(parse_size("V", "12345"), 12345u);
  EXPECT_EQ(parse_size("V", "4K"), 4096u);
  EXPECT_EQ(parse_size("V", "4k"), 4096u);
  EXPECT_EQ(parse_size("V", "4KB"), 4096u);
  EXPECT_EQ(parse_size("V", "3M"), 3u << 20);
  EXPECT_EQ(parse_size("V", "3m"), 3u << 20);
  EXPECT_EQ(parse_size("V", "2G"), std::size_t{2} << 30);
  EXPECT_EQ(parse_size("V", "2g"), std::size_t{2} << 30);
  EXPECT_EQ(parse_size("V", "5T"), std::size_t{5} << 40);
  EXPECT_EQ(parse_size("V", "16777215T"), std::size_t{16777215} << 40);  // largest T
  EXPECT_EQ(parse_size("V", "18446744073709551615"), SIZE_MAX);
}

TEST(Config, ParseSizeRejectsBadInput) {
  for (const char *bad :
       {"abc", "-1", "12Q", "", "K", "1.5G", "4KX", "4 K", " -1", "- 1", "18446744073709551616",
        "99999999999999999999999", "16777216T", "17179869184G", "0x10"}) {
    SCOPED_TRACE(bad);
    expect_config_error([&] { parse_size("ISHMEM_TEST_SIZE", bad); }, "ISHMEM_TEST_SIZE");
  }
}

TEST(Config, ParseSeconds) {
  EXPECT_DOUBLE_EQ(parse_seconds("V", "60"), 60.0);
  EXPECT_DOUBLE_EQ(parse_seconds("V", "0.25"), 0.25);
  EXPECT_DOUBLE_EQ(parse_seconds("V", "1e2"), 100.0);
  for (const char *bad : {"0", "-1", "abc", "", "5s", "inf", "nan", "1e400", "-0.5"}) {
    SCOPED_TRACE(bad);
    expect_config_error([&] { parse_seconds("ISHMEM_TEST_SECONDS", bad); }, "ISHMEM_TEST_SECONDS");
  }
}

TEST(Config, ParseInteger) {
  EXPECT_EQ(parse_integer("V", "0"), 0);
  EXPECT_EQ(parse_integer("V", "-1"), -1);
  EXPECT_EQ(parse_integer("V", "42"), 42);
  for (const char *bad : {"abc", "", "1.5", "3x", "99999999999999999999999"}) {
    SCOPED_TRACE(bad);
    expect_config_error([&] { parse_integer("ISHMEM_TEST_INT", bad); }, "ISHMEM_TEST_INT");
  }
}

TEST(Config, ParseChoice) {
  const char *choices = "none|error|warn|info|debug";
  for (const char *good : {"none", "error", "warn", "info", "debug"})
    EXPECT_EQ(parse_choice("V", good, choices), good);
  for (const char *bad : {"war", "warnx", "", "WARN", "warn|info", "|", "none|error"}) {
    SCOPED_TRACE(bad);
    expect_config_error([&] { parse_choice("ISHMEM_TEST_CHOICE", bad, choices); },
                        "ISHMEM_TEST_CHOICE");
  }
  // The message lists what is allowed.
  try {
    parse_choice("ISHMEM_TEST_CHOICE", "loud", choices);
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(choices), std::string::npos) << e.what();
  }
}

// A fake environment for load_config.
struct FakeEnv {
  std::map<std::string, std::string> vars;
  std::set<std::string> asked;
  auto fn() {
    return [this](const char *name) -> const char * {
      asked.insert(name);
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }
};

TEST(Config, ParseSecondsRejectsHugeValues) {
  // Up to a million seconds is taken as given; more overflows deadline arithmetic (1e16 used
  // to time out at once) and is rejected with a message naming the variable and the limit.
  EXPECT_DOUBLE_EQ(parse_seconds("V", "1e6"), 1e6);
  EXPECT_DOUBLE_EQ(parse_seconds("V", "999999.5"), 999999.5);
  for (const char *bad : {"1000000.5", "1000001", "1e7", "1e16", "1e300", "9223372036854775808"}) {
    SCOPED_TRACE(bad);
    expect_config_error([&] { parse_seconds("ISHMEM_TEST_SECONDS", bad); }, "ISHMEM_TEST_SECONDS");
    try {
      parse_seconds("ISHMEM_TEST_SECONDS", bad);
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find("1000000"), std::string::npos) << e.what();
    }
  }
  FakeEnv env;
  env.vars["ISHMEM_BOOTSTRAP_TIMEOUT"] = "1e16";
  expect_config_error([&] { load_config(env.fn()); }, "ISHMEM_BOOTSTRAP_TIMEOUT");
  env.vars["ISHMEM_BOOTSTRAP_TIMEOUT"] = "1e6";
  EXPECT_DOUBLE_EQ(load_config(env.fn()).bootstrap_timeout, 1e6);
}

TEST(Config, LoadDefaults) {
  FakeEnv env;
  Config c = load_config(env.fn());
  EXPECT_EQ(c.symmetric_size, std::size_t{1} << 30);
  EXPECT_EQ(c.chunk_size, std::size_t{2} << 20);
  EXPECT_EQ(c.trim_threshold, std::size_t{64} << 20);
  EXPECT_EQ(c.trim_interval, 64);
  EXPECT_DOUBLE_EQ(c.bootstrap_timeout, 60.0);
  EXPECT_EQ(c.log, "warn");
  EXPECT_EQ(c.backend, "auto");
  EXPECT_EQ(c.device, -1);
  EXPECT_EQ(c.bind, "auto");
  EXPECT_EQ(c.node_local, "auto");
  // Every variable in the table was looked up.
  for (const ConfigVarInfo &v : config_vars()) EXPECT_EQ(env.asked.count(v.name), 1u) << v.name;
}

TEST(Config, LoadOverrides) {
  FakeEnv env;
  env.vars = {{"ISHMEM_SYMMETRIC_SIZE", "256M"},
              {"ISHMEM_CHUNK_SIZE", "64K"},
              {"ISHMEM_TRIM_THRESHOLD", "0"},
              {"ISHMEM_TRIM_INTERVAL", "0"},
              {"ISHMEM_BOOTSTRAP_TIMEOUT", "2.5"},
              {"ISHMEM_LOG", "debug"},
              {"ISHMEM_BACKEND", "host"},
              {"ISHMEM_DEVICE", "3"},
              {"ISHMEM_BIND", "none"},
              {"ISHMEM_NODE_LOCAL", "self"},
              {"ISHMEM_DEBUG", "1"},
              {"ISHMEM_UNRELATED", "x"}};
  Config c = load_config(env.fn());
  EXPECT_EQ(c.symmetric_size, std::size_t{256} << 20);
  EXPECT_EQ(c.chunk_size, std::size_t{64} << 10);
  EXPECT_EQ(c.trim_threshold, 0u);
  EXPECT_EQ(c.trim_interval, 0);
  EXPECT_DOUBLE_EQ(c.bootstrap_timeout, 2.5);
  EXPECT_EQ(c.log, "debug");
  EXPECT_EQ(c.backend, "host");
  EXPECT_EQ(c.device, 3);
  EXPECT_EQ(c.bind, "none");
  EXPECT_EQ(c.node_local, "self");
  EXPECT_EQ(c.debug, "1");
  EXPECT_EQ(config_value_text(c, "ISHMEM_SYMMETRIC_SIZE"), std::to_string(256u << 20));
  EXPECT_EQ(config_value_text(c, "ISHMEM_BOOTSTRAP_TIMEOUT"), "2.5");
  EXPECT_EQ(config_value_text(c, "ISHMEM_NODE_LOCAL"), "self");
  EXPECT_EQ(config_value_text(c, "ISHMEM_DEVICE"), "3");
  EXPECT_EQ(config_value_text(c, "ISHMEM_NO_SUCH_VAR"), "");
}

TEST(Config, EmptyValueMeansDefault) {
  FakeEnv env;
  env.vars = {{"ISHMEM_SYMMETRIC_SIZE", ""}, {"ISHMEM_LOG", ""}};
  Config c = load_config(env.fn());
  EXPECT_EQ(c.symmetric_size, std::size_t{1} << 30);
  EXPECT_EQ(c.log, "warn");
}

TEST(Config, LoadBadValueNamesTheVariable) {
  const std::map<std::string, std::string> bad = {{"ISHMEM_SYMMETRIC_SIZE", "12Q"},
                                                  {"ISHMEM_CHUNK_SIZE", "-1"},
                                                  {"ISHMEM_TRIM_THRESHOLD", "abc"},
                                                  {"ISHMEM_BOOTSTRAP_TIMEOUT", "0"},
                                                  {"ISHMEM_LOG", "loud"},
                                                  {"ISHMEM_BACKEND", "tpu"},
                                                  {"ISHMEM_DEVICE", "first"},
                                                  {"ISHMEM_BIND", "all"},
                                                  {"ISHMEM_NODE_LOCAL", "everyone"},
                                                  {"ISHMEM_DEBUG", "yes"},
                                                  {"ISHMEM_SYMMETRIC_SIZE", "0"}};
  for (const auto &[name, value] : bad) {
    SCOPED_TRACE(name + "=" + value);
    FakeEnv env;
    env.vars[name] = value;
    expect_config_error([&] { load_config(env.fn()); }, name);
  }
  FakeEnv zero;
  zero.vars["ISHMEM_CHUNK_SIZE"] = "0";
  expect_config_error([&] { load_config(zero.fn()); }, "ISHMEM_CHUNK_SIZE");
  for (const char *value : {"-1", "often"}) {
    FakeEnv interval;
    interval.vars["ISHMEM_TRIM_INTERVAL"] = value;
    expect_config_error([&] { load_config(interval.fn()); }, "ISHMEM_TRIM_INTERVAL");
  }
  for (const char *value : {"1", "1025", "-3", "many"}) {  // WORLD and SHARED need two
    FakeEnv teams;
    teams.vars["ISHMEM_MAX_TEAMS"] = value;
    expect_config_error([&] { load_config(teams.fn()); }, "ISHMEM_MAX_TEAMS");
  }
  FakeEnv scratch;
  scratch.vars["ISHMEM_COLLECTIVE_SCRATCH"] = "lots";
  expect_config_error([&] { load_config(scratch.fn()); }, "ISHMEM_COLLECTIVE_SCRATCH");
  FakeEnv bounds;
  bounds.vars = {{"ISHMEM_MAX_TEAMS", "1024"}, {"ISHMEM_COLLECTIVE_SCRATCH", "0"}};
  EXPECT_EQ(load_config(bounds.fn()).max_teams, 1024);
  bounds.vars["ISHMEM_MAX_TEAMS"] = "2";
  EXPECT_EQ(load_config(bounds.fn()).max_teams, 2);
}

// The device proxy's ring: a power of two from 2 to 2^20 requests.
TEST(Config, ProxyRingIsAPowerOfTwo) {
  for (const char *value : {"0", "1", "3", "1000", "2097152", "-8"}) {
    SCOPED_TRACE(value);
    FakeEnv ring;
    ring.vars["ISHMEM_PROXY_RING"] = value;
    expect_config_error([&] { load_config(ring.fn()); }, "ISHMEM_PROXY_RING");
  }
  FakeEnv ring;
  EXPECT_EQ(load_config(ring.fn()).proxy_ring, 1024);
  for (long entries : {2l, 8l, 1l << 20}) {
    ring.vars["ISHMEM_PROXY_RING"] = std::to_string(entries);
    EXPECT_EQ(load_config(ring.fn()).proxy_ring, entries);
  }
}

// ISHMEM_NODE_LOCAL=self is split mode with one PE per node; a different cap beside it is an
// error, the same one is not.
TEST(Config, NodeLocalSelfIsMaxLocalPesOne) {
  FakeEnv env;
  EXPECT_EQ(load_config(env.fn()).max_local_pes, 0);
  env.vars = {{"ISHMEM_NODE_LOCAL", "self"}};
  EXPECT_EQ(load_config(env.fn()).max_local_pes, 1);
  env.vars["ISHMEM_MAX_LOCAL_PES"] = "1";
  EXPECT_EQ(load_config(env.fn()).max_local_pes, 1);
  env.vars["ISHMEM_MAX_LOCAL_PES"] = "3";
  expect_config_error([&] { load_config(env.fn()); }, "ISHMEM_NODE_LOCAL=self means");
  env.vars = {{"ISHMEM_MAX_LOCAL_PES", "2"}};
  EXPECT_EQ(load_config(env.fn()).max_local_pes, 2);
  env.vars["ISHMEM_MAX_LOCAL_PES"] = "-1";
  expect_config_error([&] { load_config(env.fn()); }, "ISHMEM_MAX_LOCAL_PES");
}

TEST(Config, VarsTableIsComplete) {
  std::set<std::string> fields;
#define ISHMEMI_TEST_FIELD(field, NAME, kind, def, choices, doc) fields.insert("ISHMEM_" #NAME);
  ISHMEMI_CONFIG_VARS(ISHMEMI_TEST_FIELD)
#undef ISHMEMI_TEST_FIELD
  const auto &vars = config_vars();
  ASSERT_EQ(vars.size(), fields.size());
  EXPECT_EQ(vars.size(), 23u);
  Config defaults = load_config([](const char *) -> const char * { return nullptr; });
  std::set<std::string> seen;
  for (const ConfigVarInfo &v : vars) {
    SCOPED_TRACE(v.name);
    ASSERT_NE(v.name, nullptr);
    EXPECT_EQ(std::strncmp(v.name, "ISHMEM_", 7), 0);
    EXPECT_TRUE(seen.insert(v.name).second) << "listed twice";
    EXPECT_EQ(fields.count(v.name), 1u);
    ASSERT_NE(v.doc, nullptr);
    EXPECT_GT(std::strlen(v.doc), 10u);
    ASSERT_NE(v.default_value, nullptr);
    EXPECT_GT(std::strlen(v.default_value), 0u);
    const std::string kind = v.kind;
    EXPECT_TRUE(kind == "size" || kind == "seconds" || kind == "integer" || kind == "choice");
    // The default is valid for its kind, and choices are listed exactly for choice variables.
    if (kind == "size") {
      EXPECT_NO_THROW(parse_size(v.name, v.default_value));
    } else if (kind == "seconds") {
      EXPECT_NO_THROW(parse_seconds(v.name, v.default_value));
    } else if (kind == "integer") {
      EXPECT_NO_THROW(parse_integer(v.name, v.default_value));
    }
    if (kind == "choice") {
      EXPECT_GT(std::strlen(v.choices), 0u);
      EXPECT_EQ(parse_choice(v.name, v.default_value, v.choices), v.default_value);
    } else {
      EXPECT_STREQ(v.choices, "");
    }
    EXPECT_FALSE(config_value_text(defaults, v.name).empty());
  }
}

}  // namespace
