//===- gb_bench.c - Inputs and SuiteSparse:GraphBLAS timings --------------===//
//
// The GraphBLAS side of bench_graphblas.py. Builds (or reads) a graph A,
// writes it and the benchmark's vectors for the sparse_array program, and
// times with GraphBLAS (GrB_mxv, one thread unless --threads):
//
//   bool:     y<¬m> = A ∨.∧ x      (GrB_LOR_LAND_SEMIRING_BOOL, GrB_DESC_RC)
//   tropical: y<¬m> = A min.+ d    (GrB_MIN_PLUS_SEMIRING_FP64, GrB_DESC_RC)
//   spmv-tropical: y = A min.+ d   (unmasked)
//   mxm:      C<¬V> = A ∨.∧ F, C<¬V> = A min.+ F   (F: n x 64 frontiers,
//             one per source, each vertex with probability 1/64; V: the
//             vertices each source has seen, probability 1/3: multi-source
//             BFS and Bellman-Ford steps; GrB_mxm with GrB_DESC_RC)
//
// x: a Boolean frontier (every vertex with probability 1/8), m: a Boolean
// "seen" mask (probability 1/3), d: distances in [0, 100) for a third of
// the vertices (the others +inf, absent). Output per kernel:
// `gb-NAME best-seconds entries checksum` (entries of y; the checksum is the
// number of true entries, or the sum of y's values in index order).
//
//   gb_bench --out DIR (--scale S [--edge-factor E] | --matrix FILE.mtx)
//            [--repeat N] [--threads T] [--seed S] [--kernels parallel]
//
//===----------------------------------------------------------------------===//

