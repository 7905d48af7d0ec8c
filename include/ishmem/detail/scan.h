/* The comparison and the scans of wait_until and test, written once for the host library
 * (lib/api/wait.cpp) and the device calls. Nothing here knows where it runs: the caller
 * supplies a Poll type with
 *   template <class T> static T load(const T *p);   an acquire load of one variable
 *   template <class Ready> bool until(Ready ready); polls until ready() holds; false if it
 *                                                   gave up (the device wait limit)
 * Internal: arguments are checked, where they are, before these run. */
#ifndef ISHMEM_DETAIL_SCAN_H
#define ISHMEM_DETAIL_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "ishmem.h"
#include "ishmem/detail/mode.h"

namespace ishmemi {

/* True if `value` compares true against `target` under ISHMEM_CMP_*; a bad cmp never holds. */
template <class T>
ISHMEMI_FN bool holds(T value, int cmp, T target) {
  switch (cmp) {
    case ISHMEM_CMP_EQ:
      return value == target;
    case ISHMEM_CMP_NE:
      return value != target;
    case ISHMEM_CMP_GT:
      return value > target;
    case ISHMEM_CMP_GE:
      return value >= target;
    case ISHMEM_CMP_LT:
      return value < target;
    case ISHMEM_CMP_LE:
      return value <= target;
  }
  return false;
}
ISHMEMI_FN bool valid_cmp(int cmp) {
  return cmp >= ISHMEM_CMP_EQ && cmp <= ISHMEM_CMP_LE;
}

/* The comparison target of entry i: one value for all, or one per entry (_vector forms). */
template <class T>
struct OneTarget {
  T value;
  ISHMEMI_FN T operator[](size_t) const { return value; }
};
template <class T>
struct EachTarget {
  const T *values;
  ISHMEMI_FN T operator[](size_t i) const { return values[i]; }
};

/* One query: the variables, which of them take part, and what they are compared with. */
template <class Poll, class T, class Targets>
struct Scan {
  const T *ivars;
  size_t n;
  const int *status; /* entries with nonzero status are left out; NULL: none is */
  int cmp;
  Targets targets;

  ISHMEMI_FN bool included(size_t i) const { return !status || status[i] == 0; }
  ISHMEMI_FN bool satisfied(size_t i) const {
    return holds(Poll::load(ivars + i), cmp, targets[i]);
  }
  ISHMEMI_FN bool any_included() const {
    if (!status) return n > 0;
    for (size_t i = 0; i < n; ++i)
      if (status[i] == 0) return true;
    return false;
  }
  /* Included, satisfied entries: their count; their indices go to `indices` when given. Fair
   * by itself: every satisfied entry at once. */
  ISHMEMI_FN size_t test_some(size_t *indices) const {
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!included(i) || !satisfied(i)) continue;
      if (indices) indices[count] = i;
      ++count;
    }
    return count;
  }
  /* The first included, satisfied entry from `start` on, wrapping around; SIZE_MAX if none.
   * The callers start after the index they returned last, so that a series of calls returns
   * every satisfied entry, as OpenSHMEM asks of test_any and wait_until_any. */
  ISHMEMI_FN size_t test_any(size_t start) const {
    size_t i = n ? start % n : 0;
    for (size_t k = 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1)
      if (included(i) && satisfied(i)) return i;
    return SIZE_MAX;
  }

  ISHMEMI_FN int test_all() const {
    for (size_t i = 0; i < n; ++i)
      if (included(i) && !satisfied(i)) return 0;
    return 1;
  }
  /* Entry by entry: once an entry holds, the wait moves on to the next (the device waits; the
   * host library waits until test_all() holds, every entry in one pass). */
  ISHMEMI_FN int wait_all(Poll &poll) const {
    for (size_t i = 0; i < n; ++i) {
      if (!included(i)) continue;
      const Scan &q = *this;
      if (!poll.until([&q, i] { return q.satisfied(i); })) return ISHMEM_ERR_TIMEOUT;
    }
    return ISHMEM_SUCCESS;
  }
  ISHMEMI_FN size_t wait_any(Poll &poll, size_t start) const {
    size_t found = SIZE_MAX;
    if (!any_included()) return SIZE_MAX;
    const Scan &q = *this;
    if (!poll.until([&q, &found, start] { return (found = q.test_any(start)) != SIZE_MAX; }))
      return SIZE_MAX;
    return found;
  }
  ISHMEMI_FN size_t wait_some(Poll &poll, size_t *indices) const {
    size_t count = 0;
    if (!any_included()) return 0;
    const Scan &q = *this;
    if (!poll.until([&] { return (count = q.test_some(indices)) > 0; })) return 0;
    return count;
  }
};

template <class Poll, class T>
ISHMEMI_FN Scan<Poll, T, OneTarget<T> > scan_of(const T *ivars, size_t n, const int *status,
                                                int cmp, T value) {
  Scan<Poll, T, OneTarget<T> > s = {ivars, n, status, cmp, OneTarget<T>{value}};
  return s;
}
template <class Poll, class T>
ISHMEMI_FN Scan<Poll, T, EachTarget<T> > scan_of(const T *ivars, size_t n, const int *status,
                                                 int cmp, const T *values) {
  Scan<Poll, T, EachTarget<T> > s = {ivars, n, status, cmp, EachTarget<T>{values}};
  return s;
}

} /* namespace ishmemi */

#endif /* ISHMEM_DETAIL_SCAN_H */
