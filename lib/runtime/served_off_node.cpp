#include "runtime/served_off_node.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "bootstrap/agreed_step.h"
#include "common/error.h"
#include "runtime/gpu_runtime.h"
#include "runtime/runtime.h"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's GPU-awareness queries
#endif

namespace ishmem::detail {

namespace {

// One tag per direction of traffic on the path's own communicator: MPI keeps the order of
// messages with one source, tag and communicator, so a flush is answered after every request
// sent before it, and a request's data follows its header.
enum Tag : int { kRequestTag = 1, kDataTag = 2, kAnswerTag = 3 };
enum class Kind : std::uint32_t { put, get, atomic, flush };

WordOp word_op(MPI_Op op, bool compare) {
  if (compare) return WordOp::compare_swap;
  if (op == MPI_NO_OP) return WordOp::fetch;
  if (op == MPI_REPLACE) return WordOp::swap;
  if (op == MPI_SUM) return WordOp::add;
  if (op == MPI_BAND) return WordOp::bit_and;
  if (op == MPI_BOR) return WordOp::bit_or;
  if (op == MPI_BXOR) return WordOp::bit_xor;
  fail(ISHMEM_ERR_INTERNAL, "off-node atomic: no served form of this MPI operation");
}

template <class U>
U cpu_rmw(U *p, WordOp op, U operand, U compare) {
  switch (op) {
    case WordOp::fetch:
      return __atomic_load_n(p, __ATOMIC_SEQ_CST);
    case WordOp::swap:
      return __atomic_exchange_n(p, operand, __ATOMIC_SEQ_CST);
    case WordOp::add:
      return __atomic_fetch_add(p, operand, __ATOMIC_SEQ_CST);
    case WordOp::bit_and:
      return __atomic_fetch_and(p, operand, __ATOMIC_SEQ_CST);
    case WordOp::bit_or:
      return __atomic_fetch_or(p, operand, __ATOMIC_SEQ_CST);
    case WordOp::bit_xor:
      return __atomic_fetch_xor(p, operand, __ATOMIC_SEQ_CST);
    case WordOp::compare_swap:
      __atomic_compare_exchange_n(p, &compare, operand, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
      return compare;  // the value found
  }
  return U{};
}

// What this MPI says about GPU buffers, for the log: the served path stages through host
// memory whatever the answer (docs/OFF_NODE.md).
const char *mpi_gpu_awareness() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (MPIX_Query_cuda_support()) return "CUDA-aware";
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  if (MPIX_Query_rocm_support()) return "ROCm-aware";
#endif
  return "not GPU-aware";
}

}  // namespace

// The header of every request: 48 bytes, sent as bytes.
struct ServedOffNode::Request {
  Kind kind;
  std::uint32_t word_bytes;  // atomics: 4 or 8
  WordOp op;
  std::uint32_t unused;
  std::uint64_t offset;  // in the target's heap
  std::uint64_t bytes;   // put and get
  std::uint64_t operand;
  std::uint64_t compare;
};

// A request as it travels: a put of at most kInline bytes carries its data in the same
// message, one message less per small put (the receiver learns the size from MPI's count).
struct ServedOffNode::Message {
  static constexpr std::size_t kInline = 8192 - sizeof(Request);
  Request request;
  char data[kInline];
};

namespace {
// How long after a waiting thread last served the server thread sleeps: far longer than the
// gaps between that thread's polls, short beside a computing PE's patience. Polling beside a
// thread that serves cost a node with one core per PE three times the latency of every
// barrier and put (docs/MULTI_NODE.md): each wake-up preempts the program.
constexpr std::int64_t kStandDownNs = 1000000;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void start_served_off_node(Runtime &rt) {
  const bool gpu = gpu_backend(rt) != nullptr;
  MPI_Comm world = rt.boot->world();
  agreed_setup_step(world, "checking MPI's thread level", [&] {
    require_mpi_multiple(gpu ? "GPU heaps with off-node PEs" : "ISHMEM_OFF_NODE=served");
  });
  agreed_setup_step(world, "starting the off-node service",
                    [&] { rt.served = std::make_unique<ServedOffNode>(rt); });
  auto *served = static_cast<ServedOffNode *>(rt.served.get());
  rt.remote = served;
  served->start(rt.service->interval());
  // One line for the job: every PE took this path (the choice is agreed).
  if (rt.boot->topology().my_pe == 0)
    log(rt.heap->window_refused() ? LogLevel::warn : LogLevel::info,
        "off-node PEs: served requests over two-sided MPI, %s, because %s (this MPI is %s)",
        gpu ? "staged through pinned host buffers" : "host heap", rt.heap->served_reason().c_str(),
        mpi_gpu_awareness());
}

ServedOffNode::ServedOffNode(Runtime &rt)
    : local_base_(rt.heap->local_base()),
      window_(rt.heap->window()),
      stride_(rt.heap->stride()),
      pe_slot_(rt.pe_slot),
      timeout_s_(rt.config.collective_timeout),
      origin_chunks_(*rt.backend, gpu_backend(rt)),
      target_chunks_(*rt.backend, gpu_backend(rt)),
      unacked_(rt.pe_slot.size(), 0),
      inline_puts_(gpu_backend(rt) == nullptr),
      inbox_(std::make_unique<Message>()) {
  ISHMEMI_CHECK_MPI(MPI_Comm_dup(rt.boot->world(), &owned_comm_.comm));
  comm_ = owned_comm_.comm;
#if defined(ISHMEM_GPU_CUDA) || defined(ISHMEM_GPU_HIP)
  if (GpuBackend *gpu = gpu_backend(rt)) device_atomic_ = new DeviceWordAtomic(gpu->device());
#endif
}

void ServedOffNode::start(std::chrono::microseconds interval) {
  server_ = std::make_unique<ServiceThread>(interval);
  server_->add(
      "off-node service",
      [this] {
        const std::int64_t since = now_ns() - app_served_ns_.load(std::memory_order_relaxed);
        if (since >= kStandDownNs) return serve(false);
        std::this_thread::sleep_for(std::chrono::nanoseconds(kStandDownNs - since));
        return false;
      },
      ServiceThread::Wakeup::prompt);
}

void ServedOffNode::progress() {
  serve(true);
}

ServedOffNode::~ServedOffNode() {
  if (server_) server_->stop();  // before anything it uses goes
#if defined(ISHMEM_GPU_CUDA) || defined(ISHMEM_GPU_HIP)
  delete device_atomic_;
#endif
}

void ServedOffNode::wait(MPI_Request *reqs, int n, const char *what, int pe, bool serve_peers) {
  const auto give_up = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(timeout_s_));
  for (unsigned polls = 0;; ++polls) {
    int done = 0;
    ISHMEMI_CHECK_MPI(MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE));
    if (done) return;
    // Peers' requests are served here too (a peer may wait on this PE while this PE waits on
    // it), so that the server thread stands down while this thread waits.
    if (serve_peers && (polls >= 64 || (polls & 3) == 3)) serve(true);
    if (polls < 64) continue;
    std::this_thread::yield();  // PEs often outnumber cores
    if ((polls & 255) == 0 && std::chrono::steady_clock::now() > give_up)
      fail(ISHMEM_ERR_TIMEOUT,
           "off-node %s with PE %d: no progress within %g s (ISHMEM_COLLECTIVE_TIMEOUT); is "
           "that PE still running?",
           what, pe, timeout_s_);
  }
}