#include <GraphBLAS.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    GrB_Info info_ = (call);                                                   \
    if (info_ != GrB_SUCCESS) {                                                \
      fprintf(stderr, "%s:%d: GraphBLAS error %d\n", __FILE__, __LINE__,       \
              (int)info_);                                                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static uint64_t rng_state;
static uint64_t next_random(void) { // splitmix64
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static double uniform(void) { return (next_random() >> 11) * 0x1.0p-53; }

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

typedef struct {
  uint64_t n, nnz;
  GrB_Index *rows, *cols;
  double *vals;
} Edges;

// R-MAT (a, b, c) = (0.57, 0.19, 0.19): power-law degrees. Self loops and
// duplicates removed by GrB_Matrix_build (duplicates: first weight).
static Edges rmat(int scale, int factor) {
  Edges e;
  e.n = (uint64_t)1 << scale;
  e.nnz = e.n * (uint64_t)factor;
  e.rows = malloc(e.nnz * sizeof(GrB_Index));
  e.cols = malloc(e.nnz * sizeof(GrB_Index));
  e.vals = malloc(e.nnz * sizeof(double));
  uint64_t k = 0;
  while (k < e.nnz) {
    uint64_t i = 0, j = 0;
    for (int bit = 0; bit < scale; ++bit) {
      double r = uniform();
      int q = r < 0.57 ? 0 : r < 0.76 ? 1 : r < 0.95 ? 2 : 3;
      i = (i << 1) | (q >> 1);
      j = (j << 1) | (q & 1);
    }
    if (i == j)
      continue;
    e.rows[k] = i;
    e.cols[k] = j;
    e.vals[k] = 1.0 + uniform();
    ++k;
  }
  return e;
}

// Coordinate Matrix Market (real, integer or pattern; general or
// symmetric), weights replaced by 1 + |w| so that min.+ stays meaningful.
static Edges read_mtx(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    exit(1);
  }
  char line[1024];
  if (!fgets(line, sizeof line, f)) {
    fprintf(stderr, "%s: empty\n", path);
    exit(1);
  }
  int pattern = strstr(line, "pattern") != NULL;
  int symmetric = strstr(line, "symmetric") != NULL;
  do {
    if (!fgets(line, sizeof line, f)) {
      fprintf(stderr, "%s: no size line\n", path);
      exit(1);
    }
  } while (line[0] == '%');
  unsigned long long m, n, nnz;
  if (sscanf(line, "%llu %llu %llu", &m, &n, &nnz) != 3 || m != n) {
    fprintf(stderr, "%s: needs a square coordinate matrix\n", path);
    exit(1);
  }
  Edges e;
  e.n = n;
  e.rows = malloc(2 * nnz * sizeof(GrB_Index));
  e.cols = malloc(2 * nnz * sizeof(GrB_Index));
  e.vals = malloc(2 * nnz * sizeof(double));
  e.nnz = 0;
  for (unsigned long long k = 0; k < nnz; ++k) {
    unsigned long long i, j;
    double w = 1;
    if (!fgets(line, sizeof line, f) ||
        (pattern ? sscanf(line, "%llu %llu", &i, &j) != 2
                 : sscanf(line, "%llu %llu %lf", &i, &j, &w) != 3)) {
      fprintf(stderr, "%s: bad entry %llu\n", path, k + 1);
      exit(1);
    }
    e.rows[e.nnz] = i - 1, e.cols[e.nnz] = j - 1, e.vals[e.nnz++] = 1 + fabs(w);
    if (symmetric && i != j)
      e.rows[e.nnz] = j - 1, e.cols[e.nnz] = i - 1, e.vals[e.nnz++] = 1 + fabs(w);
  }
  fclose(f);
  return e;
}

// The text format of docs/storage.md (fill, rank and count, size, then
// 1-based entries), so that the vector keeps its size n.
static void write_vector(const char *dir, const char *name, uint64_t n,
                         const int8_t *present, const double *values,
                         int boolean) {
  uint64_t count = 0;
  for (uint64_t i = 0; i < n; ++i)
    count += present[i] != 0;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.txt", dir, name);
  FILE *f = fopen(path, "w");
  fprintf(f, "# fill: %s\n1 %llu\n%llu\n", boolean ? "0" : "inf",
          (unsigned long long)count, (unsigned long long)n);
  for (uint64_t i = 0; i < n; ++i)
    if (present[i]) {
      if (boolean)
        fprintf(f, "%llu 1\n", (unsigned long long)i + 1);
      else
        fprintf(f, "%llu %.17g\n", (unsigned long long)i + 1, values[i]);
    }
  fclose(f);
}

// The entry count and checksum both sides print: the sum of the values in
// storage order, or for Booleans the number of true entries (false entries
// are the fill on the sparse_array side).
static void summarize(const double *values, GrB_Index count, int boolean,
                      GrB_Index *entries, double *checksum) {
  double sum = 0;
  GrB_Index trues = 0;
  for (GrB_Index k = 0; k < count; ++k) {
    sum += values[k];
    trues += values[k] != 0;
  }
  *entries = boolean ? trues : count;
  *checksum = boolean ? (double)trues : sum;
}

// summarize() over a result's values in storage order.
static void summarize_vector(GrB_Vector y, int boolean, GrB_Index *entries,
                             double *checksum) {
  GrB_Index n;
  CHECK(GrB_Vector_nvals(&n, y));
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index));
  double *X = malloc((n + 1) * sizeof(double));
  CHECK(GrB_Vector_extractTuples_FP64(I, X, &n, y));
  summarize(X, n, boolean, entries, checksum);
  free(I), free(X);
}
static void summarize_matrix(GrB_Matrix C, int boolean, GrB_Index *entries,
                             double *checksum) {
  GrB_Index n;
  CHECK(GrB_Matrix_nvals(&n, C));
  GrB_Index *I = malloc((n + 1) * sizeof(GrB_Index));
  GrB_Index *J = malloc((n + 1) * sizeof(GrB_Index));
  double *X = malloc((n + 1) * sizeof(double));
  CHECK(GrB_Matrix_extractTuples_FP64(I, J, X, &n, C));
  summarize(X, n, boolean, entries, checksum);
  free(I), free(J), free(X);
}

