// One atomic read-modify-write on a 4- or 8-byte word of a heap, run where the word lives: the
// off-node service of GPU heaps (runtime/served_off_node.h) executes peers' atomics with it,
// so that they are atomic with respect to the device API's atomics on the same word. The
// operation names are plain C++ (every build); the kernel is compiled with a GPU backend only.
#pragma once

#include <cstdint>
#include <mutex>

namespace ishmem::detail {

enum class WordOp : std::uint32_t { fetch, swap, add, bit_and, bit_or, bit_xor, compare_swap };

// Runs one-thread kernels on a non-blocking stream of its own (a program's kernel that runs
// for long on the default stream must not hold the peers' atomics back).
class DeviceWordAtomic {
 public:
  explicit DeviceWordAtomic(int device);
  ~DeviceWordAtomic();
  DeviceWordAtomic(const DeviceWordAtomic &) = delete;
  DeviceWordAtomic &operator=(const DeviceWordAtomic &) = delete;

  // `word` is a device address (this PE's heap or a node-local peer's mapping), `bytes` 4 or
  // 8; returns the word's old value once the kernel is done. Throws ISHMEM_ERR_BACKEND.
  std::uint64_t run(void *word, int bytes, WordOp op, std::uint64_t operand, std::uint64_t compare);

 private:
  int device_;
  void *stream_ = nullptr;
  std::uint64_t *result_ = nullptr;  // device memory: the kernel's answer
  // A program thread (atomics on node-local peers) and the off-node server thread (peers'
  // atomics on this PE) may run atomics at once: they share the stream and the answer word.
  std::mutex mutex_;
};

}  // namespace ishmem::detail