StagedChunks::Wait ServedOffNode::waiter(const char *what, int pe) {
  // A transfer's chunks serve no peer while they wait: that peer may be sending or receiving
  // chunks of its own to this PE, and would wait in turn for the rest of this transfer, which
  // the chunk loop posts only after this wait.
  return [=](MPI_Request *reqs, int n) { wait(reqs, n, what, pe, false); };
}

void ServedOffNode::send_request(int pe, const Request &request) {
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Isend(&request, sizeof request, MPI_BYTE, pe, kRequestTag, comm_, &req));
  wait(&req, 1, "request", pe);
}

void ServedOffNode::exchange(int pe, const Request &request, void *answer, int answer_bytes,
                             const char *what) {
  // The answer's receive is posted first, so that it never waits among MPI's unexpected
  // messages.
  MPI_Request reqs[2];
  ISHMEMI_CHECK_MPI(MPI_Irecv(answer, answer_bytes, MPI_BYTE, pe, kAnswerTag, comm_, &reqs[0]));
  ISHMEMI_CHECK_MPI(
      MPI_Isend(&request, sizeof request, MPI_BYTE, pe, kRequestTag, comm_, &reqs[1]));
  wait(reqs, 2, what, pe);
}

void ServedOffNode::put(int pe, std::size_t offset, const void *source, std::size_t bytes, bool) {
  // Both forms return once `source` is reusable: the data has left it (staged or sent).
  if (bytes == 0) return;
  std::lock_guard<std::mutex> lock(origin_mutex_);
  unacked_[pe] = 1;
  dirty_.store(true, std::memory_order_release);
  const Request request{Kind::put, 0, WordOp::fetch, 0, offset, bytes, 0, 0};
  if (inline_puts_ && bytes <= Message::kInline) {
    Message message;
    message.request = request;
    std::memcpy(message.data, source, bytes);
    MPI_Request req;
    ISHMEMI_CHECK_MPI(MPI_Isend(&message, static_cast<int>(sizeof request + bytes), MPI_BYTE, pe,
                                kRequestTag, comm_, &req));
    wait(&req, 1, "put", pe);
    return;
  }
  send_request(pe, request);
  origin_chunks_.send(comm_, pe, kDataTag, static_cast<const char *>(source), bytes,
                      waiter("put", pe));
}

