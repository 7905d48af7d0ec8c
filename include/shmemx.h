/* shmemx.h: ishmem's extensions under the shmemx_ prefix, for programs written against
 * shmem.h (docs/OPENSHMEM.md). Each name is the ishmemx_ call of the same suffix. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#define shmemx_last_error ishmemx_last_error
#define shmemx_last_status ishmemx_last_status
#define shmemx_error_count ishmemx_error_count
#define shmemx_backend_name ishmemx_backend_name
#define shmemx_heap_trim ishmemx_heap_trim
#define shmemx_init_attr ishmemx_init_attr
#define shmemx_init_attr_t ishmemx_init_attr_t
#define shmemx_putmem_on_stream ishmemx_putmem_on_stream
#define shmemx_getmem_on_stream ishmemx_getmem_on_stream
#define shmemx_quiet_on_stream ishmemx_quiet_on_stream
#define shmemx_barrier_all_on_stream ishmemx_barrier_all_on_stream
#define shmemx_putmem_signal_on_stream ishmemx_putmem_signal_on_stream
#define shmemx_signal_wait_until_on_stream ishmemx_signal_wait_until_on_stream
#define shmemx_team_sync_on_stream ishmemx_team_sync_on_stream
/* Seconds since an arbitrary moment of this process (MPI_Wtime), as other implementations'
 * shmemx.h offer it. */
static inline double shmemx_wtime(void) {
  return MPI_Wtime();
}
#define SHMEMX_VERSION_MAJOR ISHMEMX_VERSION_MAJOR
#define SHMEMX_VERSION_MINOR ISHMEMX_VERSION_MINOR
#define SHMEMX_VERSION_PATCH ISHMEMX_VERSION_PATCH
#define SHMEMX_VERSION_STRING ISHMEMX_VERSION_STRING

#endif /* SHMEMX_H */
