/* The device handle: the PE layout that device calls read, passed to kernels by value (the
 * handle form of ishmem/device.h) or held by the device library (the no-argument form). The
 * host library's RMA fast path reads the same struct (lib/runtime/runtime.h). Plain C; needs
 * no GPU headers. Included by ishmem/device.h. */
#ifndef ISHMEM_DEVICE_HANDLE_H
#define ISHMEM_DEVICE_HANDLE_H

#include <stddef.h>

/* A team as kernels see it (ishmem/team.h): its size, this PE's number in it, its members'
 * world PEs (device memory) and this PE's copy of its collective area (symmetric heap; NULL
 * where the device collectives cannot use it). n_pes is 0 where this PE has no team in that
 * slot. */
typedef struct ishmemx_team_map {
  int n_pes;
  int my_pe;
  const int *pes;
  char *area;
} ishmemx_team_map_t;

/* One request of the device proxy's ring (docs/MULTI_NODE.md "Device calls to off-node
 * PEs"), in host memory the device maps. Ticket t uses slot t % ring size; `free` holds the
 * ticket that may fill the slot next, `ready` is t + 1 once the device wrote the request (its
 * last store, with release order), `done` t + 1 once the host served a request the device
 * waits for. */
typedef struct ishmemx_proxy_slot {
  unsigned long long free;
  unsigned long long ready;
  unsigned long long done;
  unsigned int op; /* ISHMEMX_PROXY_* | ISHMEMX_PROXY_WAIT | word bytes << 8 (atomics) */
  int pe;
  unsigned long long dest;   /* the symmetric address, as this PE sees it */
  unsigned long long source; /* put: source, get: destination; or up to 8 bytes inline */
  unsigned long long bytes;
  unsigned long long value; /* atomic operand or signal; the fetched value once done */
  unsigned long long cond;  /* compare-and-swap's condition; put-with-signal's signal address */
} ishmemx_proxy_slot_t;

/* The requests' operations (the low byte of `op`). */
enum {
  ISHMEMX_PROXY_PUT = 1,    /* from `source` (global memory) */
  ISHMEMX_PROXY_PUT_INLINE, /* `bytes` (at most 8) of `source` itself */
  ISHMEMX_PROXY_GET,        /* into `source` (global memory) */
  ISHMEMX_PROXY_GET_INLINE, /* at most 8 bytes, into `value` */
  ISHMEMX_PROXY_AMO_FETCH,  /* the atomics, on a word of 4 or 8 bytes */
  ISHMEMX_PROXY_AMO_SET,
  ISHMEMX_PROXY_AMO_SWAP,
  ISHMEMX_PROXY_AMO_CSWAP,
  ISHMEMX_PROXY_AMO_ADD,
  ISHMEMX_PROXY_AMO_AND,
  ISHMEMX_PROXY_AMO_OR,
  ISHMEMX_PROXY_AMO_XOR,
  ISHMEMX_PROXY_PUT_SIGNAL_SET, /* data, flush, then the signal */
  ISHMEMX_PROXY_PUT_SIGNAL_ADD,
  ISHMEMX_PROXY_QUIET,   /* every earlier request complete at its target */
  ISHMEMX_PROXY_FENCE,   /* earlier requests complete before later ones start */
  ISHMEMX_PROXY_BARRIER, /* quiet, then a barrier over every PE */
  /* A collective on team `pe`, which spans nodes: kind | operation << 8 | element type << 16
   * in `value` (the status once done), the element count in `bytes`, the root (or alltoalls'
   * strides, dest's << 32 | source's) in `cond`; run over MPI on host copies */
  ISHMEMX_PROXY_COLLECTIVE,
  ISHMEMX_PROXY_WAIT = 0x80 /* the device waits for `done` */
};

/* The heap's extent and, with ISHMEM_DEBUG=1, its live allocations, in device memory that
 * the runtime rewrites after every allocation call (growth, trim, free): the handle points
 * here, so a handle taken once stays current. */
typedef struct ishmemx_heap_map {
  size_t committed; /* [0, committed) of every slot is backed; the rest is only reserved */
  /* ISHMEM_DEBUG=1: the live allocations (NULL otherwise). live[0] is their count n; the i-th,
   * by offset, starts at live[1 + 2i] and spans live[2 + 2i] bytes (as requested). Replaced
   * as one pointer, so that a kernel never pairs one table's count with another's entries. */
  const size_t *live;
  /* The team table, indexed by ishmem_team_t (max_teams entries, device memory), whose
   * entries the runtime rewrites at every split and destroy. */
  const ishmemx_team_map_t *teams;
  /* The collectives' scratch bytes in each team's area (ISHMEM_COLLECTIVE_SCRATCH) and the
   * largest contribution they stage (ISHMEM_DEVICE_ONESHOT_MAX). */
  size_t collective_scratch;
  size_t device_oneshot_max;
  /* Device calls to off-node PEs: the proxy's ring of proxy_mask + 1 slots (host memory the
   * device maps; NULL where no PE is off-node), the tickets taken (device memory), and the
   * proxy's status (host memory: nonzero once the proxy stopped, with that error). */
  ishmemx_proxy_slot_t *proxy_slots;
  unsigned long long *proxy_tickets;
  const int *proxy_status;
  unsigned long long proxy_mask;
} ishmemx_heap_map_t;

/* A symmetric address `a` on PE `pe` is at a + (slot(pe) - my_slot) * stride, with
 * slot(pe) = pe - first_local_pe when contiguous (always so with a GPU backend, whose PEs
 * share one node: there it is a + (pe - my_pe) * stride). */
typedef struct ishmemx_device_handle {
  char *window;       /* slot 0 of the node's heap window */
  size_t stride;      /* bytes per slot; a multiple of 4 GiB with a GPU backend */
  char *local_base;   /* this PE's heap: window + my_slot * stride */
  const int *pe_slot; /* device table PE -> slot (-1: not mapped); NULL with the host backend */
  int my_pe;
  int n_pes;
  int my_slot;
  int n_local;
  int first_local_pe;
  int contiguous; /* node-local PEs are numbered first_local_pe + slot */
  /* ISHMEM_DEBUG=1: device calls check the PE and the live allocation (heap_map) first. */
  int debug;
  int max_teams; /* entries of `teams` (ISHMEM_MAX_TEAMS) */
  /* Barrier rows of the device and stream barriers, in GPU memory every node-local PE maps:
   * PE slot i's row starts at barrier + i * barrier_step and holds one 64-bit count per slot
   * (ishmem/detail/sync_impl.h). NULL with the host backend. */
  unsigned long long *barrier;
  size_t barrier_step;
  /* Device memory; NULL with the host backend. */
  const ishmemx_heap_map_t *heap_map;
  /* Device barriers give up with ISHMEM_ERR_TIMEOUT after waiting this many ticks of the
   * device timer (ISHMEM_COLLECTIVE_TIMEOUT); 0: never. */
  unsigned long long barrier_timeout;
} ishmemx_device_handle_t;

#ifdef __cplusplus
extern "C" {
#endif
/* Fills *handle for passing to kernels (valid until ishmem_finalize). Host call. */
int ishmemx_get_device_handle(ishmemx_device_handle_t *handle);
#ifdef __cplusplus
}
#endif

#endif /* ISHMEM_DEVICE_HANDLE_H */
