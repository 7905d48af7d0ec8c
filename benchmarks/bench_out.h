/* Machine-readable results of every benchmark (host benchmarks through bench.h, GPU benchmarks
 * through gpu/gpu_harness.h): one schema, written by one implementation, in C so that both the
 * C host programs and the CUDA/HIP programs include it.
 *
 * Options: --csv FILE and --json FILE (FILE "-" is standard output; then the human-readable
 * table is not printed, so that stdout holds only the rows). Either or both may be given.
 * Columns, in this order (CSV header, JSON keys):
 *   impl            ishmem, oshmem, mpi, mpi_raw, memcpy, copy_engine, ...
 *   op              what was timed (put, get, fetch_add, reduce_long, put_block, ...)
 *   bytes           message size (0 where there is none)
 *   latency_us      time per call, microseconds (empty / null where not measured)
 *   bandwidth_MBps  10^6 bytes per second (empty / null where not measured)
 *   benchmark       the program (put, collectives, gpu-put, ...)
 *   pes             PEs in the run
 *   count           a count that is the figure itself (open fds, cpus); empty / null otherwise
 *   backend         ishmem's backend (host, cuda, hip) or empty for the peers
 *   detail          free text (grid shape, scope); no commas or quotes
 * The first five columns are those of the benchmark runners (benchmarks/runner.sh). Progress
 * ("size 1 MiB (12/24)") goes to stderr, and only when stderr is a terminal. */
#ifndef ISHMEM_BENCH_OUT_H
#define ISHMEM_BENCH_OUT_H

#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define BENCH_OUT_COLUMNS \
  "impl,op,bytes,latency_us,bandwidth_MBps,benchmark,pes,count,backend,detail"

typedef struct {
  const char *impl;
  const char *op;
  size_t bytes;
  double latency_us;     /* < 0: not measured */
  double bandwidth_MBps; /* < 0: not measured */
  int pes;
  long count;         /* < 0: none */
  const char *detail; /* NULL: none */
} bench_row;

typedef struct {
  FILE *csv, *json;
  int json_rows;
  int json_stream;  /* JSON on stdout (a pipe, maybe): closed at the end, not kept closed */
  int stdout_taken; /* rows go to stdout: no human-readable table there */
  const char *benchmark;
  const char *backend;
  int progress; /* stderr is a terminal */
} bench_out;

/* Whether progress may be shown: stderr is a terminal, or it is a pipe from the MPI launcher
 * (mpirun hands its ranks pipes and copies them to its own stderr) whose stderr is one. */
static int bench_out_on_terminal(void) {
  static int known = -1; /* asked once per size: looked up once */
  if (known >= 0) return known;
  known = 0;
  if (isatty(2)) return known = 1;
  char link[64], target[64];
  snprintf(link, sizeof link, "/proc/%d/fd/2", (int)getppid());
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n <= 0) return 0;
  target[n] = '\0';
  return known = !strncmp(target, "/dev/pts/", 9) || !strncmp(target, "/dev/tty", 8);
}

/* Opens FILE for writing ("-": stdout). Returns NULL, with the reason on stderr, on failure. */
static FILE *bench_out_file(bench_out *o, const char *path, const char *kind) {
  if (path[0] == '-' && path[1]) { /* "--csv --quick": an option, not a file */
    fprintf(stderr, "%s: the %s file is missing (got %s)\n", o->benchmark, kind, path);
    return NULL;
  }
  if (!strcmp(path, "-")) {
    if (o->stdout_taken) {
      fprintf(stderr, "%s: --csv - and --json - cannot share stdout\n", o->benchmark);
      return NULL;
    }
    o->stdout_taken = 1;
    return stdout;
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "%s: cannot write %s file ", o->benchmark, kind);
    perror(path);
  }
  return f;
}

/* Sets up the writers of `benchmark` (either path may be NULL); returns 0, or -1 when a file
 * cannot be written. Call on the PE that reports (PE 0) only. */
