#include "runtime/device_proxy.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "common/error.h"

namespace ishmem::detail {
namespace {

// Requests executed per poll at most, so that the service thread's other pollers keep their
// turn under a stream of requests.
constexpr int kRequestsPerPoll = 256;

unsigned long long load_acquire(const unsigned long long &word) {
  return __atomic_load_n(&word, __ATOMIC_ACQUIRE);
}
void store_release(unsigned long long &word, unsigned long long value) {
  __atomic_store_n(&word, value, __ATOMIC_RELEASE);
}

// The MPI operation of an atomic request (compare-and-swap has its own call).
MPI_Op mpi_op_of(unsigned op) {
  switch (op) {
    case ISHMEMX_PROXY_AMO_FETCH:
      return MPI_NO_OP;
    case ISHMEMX_PROXY_AMO_ADD:
      return MPI_SUM;
    case ISHMEMX_PROXY_AMO_AND:
      return MPI_BAND;
    case ISHMEMX_PROXY_AMO_OR:
      return MPI_BOR;
    case ISHMEMX_PROXY_AMO_XOR:
      return MPI_BXOR;
    default:  // set, swap
      return MPI_REPLACE;
  }
}

}  // namespace

DeviceProxy::DeviceProxy(Runtime &rt, GpuBackend &gpu, std::size_t entries)
    : rt_(rt), gpu_(gpu), entries_(entries) {
  require_mpi_multiple("device calls to off-node PEs");
  if (!rt.remote) fail(ISHMEM_ERR_INTERNAL, "device proxy without an off-node transport");
  // The ring, then the status word, on whole pages: registration pins whole pages.
  const std::size_t ring_bytes = sizeof(ishmemx_proxy_slot_t) * entries;
  const std::size_t bytes = (ring_bytes + sizeof(int) + 4095) / 4096 * 4096;
  slots_ = static_cast<ishmemx_proxy_slot_t *>(std::aligned_alloc(4096, bytes));
  if (!slots_)
    fail(ISHMEM_ERR_NOMEM, "could not allocate the device proxy's ring (%zu bytes)", bytes);
  std::memset(slots_, 0, bytes);
  for (std::size_t i = 0; i < entries; ++i) slots_[i].free = i;  // ticket i takes slot i first
  status_ = reinterpret_cast<int *>(reinterpret_cast<char *>(slots_) + ring_bytes);
  try {
    slots_device_ = static_cast<ishmemx_proxy_slot_t *>(gpu.register_host(slots_, bytes));
    tickets_device_ =
        static_cast<unsigned long long *>(gpu.device_alloc(sizeof(unsigned long long)));
    const unsigned long long zero = 0;
    gpu.copy(tickets_device_, &zero, sizeof zero);
    ISHMEMI_CHECK_MPI(MPI_Comm_dup(rt.boot->world(), &comm_));
    collectives_ = std::make_unique<ProxiedCollectives>(rt);
    poller_ = rt.service->add(
        "device proxy", [this] { return poll(); }, ServiceThread::Wakeup::prompt);
  } catch (...) {
    release();
    throw;
  }
}

DeviceProxy::~DeviceProxy() {
  release();
}

void DeviceProxy::release() noexcept {
  if (poller_) rt_.service->remove(poller_);
  poller_ = 0;
  collectives_.reset();  // joins their threads, which answer into the ring
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  gpu_.device_free(tickets_device_);
  tickets_device_ = nullptr;
  if (slots_device_) gpu_.unregister_host(slots_);
  slots_device_ = nullptr;
  std::free(slots_);
  slots_ = nullptr;
}

void DeviceProxy::describe(ishmemx_heap_map_t &map) const {
  map.proxy_slots = slots_device_;
  map.proxy_tickets = tickets_device_;
  map.proxy_status = reinterpret_cast<const int *>(reinterpret_cast<const char *>(slots_device_) +
                                                   sizeof(ishmemx_proxy_slot_t) * entries_);
  map.proxy_mask = entries_ - 1;
}

std::size_t DeviceProxy::offset_of(unsigned long long address, std::size_t bytes, int pe) const {
  const std::size_t offset =
      static_cast<std::size_t>(address - reinterpret_cast<std::uintptr_t>(rt_.heap->local_base()));
  // The library's area below the user's heap is out of reach, as on every other path.
  if (pe < 0 || pe >= static_cast<int>(rt_.pe_slot.size()) || offset < rt_.heap->user_offset() ||
      offset > rt_.heap->capacity() || bytes > rt_.heap->capacity() - offset)
    fail(ISHMEM_ERR_INVALID_ARG,
         "device call to off-node PE %d: %zu bytes at %p are not in the symmetric heap", pe, bytes,
         reinterpret_cast<void *>(address));
  return offset;
}

void DeviceProxy::publish(ishmemx_proxy_slot_t &slot, unsigned long long ticket, unsigned op,
                          unsigned long long value) {
  if (op & ISHMEMX_PROXY_WAIT) {  // the waiting device thread hands the slot on
    slot.value = value;
    store_release(slot.done, ticket + 1);
  } else {
    store_release(slot.free, ticket + entries_);
  }
}

bool DeviceProxy::barrier_done() {
  int flag = 0;
  ISHMEMI_CHECK_MPI(MPI_Test(&barrier_, &flag, MPI_STATUS_IGNORE));
  return flag != 0;
}

bool DeviceProxy::serve(const ishmemx_proxy_slot_t &req, unsigned long long ticket) {
  auto &remote = *rt_.remote;  // the off-node path (GPU heaps: device addresses allowed)
  const unsigned kind = req.op & 0x7f;
  const int pe = req.pe;
  void *local = reinterpret_cast<void *>(req.source);
  unsigned long long value = 0;
  switch (kind) {
    case ISHMEMX_PROXY_PUT:
      remote.put(pe, offset_of(req.dest, req.bytes, pe), local, req.bytes,
                 (req.op & ISHMEMX_PROXY_WAIT) != 0);
      break;
    case ISHMEMX_PROXY_PUT_INLINE:  // the data lives in `req`: blocking
      remote.put(pe, offset_of(req.dest, req.bytes, pe), &req.source, req.bytes, true);
      break;
    case ISHMEMX_PROXY_GET:
      remote.get(pe, offset_of(req.dest, req.bytes, pe), local, req.bytes, true);
      break;
    case ISHMEMX_PROXY_GET_INLINE:
      remote.get(pe, offset_of(req.dest, req.bytes, pe), &value, req.bytes, true);
      break;
    case ISHMEMX_PROXY_PUT_SIGNAL_SET:
    case ISHMEMX_PROXY_PUT_SIGNAL_ADD: {
      if (req.bytes) remote.put(pe, offset_of(req.dest, req.bytes, pe), local, req.bytes, false);
      remote.flush(pe);  // the data (here or in earlier pieces) lands before the signal
      const unsigned long long signal = req.value;
      unsigned long long old = 0;
      remote.atomic(pe, offset_of(req.cond, sizeof signal, pe), MPI_UINT64_T,
                    kind == ISHMEMX_PROXY_PUT_SIGNAL_ADD ? MPI_SUM : MPI_REPLACE, &signal, nullptr,
                    &old);
      break;
    }
    case ISHMEMX_PROXY_QUIET:
    case ISHMEMX_PROXY_FENCE:
      remote.flush_all();
      break;
    case ISHMEMX_PROXY_BARRIER:
      if (!barrier_started_) {
        remote.flush_all();
        ISHMEMI_CHECK_MPI(MPI_Ibarrier(comm_, &barrier_));
        barrier_started_ = true;
      }
      if (!barrier_done()) return false;
      barrier_started_ = false;
      break;
    case ISHMEMX_PROXY_COLLECTIVE:  // its thread answers; the ring moves on
      collectives_->start(req, [this, ticket, op = req.op](int status) {
        publish(slots_[ticket & (entries_ - 1)], ticket, op,
                static_cast<unsigned long long>(static_cast<long long>(status)));
      });
      return true;
    default: {
      if (kind < ISHMEMX_PROXY_AMO_FETCH || kind > ISHMEMX_PROXY_AMO_XOR)
        fail(ISHMEM_ERR_INTERNAL, "device proxy: request %llu has no operation %u", ticket, req.op);
      const unsigned bytes = (req.op >> 8) & 0xff;
      if (bytes != 4 && bytes != 8)
        fail(ISHMEM_ERR_INTERNAL, "device proxy: an atomic on %u bytes", bytes);
      const MPI_Datatype type = bytes == 4 ? MPI_UINT32_T : MPI_UINT64_T;
      // The words as the device wrote them (little-endian: a 4-byte word is the low half).
      const std::size_t offset = offset_of(req.dest, bytes, pe);
      const bool cswap = kind == ISHMEMX_PROXY_AMO_CSWAP;
      remote.atomic(pe, offset, type, mpi_op_of(kind), &req.value, cswap ? &req.cond : nullptr,
                    &value);
    }
  }
  publish(slots_[ticket & (entries_ - 1)], ticket, req.op, value);
  return true;
}

bool DeviceProxy::poll() {
  bool worked = false;
  try {
    collectives_->reap();
    for (int i = 0; i < kRequestsPerPoll; ++i) {
      const unsigned long long ticket = executed_.load(std::memory_order_relaxed);
      ishmemx_proxy_slot_t &slot = slots_[ticket & (entries_ - 1)];
      if (load_acquire(slot.ready) != ticket + 1) break;
      ishmemx_proxy_slot_t req;  // the device's writes, ordered before `ready`
      std::memcpy(&req, &slot, sizeof req);
      worked = true;  // a barrier that waits keeps the thread polling too
      if (!serve(req, ticket)) break;
      executed_.store(ticket + 1, std::memory_order_release);
    }
  } catch (const Error &e) {
    // Device threads waiting on the proxy return this error instead of waiting for ever.
    __atomic_store_n(status_, e.code(), __ATOMIC_RELEASE);
    throw;
  }
  return worked;
}

void DeviceProxy::drain() {
  // The requests written so far: from the next to execute on, while their slots are ready.
  const unsigned long long first = executed_.load(std::memory_order_acquire);
  unsigned long long last = first;
  while (last - first < entries_ && load_acquire(slots_[last & (entries_ - 1)].ready) == last + 1)
    ++last;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(rt_.config.collective_timeout);
  while (executed_.load(std::memory_order_acquire) < last) {
    if (int status = __atomic_load_n(status_, __ATOMIC_ACQUIRE))
      fail(status, "the device proxy stopped: %s", rt_.service->first_error().c_str());
    if (std::chrono::steady_clock::now() > deadline)
      fail(ISHMEM_ERR_TIMEOUT, "device calls to off-node PEs: %llu requests not served in %g s",
           last - executed_.load(), rt_.config.collective_timeout);
    std::this_thread::yield();
  }
}

}  // namespace ishmem::detail
