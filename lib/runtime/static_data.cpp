#include "runtime/static_data.h"

#include <link.h>

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <utility>

#include "bootstrap/agreed_step.h"
#include "bootstrap/stall_watch.h"
#include "common/error.h"

namespace ishmem::detail {

namespace {

using Range = std::pair<std::uintptr_t, std::uintptr_t>;  // [start, end)

// dl_iterate_phdr's callback: the writable PT_LOAD segments of the first object, which is the
// executable (shared libraries follow it), less their RELRO part (the GOT, .dynamic, the init
// arrays), which the loader makes read-only once it has relocated them.
int executable_data(dl_phdr_info *info, std::size_t, void *out) {
  std::uintptr_t relro_start = 0, relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_GNU_RELRO) continue;
    relro_start = info->dlpi_addr + ph.p_vaddr;
    relro_end = relro_start + ph.p_memsz;
  }
  auto &ranges = *static_cast<std::vector<Range> *>(out);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_W) || ph.p_memsz == 0) continue;
    std::uintptr_t start = info->dlpi_addr + ph.p_vaddr, end = start + ph.p_memsz;
    if (relro_start <= start && start < relro_end) start = std::min(relro_end, end);
    if (start < end) ranges.emplace_back(start, end);
  }
  return 1;  // stop after the executable
}

std::uint64_t layout_hash(const std::vector<std::pair<std::size_t, std::size_t>> &segments) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the offsets and sizes
  for (const auto &[offset, bytes] : segments)
    for (std::uint64_t word : {std::uint64_t{offset}, std::uint64_t{bytes}})
      for (int i = 0; i < 8; ++i) h = (h ^ ((word >> (8 * i)) & 0xff)) * 1099511628211ull;
  return h;
}

// "PE 0: 8192 bytes, PE 2: 12288 bytes" for PE 0 and the first PEs whose layout differs from
// it (`all` holds each PE's byte count and layout hash); empty when every PE agrees.
std::string layout_differences(const std::vector<std::uint64_t> &all) {
  const std::size_t n = all.size() / 2;
  constexpr std::size_t kListed = 4;
  std::string text;
  std::size_t differ = 0;
  char item[96];
  for (std::size_t pe = 1; pe < n; ++pe) {
    if (all[2 * pe] == all[0] && all[2 * pe + 1] == all[1]) continue;
    if (++differ > kListed) continue;
    snprintf(item, sizeof item, ", PE %zu: %" PRIu64 " bytes%s", pe, all[2 * pe],
             all[2 * pe] == all[0] ? " laid out differently" : "");
    text += item;
  }
  if (differ == 0) return {};
  snprintf(item, sizeof item, "PE 0: %" PRIu64 " bytes", all[0]);
  text.insert(0, item);
  if (differ > kListed) {
    snprintf(item, sizeof item, " and %zu more PEs", differ - kListed);
    text += item;
  }
  return text;
}

}  // namespace

StaticData::StaticData(MPI_Comm comm) {
  std::vector<Range> ranges;
  dl_iterate_phdr(executable_data, &ranges);
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<std::size_t, std::size_t>> layout;
  std::uint64_t total = 0;
  if (!ranges.empty()) base_ = reinterpret_cast<char *>(ranges.front().first);
  for (const auto &[start, end] : ranges) {
    segments_.push_back({static_cast<std::size_t>(start - ranges.front().first), end - start});
    layout.emplace_back(segments_.back().offset, segments_.back().bytes);
    total += end - start;
  }

  // Every PE must run the same executable: the same segments at the same offsets.
  int n = 0;
  ISHMEMI_CHECK_MPI(MPI_Comm_size(comm, &n));
  const std::uint64_t mine[2] = {total, layout_hash(layout)};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(n));
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm, &req));
  watch_complete(req, "MPI_Iallgather");
  const std::string differences = layout_differences(all);
  if (!differences.empty()) {
    unusable_code_ = ISHMEM_ERR_NOT_SYMMETRIC;
    unusable_ = "differs between PEs (" + differences + "); run one executable on every PE";
  } else if (segments_.empty()) {
    unusable_code_ = ISHMEM_ERR_UNSUPPORTED;
    unusable_ = "was not found (the executable has no writable segment)";
  } else {
    FirstError made;
    made.attempt([&] { window_ = std::make_unique<MpiTransport>(comm, base_); });
    if (window_)
      made.attempt([&] {
        for (const Segment &s : segments_) window_->attach(base_ + s.offset, s.bytes);
      });
    if (lowest_status(comm, made.code()) == ISHMEM_SUCCESS) return;
    // Freeing the window is collective, and a PE that could not make one would never join.
    if (window_) window_->abandon();
    window_.reset();
    unusable_code_ = ISHMEM_ERR_UNSUPPORTED;
    unusable_ = std::string("has no MPI window (") +
                (made.ok() ? "another PE could not make it" : made.text()) +
                "; with Open MPI, OMPI_MCA_osc=^ucx lets another one-sided component make it, "
                "as ishmemrun does)";
  }
  log(LogLevel::info, "the program's static data %s: RMA and atomics on it will fail",
      unusable_.c_str());
}

bool StaticData::contains(const void *addr, std::size_t bytes, std::size_t &off) const {
  off = static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(addr) -
                                 reinterpret_cast<std::uintptr_t>(base_));
  for (const Segment &s : segments_) {
    const std::size_t in = off - s.offset;  // wraps for an address below the segment
    if (in < s.bytes && bytes <= s.bytes - in) return true;
  }
  return false;
}

bool StaticData::segment_of(const void *addr, const char *&start, std::size_t &bytes) const {
  std::size_t off;
  if (!contains(addr, 1, off)) return false;
  for (const Segment &s : segments_)
    if (off - s.offset < s.bytes) {
      start = base_ + s.offset;
      bytes = s.bytes;
    }
  return true;
}

MpiTransport &StaticData::window(const char *fn, const void *addr) const {
  if (!window_)
    fail(unusable_code_, "%s: %p is in the program's static data, which %s", fn, addr,
         unusable_.c_str());
  return *window_;
}

void StaticData::flush(int pe) {
  if (window_) window_->flush(pe);
}

void StaticData::flush_all() {
  if (window_) window_->flush_all();
}

void StaticData::progress() {
  if (window_) window_->progress();
}

void StaticData::close() {
  if (!window_) return;
  std::unique_ptr<MpiTransport> window = std::move(window_);  // unusable from here on
  for (const Segment &s : segments_) window->detach(base_ + s.offset);
  window->close();
}

}  // namespace ishmem::detail