static int bench_out_open(bench_out *o, const char *benchmark, const char *backend,
                          const char *csv_path, const char *json_path) {
  memset(o, 0, sizeof *o);
  o->benchmark = benchmark;
  o->backend = backend ? backend : "";
  o->progress = bench_out_on_terminal();
  if (csv_path && !(o->csv = bench_out_file(o, csv_path, "CSV"))) return -1;
  if (json_path && !(o->json = bench_out_file(o, json_path, "JSON"))) return -1;
  o->json_stream = json_path && !strcmp(json_path, "-");
  if (o->csv) {
    fprintf(o->csv, "%s\n", BENCH_OUT_COLUMNS);
    fflush(o->csv);
  }
  return 0;
}

/* Prints a number, or the empty field / null where it is negative (not measured). */
static void bench_out_number(FILE *f, double v, const char *fmt, const char *none) {
  if (v >= 0)
    fprintf(f, fmt, v);
  else
    fputs(none, f);
}

/* Writes one row to every open writer and flushes it: a peer that crashes in its finalize
 * (Open MPI 4.1's OSHMEM) must have its figures out before. A JSON file is a valid array
 * after every row: its closing bracket is written, then overwritten by the next row. */
static void bench_out_row(bench_out *o, const bench_row *r) {
  const char *detail = r->detail ? r->detail : "";
  if (o->csv) {
    fprintf(o->csv, "%s,%s,%zu,", r->impl, r->op, r->bytes);
    bench_out_number(o->csv, r->latency_us, "%.4f", "");
    fputc(',', o->csv);
    bench_out_number(o->csv, r->bandwidth_MBps, "%.1f", "");
    fprintf(o->csv, ",%s,%d,", o->benchmark, r->pes);
    bench_out_number(o->csv, (double)r->count, "%.0f", "");
    fprintf(o->csv, ",%s,%s\n", o->backend, detail);
    fflush(o->csv);
  }
  if (o->json) {
    FILE *f = o->json;
    fputs(o->json_rows++ ? ",\n" : "[\n", f);
    fprintf(f, "  {\"impl\": \"%s\", \"op\": \"%s\", \"bytes\": %zu, \"latency_us\": ", r->impl,
            r->op, r->bytes);
    bench_out_number(f, r->latency_us, "%.4f", "null");
    fputs(", \"bandwidth_MBps\": ", f);
    bench_out_number(f, r->bandwidth_MBps, "%.1f", "null");
    fprintf(f, ", \"benchmark\": \"%s\", \"pes\": %d, \"count\": ", o->benchmark, r->pes);
    bench_out_number(f, (double)r->count, "%.0f", "null");
    fprintf(f, ", \"backend\": \"%s\", \"detail\": \"%s\"}", o->backend, detail);
    if (!o->json_stream) {
      fputs("\n]\n", f);
      fflush(f);
      fseek(f, -3L, SEEK_CUR);
    }
    fflush(f);
  }
}

/* Closes the writers; a JSON file without rows is an empty array. */
static void bench_out_close(bench_out *o) {
  if (o->json) {
    if (!o->json_rows)
      fputs("[]\n", o->json);
    else if (o->json_stream)
      fputs("\n]\n", o->json);
    else
      fseek(o->json, 0L, SEEK_END);
    if (o->json != stdout) fclose(o->json);
  }
  if (o->csv && o->csv != stdout) fclose(o->csv);
  if (o->progress) fputs("\r\033[K", stderr); /* clears the progress line */
  o->csv = o->json = NULL;
}

/* "size 1 MiB (12/24)" on stderr, in place, when it is a terminal; never in the rows. */
static void bench_out_progress(const bench_out *o, const char *what, size_t bytes, int done,
                               int total) {
  if (!o->progress) return;
  const char *unit[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) bytes /= 1024, ++u;
  fprintf(stderr, "\r\033[K%s %s size %zu %s (%d/%d)", o->benchmark, what ? what : "", bytes,
          unit[u], done, total);
  fflush(stderr);
}

#endif /* ISHMEM_BENCH_OUT_H */
