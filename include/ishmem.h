/* ishmem: a symmetric heap for MPI programs, in the OpenSHMEM 1.5 family.
 *
 * Names and semantics follow OpenSHMEM 1.5 with the ishmem_ prefix. Calls that are void in
 * OpenSHMEM return a status here (ISHMEM_SUCCESS or a negative ISHMEM_ERR_*); allocation
 * returns NULL on error. ishmemx_last_error() gives the reason as text. This header is plain
 * C and compiles as C and C++. */
#ifndef ISHMEM_H
#define ISHMEM_H

#include <stddef.h>
#include <stdint.h>
/* Only MPI's C API is used; keep MPI's deprecated C++ bindings out of C++ users' builds. */
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include "ishmem/detail/signatures.h" /* the signature lists that declare the calls */

#ifdef __cplusplus
extern "C" {
#endif

/* One declaration per signature list entry. */
#define ISHMEMI_DECLARE(RET, STEM, PARAMS, ARGS, OP, TARG) RET ishmem_##STEM PARAMS;

#define ISHMEM_MAJOR_VERSION 1 /* OpenSHMEM specification version implemented */
#define ISHMEM_MINOR_VERSION 5
#define ISHMEM_MAX_NAME_LEN 64
#define ISHMEM_VENDOR_STRING "ishmem"
#include "ishmem/version.h" /* ISHMEMX_VERSION_*, generated from the CMake project version */

/* Status codes. */
enum {
  ISHMEM_SUCCESS = 0,
  ISHMEM_ERR_INVALID_ARG = -1,     /* a bad argument (NULL pointer, bad alignment, ...) */
  ISHMEM_ERR_INVALID_PE = -2,      /* PE number outside [0, n_pes) */
  ISHMEM_ERR_NOT_SYMMETRIC = -3,   /* address outside the symmetric heap */
  ISHMEM_ERR_NOMEM = -4,           /* symmetric heap exhausted (see ISHMEM_SYMMETRIC_SIZE) */
  ISHMEM_ERR_MISMATCH = -5,        /* PEs disagreed in a collective call */
  ISHMEM_ERR_NOT_INITIALIZED = -6, /* call before ishmem_init or after ishmem_finalize */
  ISHMEM_ERR_SYSTEM = -7,          /* an operating-system call failed */
  ISHMEM_ERR_MPI = -8,             /* an MPI call failed */
  ISHMEM_ERR_TIMEOUT = -9,         /* a peer did not answer before ISHMEM_BOOTSTRAP_TIMEOUT */
  ISHMEM_ERR_UNSUPPORTED = -10,    /* not supported by this build, backend or peer */
  ISHMEM_ERR_BACKEND = -11,        /* the memory backend (GPU runtime) failed */
  ISHMEM_ERR_CONFIG = -12,         /* a bad ISHMEM_* environment variable */
  ISHMEM_ERR_INTERNAL = -13        /* an internal invariant failed */
};

/* Initialization attributes for ishmemx_init_attr. */
typedef struct {
  MPI_Comm comm; /* PEs are the ranks of this communicator (duplicated, never freed by us) */
} ishmemx_init_attr_t;

/* ---- Library setup and query ---------------------------------------------------------- */

/* Collective over MPI_COMM_WORLD. Initializes MPI if the program has not; then
 * ishmem_finalize finalizes it too. */
int ishmem_init(void);
/* Collective over attr->comm, which must be usable (MPI already initialized). */
int ishmemx_init_attr(const ishmemx_init_attr_t *attr);
/* Collective. Frees the heap and every resource; MPI is left as the user had it. */
int ishmem_finalize(void);
/* This PE's number and the number of PEs (-1 before init). */
int ishmem_my_pe(void);
int ishmem_n_pes(void);
/* 1 if `pe` is reachable (every valid PE is: node-local by load/store, others by MPI). */
int ishmem_pe_accessible(int pe);
/* 1 if `addr` is a symmetric address reachable on `pe`. */
int ishmem_addr_accessible(const void *addr, int pe);
/* Local address of symmetric `dest` on `pe` for direct loads and stores, or NULL when `pe`
 * is off-node or the heap is not CPU-addressable (GPU backends). */
void *ishmem_ptr(const void *dest, int pe);
/* The OpenSHMEM version implemented, and the vendor name. */
void ishmem_info_get_version(int *major, int *minor);
void ishmem_info_get_name(char *name);
/* Ends the whole program (every PE) with `status`: MPI_Abort on the library's communicator. */
void ishmem_global_exit(int status);
/* Text of the last error on this thread ("" if none). */
const char *ishmemx_last_error(void);
/* Name of the active memory backend: "host", "cuda" or "hip". */
const char *ishmemx_backend_name(void);
/* Status code of the last error on this thread (ISHMEM_SUCCESS if none), and the number of
 * errors this thread has had: a call that returns a value rather than a status failed when
 * the count moved across it. */
int ishmemx_last_status(void);
unsigned long ishmemx_error_count(void);
/* shmem.h's error policy (ISHMEM_SHMEM_ERRORS, docs/OPENSHMEM.md): called by its wrappers
 * when `call` failed with `status`. With "abort" (the default) it prints the error and stops
 * the job; with "return" it returns `status`. */
int ishmemx_shmem_failed(int status, const char *call);

/* ---- Symmetric memory (all collective over every PE) ---------------------------------- */

/* Every PE must pass the same arguments in the same call order; a mismatch returns NULL on
 * every PE and names the PEs and values in ishmemx_last_error(). Size 0 returns NULL. */
void *ishmem_malloc(size_t size);
void *ishmem_calloc(size_t count, size_t size);
void *ishmem_align(size_t alignment, size_t size);
/* Keeps the contents up to min(old, new) size; ptr NULL acts as malloc, size 0 as free. */
void *ishmem_realloc(void *ptr, size_t size);
int ishmem_free(void *ptr);
/* Returns physical memory of the free tail of the heap to the system. */
int ishmemx_heap_trim(void);

/* ---- RMA ------------------------------------------------------------------------------- */

/* Blocking: on return the source buffer may be reused (put) or the data has arrived (get).
 * Completion at the target of a put is guaranteed by ishmem_quiet. Non-blocking (_nbi):
 * buffers may be touched only after ishmem_quiet.
 *   int ishmem_putmem(void *dest, const void *source, size_t nbytes, int pe);
 *   int ishmem_getmem(void *dest, const void *source, size_t nbytes, int pe);
 *   int ishmem_putmem_nbi(...), ishmem_getmem_nbi(...): the same parameters. */
ISHMEMI_RMA_BYTES_CALLS(ISHMEMI_DECLARE)

/* Typed RMA, one set per OpenSHMEM standard RMA type: ishmem_<name>_put, _get, _p, _g,
 * _iput, _iget (strides counted in elements), _put_nbi, _get_nbi. */
#define ISHMEMI_DECLARE_TYPED_RMA(T, N)          \
  ISHMEMI_RMA_TYPED_CALLS(ISHMEMI_DECLARE, T, N) \
  ISHMEMI_RMA_STRIDED_CALLS(ISHMEMI_DECLARE, T, N)
ISHMEMX_RMA_TYPES(ISHMEMI_DECLARE_TYPED_RMA)
#undef ISHMEMI_DECLARE_TYPED_RMA

/* Sized RMA: ishmem_put<bits>, _get<bits>, _iput<bits>, _iget<bits>, and _nbi forms. */
#define ISHMEMI_DECLARE_SIZED_RMA(BITS, BYTES) ISHMEMI_RMA_SIZED_CALLS(ISHMEMI_DECLARE, BITS, BYTES)
ISHMEMX_SIZED_RMA(ISHMEMI_DECLARE_SIZED_RMA)
#undef ISHMEMI_DECLARE_SIZED_RMA

/* ---- Ordering and synchronization ------------------------------------------------------ */

/* Completes every put and non-blocking call this PE issued, at every target. */
int ishmem_quiet(void);
/* Orders puts to each target: those before the fence arrive before those after it. */
int ishmem_fence(void);
/* Collective: quiet, then wait until every PE has arrived. */
int ishmem_barrier_all(void);
/* Collective: wait until every PE has arrived (no completion of outstanding puts). */
int ishmem_sync_all(void);

/* ---- GPU streams (ishmemx) -------------------------------------------------------------- */

/* Stream-ordered calls; `stream` is a cudaStream_t or hipStream_t passed as void* (NULL: the
 * default stream), so this header needs no GPU headers. With a GPU backend each call is
 * enqueued on the stream and returns at once (the copy engine moves the data); with the
 * host backend they act at once, like their blocking twins. */
int ishmemx_putmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, void *stream);
int ishmemx_getmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, void *stream);
/* Completes, in stream order, the RMA enqueued on `stream` before it and the stores of the
 * kernels before it. */