void ServedOffNode::get(int pe, std::size_t offset, void *dest, std::size_t bytes, bool) {
  // Both forms return with the data in `dest`.
  if (bytes == 0) return;
  std::lock_guard<std::mutex> lock(origin_mutex_);
  send_request(pe, Request{Kind::get, 0, WordOp::fetch, 0, offset, bytes, 0, 0});
  origin_chunks_.recv(comm_, pe, kAnswerTag, static_cast<char *>(dest), bytes, waiter("get", pe));
}

void ServedOffNode::atomic(int pe, std::size_t offset, MPI_Datatype type, MPI_Op op,
                           const void *origin, const void *compare, void *result) {
  int size = 0;
  ISHMEMI_CHECK_MPI(MPI_Type_size(type, &size));
  if (size != 4 && size != 8)
    fail(ISHMEM_ERR_INTERNAL, "off-node atomic: %d-byte elements have no served form", size);
  const WordOp word = word_op(op, compare != nullptr);
  if (word == WordOp::add && (type == MPI_FLOAT || type == MPI_DOUBLE))
    fail(ISHMEM_ERR_INTERNAL, "off-node atomic: floating-point sums have no served form");
  Request request{Kind::atomic, static_cast<std::uint32_t>(size), word, 0, offset, 0, 0, 0};
  if (word != WordOp::fetch) std::memcpy(&request.operand, origin, size);
  if (compare) std::memcpy(&request.compare, compare, size);
  std::uint64_t old = 0;
  const int slot = pe_slot_[pe];
  if (slot >= 0) {  // node-local: this PE maps the word and runs the atomic itself
    old = word_atomic(window_ + stride_ * static_cast<std::size_t>(slot) + offset, size, word,
                      request.operand, request.compare);
  } else {
    std::lock_guard<std::mutex> lock(origin_mutex_);
    exchange(pe, request, &old, sizeof old, "atomic");
  }
  std::memcpy(result, &old, size);
}

void ServedOffNode::flush(int pe) {
  if (!dirty()) return;
  std::lock_guard<std::mutex> lock(origin_mutex_);
  if (!unacked_[pe]) return;
  char ack;
  exchange(pe, Request{Kind::flush, 0, WordOp::fetch, 0, 0, 0, 0, 0}, &ack, 1, "flush");
  unacked_[pe] = 0;
}

