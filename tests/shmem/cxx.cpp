// The C++ overloads of shmem.h's generic names: each one on two or three types, checked
// against what the typed call gives.
#include <shmem.h>

#include <cstdio>

static int failures = 0;
#define CHECK(cond)                                                                               \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      std::fprintf(stderr, "pe %d: %s:%d: check failed: %s\n", shmem_my_pe(), __FILE__, __LINE__, \
                   #cond);                                                                        \
      ++failures;                                                                                 \
    }                                                                                             \
  } while (0)

int main() {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n;
  long *lv = static_cast<long *>(shmem_calloc(8, sizeof(long)));
  int *iv = static_cast<int *>(shmem_calloc(8, sizeof(int)));
  double *dv = static_cast<double *>(shmem_calloc(4, sizeof(double)));
  unsigned long *uv = static_cast<unsigned long *>(shmem_calloc(2, sizeof(unsigned long)));
  long lsrc[4] = {1, 2, 3, 4};
  shmem_barrier_all();

  shmem_put(lv, lsrc, 4, right);
  shmem_p(&iv[0], me + 7, right);
  shmem_p(&dv[0], me + 0.25, right);
  shmem_iput(&lv[4], lsrc, 2, 1, 2, right);
  shmem_barrier_all();
  CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0);  // the team form beside the active set's
  CHECK(lv[3] == 4 && lv[4] == 1 && lv[6] == 2);
  CHECK(iv[0] == left + 7 && dv[0] == left + 0.25);
  CHECK(shmem_g(&iv[0], right) == me + 7 && shmem_g(&dv[0], right) == me + 0.25);
  long got[4] = {0, 0, 0, 0};
  shmem_get(got, lv, 4, right);
  CHECK(got[0] == 1 && got[3] == 4);

  shmem_atomic_add(&lv[7], 2L, 0);
  shmem_atomic_inc(&iv[7], 0);
  shmem_atomic_fetch_or(&uv[0], 1ul << me, 0);
  shmem_barrier_all();
  if (me == 0) {
    CHECK(lv[7] == 2L * n && iv[7] == n && uv[0] == (1ul << n) - 1);
    CHECK(shmem_atomic_swap(&dv[1], 3.5, 0) == 0.0 && shmem_atomic_fetch(&dv[1], 0) == 3.5);
    CHECK(shmem_atomic_compare_swap(&iv[7], n, 9, 0) == n && iv[7] == 9);
    CHECK(shmem_atomic_fetch_add(&lv[7], 1L, 0) == 2L * n);
  }
  shmem_barrier_all();
  shmem_p(&iv[1], 1, right);
  shmem_wait_until(&iv[1], SHMEM_CMP_EQ, 1);
  CHECK(shmem_test(&iv[1], SHMEM_CMP_EQ, 1) == 1);
  lv[1] = me;
  shmem_barrier_all();
  CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, &lv[0], &lv[1], 1) == 0);
  CHECK(lv[0] == static_cast<long>(n) * (n - 1) / 2);
  CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, &iv[2], &iv[0], 1, 0) == 0);
  CHECK(iv[2] == shmem_g(&iv[0], 0));
  shmem_barrier_all();
  shmem_free(lv);
  shmem_free(iv);
  shmem_free(dv);
  shmem_free(uv);
  int *count = static_cast<int *>(shmem_calloc(2, sizeof(int)));
  count[0] = failures;
  shmem_barrier_all();
  shmem_sum_reduce(SHMEM_TEAM_WORLD, &count[1], &count[0], 1);
  int total = count[1];
  if (me == 0) std::printf("shmem_cxx: %s on %d PEs\n", total ? "FAILED" : "ok", n);
  shmem_free(count);
  shmem_finalize();
  return total ? 1 : 0;
}