// Writes `M` (n x n, as stored: duplicates merged, sorted) to DIR/NAME.mtx.
static void write_matrix(const char *dir, const char *name, GrB_Matrix M,
                         uint64_t n) {
  GrB_Index nvals;
  CHECK(GrB_Matrix_nvals(&nvals, M));
  GrB_Index *I = malloc((nvals + 1) * sizeof(GrB_Index));
  GrB_Index *J = malloc((nvals + 1) * sizeof(GrB_Index));
  double *X = malloc((nvals + 1) * sizeof(double));
  CHECK(GrB_Matrix_extractTuples_FP64(I, J, X, &nvals, M));
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.mtx", dir, name);
  FILE *f = fopen(path, "w");
  fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%llu %llu %llu\n",
          (unsigned long long)n, (unsigned long long)n, (unsigned long long)nvals);
  for (GrB_Index k = 0; k < nvals; ++k)
    fprintf(f, "%llu %llu %.17g\n", (unsigned long long)I[k] + 1,
            (unsigned long long)J[k] + 1, X[k]);
  fclose(f);
  free(I), free(J), free(X);
}

// F: n x 64 frontiers (one column per source, each vertex with
// probability 1/64) and V: what each source has seen (Boolean, probability
// 1/3), written as F.mtx and V.mtx (multi-source BFS and Bellman-Ford).
enum { kSources = 64 };
static void make_frontiers(const char *out, uint64_t n, GrB_Matrix *frontiers,
                           GrB_Matrix *visited) {
  char path[4096];
  snprintf(path, sizeof path, "%s/F.mtx", out);
  FILE *f = fopen(path, "w");
  uint64_t count = 0;
  uint64_t cap = n + 16;
  GrB_Index *FI = malloc(cap * sizeof(GrB_Index)), *FJ = malloc(cap * sizeof(GrB_Index));
  double *FX = malloc(cap * sizeof(double));
  for (uint64_t i = 0; i < n; ++i)
    for (int j = 0; j < kSources; ++j)
      if (next_random() % 4096 < 64) {
        if (count == cap) {
          cap *= 2;
          FI = realloc(FI, cap * sizeof(GrB_Index));
          FJ = realloc(FJ, cap * sizeof(GrB_Index));
          FX = realloc(FX, cap * sizeof(double));
        }
        FI[count] = i, FJ[count] = j, FX[count++] = floor(uniform() * 1000) / 10;
      }
  fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%llu %d %llu\n",
          (unsigned long long)n, kSources, (unsigned long long)count);
  for (uint64_t k = 0; k < count; ++k)
    fprintf(f, "%llu %llu %.17g\n", (unsigned long long)FI[k] + 1,
            (unsigned long long)FJ[k] + 1, FX[k]);
  fclose(f);
  GrB_Matrix Fm;
  CHECK(GrB_Matrix_new(&Fm, GrB_FP64, n, kSources));
  CHECK(GrB_Matrix_build_FP64(Fm, FI, FJ, FX, count, GrB_FIRST_FP64));
  CHECK(GrB_Matrix_wait(Fm, GrB_MATERIALIZE));
  free(FI), free(FJ), free(FX);
  *frontiers = Fm;
  // V: Boolean n x 64, entries true with probability 1/3.
  snprintf(path, sizeof path, "%s/V.mtx", out);
  f = fopen(path, "w");
  GrB_Index vcap = n * kSources / 2 + 16, vcount = 0;
  GrB_Index *VI = malloc(vcap * sizeof(GrB_Index)), *VJ = malloc(vcap * sizeof(GrB_Index));
  for (uint64_t i = 0; i < n; ++i)
    for (int j = 0; j < kSources; ++j)
      if (next_random() % 3 == 0) {
        if (vcount == vcap) {
          vcap *= 2;
          VI = realloc(VI, vcap * sizeof(GrB_Index));
          VJ = realloc(VJ, vcap * sizeof(GrB_Index));
        }
        VI[vcount] = i, VJ[vcount++] = j;
      }
  fprintf(f, "%%%%MatrixMarket matrix coordinate pattern general\n%llu %d %llu\n",
          (unsigned long long)n, kSources, (unsigned long long)vcount);
  for (GrB_Index k = 0; k < vcount; ++k)
    fprintf(f, "%llu %llu\n", (unsigned long long)VI[k] + 1, (unsigned long long)VJ[k] + 1);
  fclose(f);
  GrB_Matrix Vm;
  CHECK(GrB_Matrix_new(&Vm, GrB_BOOL, n, kSources));
  bool *VX = malloc((vcount + 1) * sizeof(bool));
  for (GrB_Index k = 0; k < vcount; ++k)
    VX[k] = true;
  CHECK(GrB_Matrix_build_BOOL(Vm, VI, VJ, VX, vcount, GrB_LOR));
  CHECK(GrB_Matrix_wait(Vm, GrB_MATERIALIZE));
  free(VI), free(VJ), free(VX);
  *visited = Vm;
}

