/* ishmem device API, synchronization: now part of ishmem/device.h, which this header
 * includes; kept so that code including it by name still compiles. */
#ifndef ISHMEM_DEVICE_SYNC_H
#define ISHMEM_DEVICE_SYNC_H

#include "ishmem/device.h"

#endif /* ISHMEM_DEVICE_SYNC_H */
