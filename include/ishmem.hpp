// ishmem's C++17 API, header-only over the C API of ishmem.h (host calls only; device code
// uses the C names). docs/CXX_API.md describes it. Every failed call throws ishmem::error.
//   ishmem::runtime            the library's lifetime (init/finalize)
//   ishmem::symmetric_array<T> a collective allocation, with put/get/p/g/atomics/wait_until
//   ishmem::symmetric_span<T>  a view of symmetric memory, with the same operations
//   ishmem::team, context      teams and communication contexts, destroyed with the object
//   ishmem::broadcast, fcollect, collect, alltoall, sum_reduce, ... on spans and arrays
#ifndef ISHMEM_HPP
#define ISHMEM_HPP

#include "ishmem.h"
#include "ishmem/cxx/c_calls.hpp"
#include "ishmem/cxx/runtime.hpp"
#include "ishmem/cxx/symmetric.hpp"
#include "ishmem/cxx/team.hpp"

#endif  // ISHMEM_HPP