void ServedOffNode::flush_all() {
  if (!dirty()) return;
  std::lock_guard<std::mutex> lock(origin_mutex_);
  dirty_.store(false, std::memory_order_release);
  // Every target's flush is sent before any answer is awaited: the flushes overlap.
  const Request request{Kind::flush, 0, WordOp::fetch, 0, 0, 0, 0, 0};
  std::vector<MPI_Request> reqs;
  std::vector<char> acks(unacked_.size());
  for (int pe = 0; pe < static_cast<int>(unacked_.size()); ++pe) {
    if (!unacked_[pe]) continue;
    reqs.emplace_back();
    ISHMEMI_CHECK_MPI(
        MPI_Isend(&request, sizeof request, MPI_BYTE, pe, kRequestTag, comm_, &reqs.back()));
    reqs.emplace_back();
    ISHMEMI_CHECK_MPI(MPI_Irecv(&acks[pe], 1, MPI_BYTE, pe, kAnswerTag, comm_, &reqs.back()));
    unacked_[pe] = 0;
  }
  wait(reqs.data(), static_cast<int>(reqs.size()), "flush", -1);
}

bool ServedOffNode::serve(bool stand_down_server) {
  std::unique_lock<std::mutex> lock(serve_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return false;  // another thread is serving
  if (stand_down_server) app_served_ns_.store(now_ns(), std::memory_order_relaxed);
  bool worked = false;
  for (int served = 0; served < 64; ++served) {  // then let the service thread's others run
    int arrived = 0;
    MPI_Status status;
    ISHMEMI_CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, kRequestTag, comm_, &arrived, &status));
    if (!arrived) break;
    ISHMEMI_CHECK_MPI(MPI_Recv(inbox_.get(), sizeof(Message), MPI_BYTE, status.MPI_SOURCE,
                               kRequestTag, comm_, &status));
    int received = 0;
    ISHMEMI_CHECK_MPI(MPI_Get_count(&status, MPI_BYTE, &received));
    execute(status.MPI_SOURCE, *inbox_, static_cast<std::size_t>(received));
    worked = true;
  }
  return worked;
}

void ServedOffNode::execute(int origin, const Message &message, std::size_t received) {
  const Request &request = message.request;
  if (received < sizeof request)
    fail(ISHMEM_ERR_INTERNAL, "off-node service: a %zu-byte request from PE %d", received, origin);
  char *at = local_base_ + request.offset;
  switch (request.kind) {
    case Kind::put:
      if (received > sizeof request) {  // the data came with it
        if (received - sizeof request != request.bytes)
          fail(ISHMEM_ERR_INTERNAL, "off-node service: a put of %llu bytes from PE %d carried %zu",
               static_cast<unsigned long long>(request.bytes), origin, received - sizeof request);
        std::memcpy(at, message.data, request.bytes);
        return;
      }
      target_chunks_.recv(comm_, origin, kDataTag, at, request.bytes,
                          waiter("put (target)", origin));
      return;
    case Kind::get:
      target_chunks_.send(comm_, origin, kAnswerTag, at, request.bytes,
                          waiter("get (target)", origin));
      return;
    case Kind::atomic: {
      const std::uint64_t old = word_atomic(at, static_cast<int>(request.word_bytes), request.op,
                                            request.operand, request.compare);
      ISHMEMI_CHECK_MPI(MPI_Send(&old, sizeof old, MPI_BYTE, origin, kAnswerTag, comm_));
      return;
    }
    case Kind::flush: {  // every earlier request of `origin` is done: they were served in order
      const char ack = 1;
      ISHMEMI_CHECK_MPI(MPI_Send(&ack, 1, MPI_BYTE, origin, kAnswerTag, comm_));
      return;
    }
  }
  fail(ISHMEM_ERR_INTERNAL, "off-node service: unknown request %u from PE %d",
       static_cast<unsigned>(request.kind), origin);
}

std::uint64_t ServedOffNode::word_atomic(char *word, int bytes, WordOp op, std::uint64_t operand,
                                         std::uint64_t compare) {
#if defined(ISHMEM_GPU_CUDA) || defined(ISHMEM_GPU_HIP)
  if (device_atomic_) return device_atomic_->run(word, bytes, op, operand, compare);
#endif
  if (bytes == 4)
    return cpu_rmw(reinterpret_cast<std::uint32_t *>(word), op, static_cast<std::uint32_t>(operand),
                   static_cast<std::uint32_t>(compare));
  return cpu_rmw(reinterpret_cast<std::uint64_t *>(word), op, operand, compare);
}

}  // namespace ishmem::detail
