// Host side of the device API: the handle kernels take as an argument.
#include "api/guard.h"
#include "ishmem/device_handle.h"
#include "runtime/gpu_runtime.h"

using namespace ishmem::detail;

extern "C" int ishmemx_get_device_handle(ishmemx_device_handle_t *handle) {
  return guard([handle] {
    runtime();
    if (!handle) fail(ISHMEM_ERR_INVALID_ARG, "ishmemx_get_device_handle: handle is NULL");
    *handle = device_handle(g_fast);
  });
}