// --kernels parallel (bench/parallel): y = A w over (+, ×) with a dense w
// (w.txt, every vertex), the row and column sums of A and C = A + B for B = A with
// its columns shifted by one (B.mtx; seed 000's recipe: most entries
// overlap), the masked mxv y<¬m> = A min.+ d (m.txt, d.txt) and the
// row-wise products C = A +.× F and C<¬V> = A min.+ F (F.mtx, V.mtx:
// make_frontiers), with --threads threads.
// Output `gb-NAME best-seconds entries checksum` (checksum: the sum of the
// result's values in index order).
static int time_parallel_kernels(const char *out, GrB_Matrix A, uint64_t n,
                                 int repeat) {
  double *wv = malloc(n * sizeof(double));
  int8_t *all = malloc(n);
  for (uint64_t i = 0; i < n; ++i)
    wv[i] = floor(uniform() * 1000) / 100 - 5, all[i] = 1;
  write_vector(out, "w", n, all, wv, 0);
  GrB_Vector w;
  CHECK(GrB_Vector_new(&w, GrB_FP64, n));
  for (uint64_t i = 0; i < n; ++i)
    CHECK(GrB_Vector_setElement_FP64(w, wv[i], i));
  CHECK(GrB_Vector_wait(w, GrB_MATERIALIZE));
  CHECK(GrB_Matrix_wait(A, GrB_MATERIALIZE));
  GrB_Matrix B;
  {
    GrB_Index nvals;
    CHECK(GrB_Matrix_nvals(&nvals, A));
    GrB_Index *I = malloc((nvals + 1) * sizeof(GrB_Index));
    GrB_Index *J = malloc((nvals + 1) * sizeof(GrB_Index));
    double *X = malloc((nvals + 1) * sizeof(double));
    CHECK(GrB_Matrix_extractTuples_FP64(I, J, X, &nvals, A));
    for (GrB_Index k = 0; k < nvals; ++k)
      J[k] = (J[k] + 1) % n;
    CHECK(GrB_Matrix_new(&B, GrB_FP64, n, n));
    CHECK(GrB_Matrix_build_FP64(B, I, J, X, nvals, GrB_FIRST_FP64));
    CHECK(GrB_Matrix_wait(B, GrB_MATERIALIZE));
    free(I), free(J), free(X);
    write_matrix(out, "B", B, n);
  }
  {
    double best = 1e300, checksum = 0;
    GrB_Index entries = 0;
    for (int r = 0; r < repeat; ++r) {
      GrB_Matrix C;
      CHECK(GrB_Matrix_new(&C, GrB_FP64, n, n));
      double t0 = seconds();
      CHECK(GrB_Matrix_eWiseAdd_BinaryOp(C, NULL, NULL, GrB_PLUS_FP64, A, B, NULL));
      CHECK(GrB_Matrix_wait(C, GrB_MATERIALIZE));
      double t1 = seconds();
      if (t1 - t0 < best) best = t1 - t0;
      summarize_matrix(C, 0, &entries, &checksum);
      GrB_Matrix_free(&C);
    }
    printf("gb-add %.9f %llu %.17g\n", best, (unsigned long long)entries,
           checksum);
    fflush(stdout);
  }
  // The sum of every entry (a scalar reduction).
  {
    double best = 1e300, total = 0;
    for (int r = 0; r < repeat; ++r) {
      double t0 = seconds();
      CHECK(GrB_Matrix_reduce_FP64(&total, NULL, GrB_PLUS_MONOID_FP64, A, NULL));
      double t1 = seconds();
      if (t1 - t0 < best) best = t1 - t0;
    }
    printf("gb-total %.9f 1 %.17g\n", best, total);
    fflush(stdout);
  }
  // Masked mxv: y<¬m> = A min.+ d (m.txt: a third of the vertices seen;
  // d.txt: distances for a third of them, the others +inf).
  {
    int8_t *mp = calloc(n, 1), *dp = calloc(n, 1);
    double *dv = calloc(n, sizeof(double));
    GrB_Vector m, d;
    CHECK(GrB_Vector_new(&m, GrB_BOOL, n));
    CHECK(GrB_Vector_new(&d, GrB_FP64, n));
    for (uint64_t i = 0; i < n; ++i) {
      mp[i] = uniform() < 1.0 / 3;
      dp[i] = uniform() < 1.0 / 3;
      dv[i] = floor(uniform() * 1000) / 10;
      if (mp[i]) CHECK(GrB_Vector_setElement_BOOL(m, true, i));
      if (dp[i]) CHECK(GrB_Vector_setElement_FP64(d, dv[i], i));
    }
    write_vector(out, "m", n, mp, NULL, 1);
    write_vector(out, "d", n, dp, dv, 0);
    CHECK(GrB_Vector_wait(m, GrB_MATERIALIZE));
    CHECK(GrB_Vector_wait(d, GrB_MATERIALIZE));
    double best = 1e300, checksum = 0;
    GrB_Index entries = 0;
    for (int r = 0; r < repeat; ++r) {
      GrB_Vector y;
      CHECK(GrB_Vector_new(&y, GrB_FP64, n));
      double t0 = seconds();
      CHECK(GrB_mxv(y, m, NULL, GrB_MIN_PLUS_SEMIRING_FP64, A, d, GrB_DESC_RC));
      CHECK(GrB_Vector_wait(y, GrB_MATERIALIZE));
      double t1 = seconds();
      if (t1 - t0 < best) best = t1 - t0;
      summarize_vector(y, 0, &entries, &checksum);
      GrB_Vector_free(&y);
    }
    printf("gb-mxv-tropical %.9f %llu %.17g\n", best,
           (unsigned long long)entries, checksum);
    fflush(stdout);
    free(mp), free(dp), free(dv);
  }
  // Row-wise products: C = A +.× F and C<¬V> = A min.+ F (F.mtx, V.mtx).
  GrB_Matrix F, V;
  make_frontiers(out, n, &F, &V);
  for (int kernel = 0; kernel < 2; ++kernel) {
    double best = 1e300, checksum = 0;
    GrB_Index entries = 0;
    for (int r = 0; r < repeat; ++r) {
      GrB_Matrix C;
      CHECK(GrB_Matrix_new(&C, GrB_FP64, n, kSources));
      double t0 = seconds();
      if (kernel == 0)
        CHECK(GrB_mxm(C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, F, NULL));
      else
        CHECK(GrB_mxm(C, V, NULL, GrB_MIN_PLUS_SEMIRING_FP64, A, F, GrB_DESC_RC));
      CHECK(GrB_Matrix_wait(C, GrB_MATERIALIZE));
      double t1 = seconds();
      if (t1 - t0 < best) best = t1 - t0;
      summarize_matrix(C, 0, &entries, &checksum);
      GrB_Matrix_free(&C);
    }
    printf("gb-%s %.9f %llu %.17g\n", kernel ? "mxm-tropical" : "spgemm", best,
           (unsigned long long)entries, checksum);
    fflush(stdout);
  }
  // SpMV, row sums and column sums (the reduction of A transposed).
  static const char *const vectorKernels[] = {"spmv", "rowsum", "colsum"};
  for (int kernel = 0; kernel < 3; ++kernel) {
    double best = 1e300, checksum = 0;
    GrB_Index entries = 0;
    for (int r = 0; r < repeat; ++r) {
      GrB_Vector y;
      CHECK(GrB_Vector_new(&y, GrB_FP64, n));
      double t0 = seconds();
      if (kernel == 0)
        CHECK(GrB_mxv(y, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, w, NULL));
      else
        CHECK(GrB_Matrix_reduce_Monoid(y, NULL, NULL, GrB_PLUS_MONOID_FP64, A,
                                       kernel == 2 ? GrB_DESC_T0 : NULL));
      CHECK(GrB_Vector_wait(y, GrB_MATERIALIZE));
      double t1 = seconds();
      if (t1 - t0 < best) best = t1 - t0;
      summarize_vector(y, 0, &entries, &checksum);
      GrB_Vector_free(&y);
    }
    printf("gb-%s %.9f %llu %.17g\n", vectorKernels[kernel], best,
           (unsigned long long)entries, checksum);
    fflush(stdout);
  }
  GrB_finalize();
  return 0;
}

