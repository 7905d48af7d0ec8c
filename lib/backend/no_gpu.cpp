// Built when -DISHMEM_GPU=none: there is no GPU backend to offer.
#include "backend/backend.h"

namespace ishmem::detail {

std::unique_ptr<Backend> make_gpu_backend(const GpuOptions &, std::string &why) {
  why = "this build has no GPU backend (-DISHMEM_GPU=none)";
  return nullptr;
}

}  // namespace ishmem::detail
