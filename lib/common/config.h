// One table of ISHMEM_* environment variables drives parsing, defaults and ishmem-info.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ishmem::detail {

// X(field, NAME, kind, default, choices, doc). Kinds: size (bytes, K/M/G/T suffixes),
// seconds (positive number), integer, choice (one of `choices`, '|'-separated).
#define ISHMEMI_CONFIG_VARS(X)                                                                 \
  X(symmetric_size, SYMMETRIC_SIZE, size, "1G", "",                                            \
    "Largest symmetric heap per PE (K, M, G, T suffixes); reserves address space only")        \
  X(chunk_size, CHUNK_SIZE, size, "2M", "",                                                    \
    "Smallest step by which the heap commits physical memory")                                 \
  X(trim_threshold, TRIM_THRESHOLD, size, "64M", "",                                           \
    "Free memory at the heap's tail always kept for reuse; beyond it, memory no block used "   \
    "for ISHMEM_TRIM_INTERVAL heap calls is returned")                                         \
  X(trim_interval, TRIM_INTERVAL, integer, "64", "",                                           \
    "Heap calls (malloc, free, ...) over which unused tail memory is kept before it is "       \
    "returned; 0 returns it at the call that frees it")                                        \
  X(bootstrap_timeout, BOOTSTRAP_TIMEOUT, seconds, "60", "",                                   \
    "Seconds (at most 1e6) to wait for a peer during setup and fd exchange before failing")    \
  X(collective_timeout, COLLECTIVE_TIMEOUT, seconds, "600", "",                                \
    "Seconds to wait for the other PEs in a collective call (barrier, malloc, free, ...) "     \
    "before reporting them and aborting the job")                                              \
  X(wait_timeout, WAIT_TIMEOUT, seconds, "1e6", "",                                            \
    "Seconds after which a host wait_until or signal wait gives up with ISHMEM_ERR_TIMEOUT "   \
    "(a debugging aid: OpenSHMEM waits are unbounded)")                                        \
  X(log, LOG, choice, "warn", "none|error|warn|info|debug", "Log level of messages on stderr") \
  X(backend, BACKEND, choice, "auto", "auto|gpu|host",                                         \
    "Memory backend: auto takes the GPU one when a GPU is usable, else host")                  \
  X(device, DEVICE, integer, "-1", "",                                                         \
    "GPU ordinal for this PE among the visible ones; -1 picks by rank on the machine")         \
  X(bind, BIND, choice, "auto", "auto|none",                                                   \
    "auto binds each PE's threads to the cores nearest its GPU (hwloc); none leaves them")     \
  X(node_local, NODE_LOCAL, choice, "auto", "auto|self",                                       \
    "auto maps the heaps of PEs on the same node; self reaches every other PE through MPI "    \
    "(the same as ISHMEM_MAX_LOCAL_PES=1)")                                                    \
  X(max_local_pes, MAX_LOCAL_PES, integer, "0", "",                                            \
    "Split mode: at most this many consecutive PEs of a node share memory; each group is "     \
    "treated as a node of its own (1: every PE alone); 0: no cap (docs/MULTI_NODE.md)")        \
  X(progress_thread, PROGRESS_THREAD, choice, "auto", "auto|on|off",                           \
    "A thread that drives MPI progress and serves off-node requests while the PE computes; "   \
    "auto starts it when some PEs are off-node and MPI provides MPI_THREAD_MULTIPLE")          \
  X(progress_interval, PROGRESS_INTERVAL, integer, "20", "",                                   \
    "Microseconds the progress thread sleeps when it finds no work (1 to 1000000)")            \
  X(proxy_ring, PROXY_RING, integer, "1024", "",                                               \
    "Requests the ring of device calls to off-node PEs holds (a power of two, 2 to 1048576); " \
    "a kernel that finds it full waits (docs/MULTI_NODE.md)")                                  \
  X(off_node, OFF_NODE, choice, "auto", "auto|window|served",                                  \
    "How off-node PEs are reached: window (one-sided MPI, host heaps), served (the "           \
    "target's thread executes requests; GPU heaps stage through pinned host memory), "         \
    "auto (window for host heaps, served for GPU heaps)")                                      \
  X(max_teams, MAX_TEAMS, integer, "32", "",                                                   \
    "Team slots per PE, ISHMEM_TEAM_WORLD and ISHMEM_TEAM_SHARED included (2 to 1024); each "  \
    "takes 4 KiB + ISHMEM_COLLECTIVE_SCRATCH of the symmetric heap")                           \
  X(collective_scratch, COLLECTIVE_SCRATCH, size, "256K", "",                                  \
    "Bytes of symmetric heap per team and PE for the collectives' internal buffers")           \
  X(reduce_oneshot_max, REDUCE_ONESHOT_MAX, size, "16K", "",                                   \
    "Largest node-local reduction (bytes) run one-shot, and largest contribution staged "      \
    "through the team's scratch (docs/COLLECTIVES.md)")                                        \
  X(device_oneshot_max, DEVICE_ONESHOT_MAX, size, "64K", "",                                   \
    "Largest contribution (bytes) a collective on a GPU heap stages through the team's "       \
    "scratch (one-shot, lane 0); above it the PEs read each other's buffers directly")         \
  X(debug, DEBUG, choice, "0", "0|1",                                                          \
    "1 checks every RMA, atomic, signal and wait call, host and device, against the live "     \
    "allocations and the PE range (slower); a bad device call stops the kernel; compares "     \
    "the calls of collectives on teams with off-node PEs")                                     \
  X(shmem_errors, SHMEM_ERRORS, choice, "abort", "abort|return",                               \
    "What a failing shmem.h call that returns no status does: abort prints the error and "     \
    "stops the job; return goes on (ishmemx_last_status, ishmemx_last_error say why)")

struct Config {
#define ISHMEMI_CONFIG_FIELD(field, NAME, kind, def, choices, doc) \
  ISHMEMI_CONFIG_TYPE_##kind field{};
#define ISHMEMI_CONFIG_TYPE_size std::size_t
#define ISHMEMI_CONFIG_TYPE_seconds double
#define ISHMEMI_CONFIG_TYPE_integer long
#define ISHMEMI_CONFIG_TYPE_choice std::string
  ISHMEMI_CONFIG_VARS(ISHMEMI_CONFIG_FIELD)
#undef ISHMEMI_CONFIG_FIELD
};

struct ConfigVarInfo {
  const char *name;  // full name, ISHMEM_...
  const char *kind;
  const char *default_value;
  const char *choices;
  const char *doc;
};

// Reads variables through `getenv_fn` (getenv by default); throws ISHMEM_ERR_CONFIG naming
// the variable on a bad value.
Config load_config(const std::function<const char *(const char *)> &getenv_fn = {});
const std::vector<ConfigVarInfo> &config_vars();
// The value of `var` in `config`, as text (for ishmem-info).
std::string config_value_text(const Config &config, const char *name);

// Parsers, exposed for the unit tests. They throw ISHMEM_ERR_CONFIG naming `name`.
std::size_t parse_size(const char *name, const char *text);
double parse_seconds(const char *name, const char *text);
long parse_integer(const char *name, const char *text);
std::string parse_choice(const char *name, const char *text, const char *choices);

}  // namespace ishmem::detail