int ishmemx_quiet_on_stream(void *stream);
/* Collective: work after it on `stream` starts once every PE's stream has reached its
 * matching call, and what came before on every PE's stream is complete. */
int ishmemx_barrier_all_on_stream(void *stream);
/* Enqueues on `stream` a put of nbytes to dest on pe, then the update of pe's signal sig_addr
 * (ISHMEM_SIGNAL_SET or _ADD): a PE that sees the signal sees the data. Returns at once; with
 * the host backend it acts at once, like ishmem_putmem_signal. */
int ishmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nbytes,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                    void *stream);
/* Enqueues on `stream` a wait until this PE's signal compares true against cmp_value: later
 * work on the stream starts after it. Returns at once (the host backend waits at once). */
int ishmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                        void *stream);

#ifdef __cplusplus
}
#endif

#include "ishmem/sync.h"        /* atomics, put-with-signal, wait/test */
#include "ishmem/team.h"        /* teams */
#include "ishmem/collectives.h" /* broadcast, collect, alltoall, reductions on teams */
#include "ishmem/deprecated.h"  /* active-set collectives, TYPE_OP_to_all, pSync constants */
#include "ishmem/ctx.h"         /* contexts, locks, thread levels */

#undef ISHMEMI_DECLARE
#include "ishmem/detail/signatures_end.h"

#endif /* ISHMEM_H */
