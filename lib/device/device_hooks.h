// How the device library (ishmem::device, relocatable device code) learns the state its
// no-argument device calls read: it registers an updater, which the host library calls with
// the device handle at ishmem_init (or at once, if already initialized) and with a zeroed
// handle at ishmem_finalize. Internal to ishmem; exported from the host library.
#pragma once

#include "ishmem/device_handle.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies *state into the registering module's device symbol; returns 0 or a GPU status. */
typedef int (*ishmemi_device_update_fn)(const ishmemx_device_handle_t *state);
void ishmemi_device_register(ishmemi_device_update_fn update);

#ifdef __cplusplus
}
#endif
