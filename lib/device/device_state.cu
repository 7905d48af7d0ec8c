// The device library (CMake target ishmem::device): the PE layout that the no-argument
// device calls of ishmem/device.h read, in constant memory, and the host code that keeps it
// current. Compiled as relocatable device code; linked into the application's program, so
// the copy below runs in the module that holds the symbol.
#include "backend/gpu/gpu_platform.h"
#include "device/device_hooks.h"

__constant__ ishmemx_device_handle_t ishmemi_device_state;

namespace {

int update_state(const ishmemx_device_handle_t *state) {
  gpuError_t rc = gpuMemcpyToSymbol(ishmemi_device_state, state, sizeof *state);
  return rc == gpuSuccess ? 0 : static_cast<int>(rc);
}

// Registers the updater when the program starts; ishmem_init then fills the state.
struct Registrar {
  Registrar() { ishmemi_device_register(update_state); }
} registrar;

}  // namespace
