/* Calls before ishmem_init and after ishmem_finalize fail cleanly with
 * ISHMEM_ERR_NOT_INITIALIZED (or NULL, or -1 for the queries) instead of crashing. Written
 * in C: it also checks that ishmem.h is plain C. Runs without GoogleTest: every PE checks
 * the same things on its own and exits non-zero on a failure. */
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "ishmem.h"

static int mentions(const char *text) {
  return strstr(ishmemx_last_error(), text) != NULL;
}

/* Every call that needs the library, made while it is not initialized. */
static void check_uninitialized(void) {
  static long local[4];
  long value = 0;
  CHECK(ishmem_my_pe() == -1);
  CHECK(ishmem_n_pes() == -1);
  CHECK(ishmem_pe_accessible(0) == 0);
  CHECK(ishmem_addr_accessible(local, 0) == 0);
  CHECK(ishmem_ptr(local, 0) == NULL);
  CHECK(ishmem_malloc(64) == NULL);
  CHECK(mentions("not initialized"));
  CHECK(ishmem_calloc(4, 16) == NULL);
  CHECK(ishmem_align(64, 64) == NULL);
  CHECK(ishmem_realloc(NULL, 64) == NULL);
  CHECK(ishmem_free(local) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmemx_heap_trim() == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_putmem(local, &value, sizeof value, 0) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_getmem(&value, local, sizeof value, 0) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_putmem_nbi(local, &value, sizeof value, 0) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_long_put(local, &value, 1, 0) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_long_p(local, 3, 0) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_long_iput(local, &value, 1, 1, 1, 0) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_put64(local, &value, 1, 0) == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_barrier_all() == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_sync_all() == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(ishmem_finalize() == ISHMEM_ERR_NOT_INITIALIZED);
  CHECK(strcmp(ishmemx_backend_name(), "none") == 0);
  /* The version queries need no initialization. */
  {
    int major = 0, minor = 0;
    char name[ISHMEM_MAX_NAME_LEN];
    ishmem_info_get_version(&major, &minor);
    ishmem_info_get_name(name);
    CHECK(major == ISHMEM_MAJOR_VERSION && minor == ISHMEM_MINOR_VERSION);
    CHECK(strcmp(name, ISHMEM_VENDOR_STRING) == 0);
  }
}

int main(void) {
  int finalized = 0, rank = -1;
  check_uninitialized();

  CHECK(ishmem_init() == ISHMEM_SUCCESS);
  CHECK(ishmem_my_pe() >= 0 && ishmem_my_pe() < ishmem_n_pes());
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK(ishmem_my_pe() == rank);
  {
    long *sym = (long *)ishmem_malloc(sizeof(long));
    CHECK(sym != NULL);
    CHECK(ishmem_long_p(sym, 42, ishmem_my_pe()) == ISHMEM_SUCCESS);
    CHECK(ishmem_long_g(sym, ishmem_my_pe()) == 42);
    CHECK(ishmem_free(sym) == ISHMEM_SUCCESS);
  }
  CHECK(ishmem_finalize() == ISHMEM_SUCCESS);
  /* ishmem_init initialized MPI, so ishmem_finalize finalized it. */
  MPI_Finalized(&finalized);
  CHECK(finalized);

  check_uninitialized();
  if (failures) fprintf(stderr, "PE %d: %d checks failed\n", rank, failures);
  return failures ? 1 : 0;
}