int main(int argc, char **argv) {
  const char *out = NULL, *matrix = NULL;
  int scale = 0, factor = 16, repeat = 5, threads = 1;
  const char *kernels = "masked";
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--out")) out = argv[i + 1];
    else if (!strcmp(argv[i], "--matrix")) matrix = argv[i + 1];
    else if (!strcmp(argv[i], "--scale")) scale = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--edge-factor")) factor = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--repeat")) repeat = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--threads")) threads = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], 0, 10);
    else if (!strcmp(argv[i], "--kernels")) kernels = argv[i + 1];
    else {
      fprintf(stderr, "unknown option %s\n", argv[i]);
      return 1;
    }
  }
  if (!out || (!matrix && scale <= 0)) {
    fprintf(stderr, "usage: gb_bench --out DIR (--scale S | --matrix F)\n");
    return 1;
  }
  rng_state = seed;
  Edges e = matrix ? read_mtx(matrix) : rmat(scale, factor);
  CHECK(GrB_init(GrB_NONBLOCKING));
  CHECK(GxB_set(GxB_NTHREADS, threads));
  uint64_t n = e.n;
  GrB_Matrix A;
  CHECK(GrB_Matrix_new(&A, GrB_FP64, n, n));
  CHECK(GrB_Matrix_build_FP64(A, e.rows, e.cols, e.vals, e.nnz, GrB_FIRST_FP64));
  GrB_Index nvals;
  GrB_Matrix frontiers = NULL, visited = NULL;
  CHECK(GrB_Matrix_nvals(&nvals, A));
  // The graph, as stored (duplicates merged, sorted).
  write_matrix(out, "A", A, n);
  if (!strcmp(kernels, "parallel"))
    return time_parallel_kernels(out, A, n, repeat);
  int8_t *xp = calloc(n, 1), *mp = calloc(n, 1), *dp = calloc(n, 1);
  double *dv = calloc(n, sizeof(double));
  for (uint64_t i = 0; i < n; ++i) {
    xp[i] = uniform() < 0.125;
    mp[i] = uniform() < 1.0 / 3;
    dp[i] = uniform() < 1.0 / 3;
    dv[i] = floor(uniform() * 1000) / 10;
  }
  make_frontiers(out, n, &frontiers, &visited);
  write_vector(out, "x", n, xp, NULL, 1);
  write_vector(out, "m", n, mp, NULL, 1);
  write_vector(out, "d", n, dp, dv, 0);
  printf("graph %llu %llu\n", (unsigned long long)n, (unsigned long long)nvals);

  GrB_Vector x, m, d;
  CHECK(GrB_Vector_new(&x, GrB_BOOL, n));
  CHECK(GrB_Vector_new(&m, GrB_BOOL, n));
  CHECK(GrB_Vector_new(&d, GrB_FP64, n));
  for (uint64_t i = 0; i < n; ++i) {
    if (xp[i]) CHECK(GrB_Vector_setElement_BOOL(x, true, i));
    if (mp[i]) CHECK(GrB_Vector_setElement_BOOL(m, true, i));
    if (dp[i]) CHECK(GrB_Vector_setElement_FP64(d, dv[i], i));
  }
  CHECK(GrB_Vector_wait(x, GrB_MATERIALIZE));
  CHECK(GrB_Vector_wait(m, GrB_MATERIALIZE));
  CHECK(GrB_Vector_wait(d, GrB_MATERIALIZE));
  GrB_Matrix B; // the Boolean graph
  CHECK(GrB_Matrix_new(&B, GrB_BOOL, n, n));
  CHECK(GrB_Matrix_apply(B, NULL, NULL, GrB_IDENTITY_BOOL, A, NULL));
  CHECK(GrB_Matrix_wait(A, GrB_MATERIALIZE));
  CHECK(GrB_Matrix_wait(B, GrB_MATERIALIZE));

  // Kernel 2: the unmasked (min, +) SpMV y = A min.+ d (issue 20).
  static const char *const kMxvNames[] = {"mxv-bool", "mxv-tropical",
                                          "spmv-tropical"};
  for (int kernel = 0; kernel < 3; ++kernel) {
    double best = 1e300, checksum = 0;
    GrB_Index entries = 0;
    for (int r = 0; r < repeat; ++r) {
      GrB_Vector y;
      CHECK(GrB_Vector_new(&y, kernel ? GrB_FP64 : GrB_BOOL, n));
      double t0 = seconds();
      if (kernel == 0)
        CHECK(GrB_mxv(y, m, NULL, GrB_LOR_LAND_SEMIRING_BOOL, B, x, GrB_DESC_RC));
      else if (kernel == 1)
        CHECK(GrB_mxv(y, m, NULL, GrB_MIN_PLUS_SEMIRING_FP64, A, d, GrB_DESC_RC));
      else
        CHECK(GrB_mxv(y, NULL, NULL, GrB_MIN_PLUS_SEMIRING_FP64, A, d, NULL));
      CHECK(GrB_Vector_wait(y, GrB_MATERIALIZE));
      double t1 = seconds();
      if (t1 - t0 < best) best = t1 - t0;
      summarize_vector(y, kernel == 0, &entries, &checksum);
      GrB_Vector_free(&y);
    }
    printf("gb-%s %.9f %llu %.17g\n", kMxvNames[kernel], best,
           (unsigned long long)entries, checksum);
    fflush(stdout);
  }
  GrB_Matrix Fb;
  CHECK(GrB_Matrix_new(&Fb, GrB_BOOL, n, kSources));
  CHECK(GrB_Matrix_apply(Fb, NULL, NULL, GrB_IDENTITY_BOOL, frontiers, NULL));
  CHECK(GrB_Matrix_wait(Fb, GrB_MATERIALIZE));
  for (int kernel = 0; kernel < 2; ++kernel) {
    double best = 1e300, checksum = 0;
    GrB_Index entries = 0;
    for (int r = 0; r < repeat; ++r) {
      GrB_Matrix C;
      CHECK(GrB_Matrix_new(&C, kernel ? GrB_FP64 : GrB_BOOL, n, kSources));
      double t0 = seconds();
      if (kernel == 0)
        CHECK(GrB_mxm(C, visited, NULL, GrB_LOR_LAND_SEMIRING_BOOL, B, Fb, GrB_DESC_RC));
      else
        CHECK(GrB_mxm(C, visited, NULL, GrB_MIN_PLUS_SEMIRING_FP64, A, frontiers, GrB_DESC_RC));
      CHECK(GrB_Matrix_wait(C, GrB_MATERIALIZE));
      double t1 = seconds();
      if (t1 - t0 < best) best = t1 - t0;
      summarize_matrix(C, kernel == 0, &entries, &checksum);
      GrB_Matrix_free(&C);
    }
    printf("gb-%s %.9f %llu %.17g\n", kernel ? "mxm-tropical" : "mxm-bool", best,
           (unsigned long long)entries, checksum);
    fflush(stdout);
  }
  GrB_finalize();
  return 0;
}
