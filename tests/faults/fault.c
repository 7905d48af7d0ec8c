/* One PE misbehaves, the others make correct calls; run by tests/faults/run_fault.sh, which
 * checks that the job ends non-zero within the deadline, with a report, and leaves nothing
 * behind. The scenario is the first argument; PE 1 is the one that misbehaves:
 *   skip-malloc-exit   PE 1 skips an ishmem_malloc and finalizes (which fails), then exits
 *   skip-malloc-stay   PE 1 skips an ishmem_malloc, then sleeps inside no ishmem call
 *   die-in-init        PE 1 dies where the others call ishmem_init
 *   die-in-barrier     PE 1 dies where the others call ishmem_barrier_all
 *   die-in-malloc      PE 1 dies where the others call ishmem_malloc
 *   die-in-reduce      PE 1 dies where the others call ishmem_long_sum_reduce
 *   die-in-growth      PE 1 dies at a random point of a loop of heap growths (fd exchanges)
 *   die-in-rma         PE 1 dies while the others get from it and add to it (through MPI when
 *                      it is on another node: such calls block until the job ends), then barrier
 *   node-lost          every PE gets from and adds to the PE half the job away (on another node
 *                      in a cluster of 2 nodes), after a line "fault: PE k looping"; run_fault.sh
 *                      kills every process of the last node meanwhile
 * The program initializes MPI itself, so that a PE can die after MPI is up. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ishmem.h"

static void die(void) {
  raise(SIGKILL);
}

static void *die_later(void *arg) {
  struct timespec delay = {0, (long)(size_t)arg};
  nanosleep(&delay, NULL);
  die();
  return NULL;
}

/* Large allocations with ISHMEM_TRIM_THRESHOLD=0 and ISHMEM_TRIM_INTERVAL=0: every one grows
 * the heap (an fd exchange) and every free returns the memory. */
static void growth_loop(void) {
  for (int i = 0; i < 100000; ++i) {
    void *p = ishmem_malloc((size_t)(1 + i % 4) << 22);
    if (!p) {
      fprintf(stderr, "fault: ishmem_malloc failed: %s\n", ishmemx_last_error());
      return;
    }
    ishmem_free(p);
  }
}

int main(int argc, char **argv) {
  const char *scenario = argc > 1 ? argv[1] : "";
  int rank = 0, provided = 0;
  /* The level the served off-node path needs between real nodes. */
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int odd = rank == 1;
  ishmemx_init_attr_t attr = {MPI_COMM_WORLD};

  if (odd && strcmp(scenario, "die-in-init") == 0) die();
  if (ishmemx_init_attr(&attr) != ISHMEM_SUCCESS) {
    fprintf(stderr, "fault: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  /* Whether PE 1 has node-local peers, which can watch it (split mode may leave it alone):
   * run_fault.sh picks the report it expects by this line. */
  if (odd) {
    printf("fault: PE 1 shares its node with %d PEs\n", ishmem_team_n_pes(ISHMEM_TEAM_SHARED) - 1);
    fflush(stdout);
  }
  if (strcmp(scenario, "skip-malloc-exit") == 0 || strcmp(scenario, "skip-malloc-stay") == 0) {
    if (!odd && ishmem_malloc(64) == NULL)
      fprintf(stderr, "fault: ishmem_malloc failed: %s\n", ishmemx_last_error());
    if (odd && strcmp(scenario, "skip-malloc-stay") == 0) sleep(600);
  } else if (strcmp(scenario, "die-in-barrier") == 0) {
    if (odd) die();
    ishmem_barrier_all();
  } else if (strcmp(scenario, "die-in-reduce") == 0) {
    long *sums = ishmem_calloc(2, sizeof(long));
    ishmem_barrier_all();
    if (odd) die();
    ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, sums + 1, sums, 1);
  } else if (strcmp(scenario, "die-in-malloc") == 0) {
    if (odd) die();
    ishmem_malloc(64);
  } else if (strcmp(scenario, "die-in-rma") == 0) {
    long *target = ishmem_calloc(1024, sizeof(long));
    long got[1024];
    ishmem_barrier_all();
    if (odd) die();
    /* Node-local calls on a dead PE's memory complete: after 2 s the barrier reports it. */
    for (time_t end = time(NULL) + 2; time(NULL) < end;) {
      ishmem_getmem(got, target, sizeof got, 1);
      ishmem_long_atomic_fetch_add(target, 1, 1);
    }
    ishmem_barrier_all();
  } else if (strcmp(scenario, "node-lost") == 0) {
    long *target = ishmem_calloc(1024, sizeof(long));
    long got[1024];
    const int peer = (rank + ishmem_n_pes() / 2) % ishmem_n_pes();
    ishmem_barrier_all();
    printf("fault: PE %d looping\n", rank);
    fflush(stdout);
    /* Bounded, so that a missed loss ends in the barrier's deadline rather than never. */
    for (time_t end = time(NULL) + 30; time(NULL) < end;) {
      ishmem_getmem(got, target, sizeof got, peer);
      ishmem_long_atomic_fetch_add(target, 1, peer);
    }
    ishmem_barrier_all();
  } else if (strcmp(scenario, "die-in-growth") == 0) {
    pthread_t killer;
    srand((unsigned)time(NULL));
    if (odd)
      pthread_create(&killer, NULL, die_later, (void *)(size_t)(50000000 + rand() % 200000000));
    growth_loop();
  } else {
    fprintf(stderr, "fault: unknown scenario \"%s\"\n", scenario);
    return 2;
  }
  if (ishmem_finalize() != ISHMEM_SUCCESS) {
    fprintf(stderr, "fault: ishmem_finalize failed: %s\n", ishmemx_last_error());
    return 1;
  }
  MPI_Finalize();
  fprintf(stderr, "fault: PE %d finished\n", rank);
  return 0;
}
