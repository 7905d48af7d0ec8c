// One table of ISHMEM_* environment variables drives parsing, defaults and ishmem-info.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ishmem::detail {

// X(field, NAME, kind, default, choices, doc). Kinds: size (bytes, K/M/G/T suffixes),
// seconds (positive number), integer, choice (one of `choices`, '|'-separated). The docs are
// Markdown: `ishmem-info --env-markdown` prints them as README.md's table
// (tests/env_table.py checks it), plain `ishmem-info` without the markup.
#define ISHMEMI_CONFIG_VARS(X)                                                                  \
  X(symmetric_size, SYMMETRIC_SIZE, size, "1G", "",                                             \
    "largest heap per PE (K, M, G, T suffixes); only address space is reserved up front, and "  \
    "init warns when it exceeds the PE's share of the memory behind the heap")                  \
  X(chunk_size, CHUNK_SIZE, size, "2M", "",                                                     \
    "smallest step by which the heap commits physical memory")                                  \
  X(trim_threshold, TRIM_THRESHOLD, size, "64M", "",                                            \
    "free memory at the heap's tail that the trim policy always keeps for reuse "               \
    "(`ishmemx_heap_trim` and a failed growth still return it)")                                \
  X(trim_interval, TRIM_INTERVAL, integer, "64", "",                                            \
    "the trim policy's period, in collective heap calls (`malloc`, `calloc`, `align`, "         \
    "`realloc`, `free`): at the end of each, the memory at the heap's tail that no block used"  \
    " after any call of the period is returned, when that is more than "                        \
    "`ISHMEM_TRIM_THRESHOLD`. `0` (or `1`) returns it at the call that frees it. A loop that "  \
    "allocates and frees a large block each step keeps its memory mapped. A call that returns"  \
    " memory first waits for the device work queued before it; a program whose kernels run "    \
    "across heap calls can set a very large interval and return memory with "                   \
    "`ishmemx_heap_trim`")                                                                      \
  X(bootstrap_timeout, BOOTSTRAP_TIMEOUT, seconds, "60", "",                                    \
    "seconds (at most 1e6) to wait for a peer during setup and fd exchange before failing")     \
  X(collective_timeout, COLLECTIVE_TIMEOUT, seconds, "600", "",                                 \
    "seconds to wait for the other PEs in a collective call (barrier, malloc, free, ...); "     \
    "past it, or when a node-local PE it waits for has died, a PE reports whom it waited for "  \
    "and what they last did, and aborts the job")                                               \
  X(wait_timeout, WAIT_TIMEOUT, seconds, "1e6", "",                                             \
    "seconds after which a host `wait_until` or signal wait gives up with "                     \
    "`ISHMEM_ERR_TIMEOUT`: a debugging aid, since OpenSHMEM waits are unbounded")               \
  X(log, LOG, choice, "warn", "none|error|warn|info|debug",                                     \
    "log level of messages on stderr: `none`, `error`, `warn`, `info` or `debug`")              \
  X(backend, BACKEND, choice, "auto", "auto|gpu|host",                                          \
    "`auto` (GPU if every PE has one), `gpu` or `host`")                                        \
  X(device, DEVICE, integer, "-1", "",                                                          \
    "GPU for this PE among the visible ones; -1 picks by the PE's rank on its machine")         \
  X(bind, BIND, choice, "auto", "auto|none",                                                    \
    "`auto` binds each PE to the cores nearest its GPU; `none` leaves it")                      \
  X(node_local, NODE_LOCAL, choice, "auto", "auto|self",                                        \
    "`self` reaches every other PE through MPI (for testing that path); the same as "           \
    "`ISHMEM_MAX_LOCAL_PES=1`, and an error beside another cap")                                \
  X(max_local_pes, MAX_LOCAL_PES, integer, "0", "",                                             \
    "split mode: the PEs of a machine form nodes of at most this many consecutive PEs, which "  \
    "map each other's heaps; between them everything goes through MPI "                         \
    "([docs/MULTI_NODE.md](docs/MULTI_NODE.md#split-mode)). `0`: no cap; the same on every PE") \
  X(progress_thread, PROGRESS_THREAD, choice, "auto", "auto|on|off",                            \
    "a thread that lets MPI serve peers' operations on this PE while it computes: `auto` "      \
    "(with off-node PEs, when MPI is at `MPI_THREAD_MULTIPLE`), `on` (fails without "           \
    "`MPI_THREAD_MULTIPLE`) or `off` (then `ishmem_init` starts MPI at `MPI_THREAD_SINGLE`); "  \
    "[docs/MULTI_NODE.md](docs/MULTI_NODE.md)")                                                 \
  X(progress_interval, PROGRESS_INTERVAL, integer, "20", "",                                    \
    "microseconds the progress thread sleeps between two polls (1 to 1000000)")                 \
  X(proxy_ring, PROXY_RING, integer, "1024", "",                                                \
    "requests the ring of device calls to off-node PEs holds (a power of two, 2 to 1048576); "  \
    "a kernel that finds it full waits ([docs/MULTI_NODE.md](docs/MULTI_NODE.md))")             \
  X(off_node, OFF_NODE, choice, "auto", "auto|window|served",                                   \
    "how off-node PEs are reached: `window` (one-sided MPI over host heaps), `served` "         \
    "(requests the target's server thread executes; GPU heaps stage through pinned host "       \
    "memory), `auto` (served for GPU heaps and for host heaps whose nodes are joined by a "     \
    "network; the window between split-mode nodes of one machine, or below "                    \
    "`MPI_THREAD_MULTIPLE`, falling back to served where MPI refuses the window); the same on " \
    "every PE "                                                                                 \
    "([docs/OFF_NODE.md](docs/OFF_NODE.md))")                                                   \
  X(max_teams, MAX_TEAMS, integer, "32", "",                                                    \
    "team slots per PE, `ISHMEM_TEAM_WORLD` and `ISHMEM_TEAM_SHARED` included (2 to 1024); "    \
    "each takes 4 KiB + `ISHMEM_COLLECTIVE_SCRATCH` of the symmetric heap at `ishmem_init`; "   \
    "the same on every PE")                                                                     \
  X(collective_scratch, COLLECTIVE_SCRATCH, size, "256K", "",                                   \
    "bytes of symmetric heap per team and PE for the collectives' internal buffers; the same "  \
    "on every PE")                                                                              \
  X(reduce_oneshot_max, REDUCE_ONESHOT_MAX, size, "16K", "",                                    \
    "largest reduction (bytes) that node-local teams run one-shot (each PE combines every "     \
    "peer's copy); larger ones run reduce-scatter + all-gather. Also the largest contribution"  \
    " the other collectives copy through the team's scratch instead of reading the source (at"  \
    " most half of `ISHMEM_COLLECTIVE_SCRATCH`)")                                               \
  X(device_oneshot_max, DEVICE_ONESHOT_MAX, size, "64K", "",                                    \
    "largest contribution (bytes) a collective on a GPU heap copies through the team's "        \
    "scratch (one meeting per call); above it the PEs read each other's buffers directly "      \
    "(also capped by half of `ISHMEM_COLLECTIVE_SCRATCH`)")                                     \
  X(debug, DEBUG, choice, "0", "0|1",                                                           \
    "`1` checks every RMA, atomic, signal and wait call, host and device, against the live "    \
    "allocations (see Checks in README.md), and the calls of collectives on teams with "        \
    "off-node PEs across PEs")                                                                  \
  X(shmem_errors, SHMEM_ERRORS, choice, "abort", "abort|return",                                \
    "what a failing `shmem.h` call that returns no status does: `abort` prints the error and "  \
    "stops the job; `return` goes on, and `shmemx_last_status()`/`shmemx_last_error()` say "    \
    "what failed ([docs/OPENSHMEM.md](docs/OPENSHMEM.md))")

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
