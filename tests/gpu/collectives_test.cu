// Collectives on GPU heaps against MPI's on the same random data, on world, strided (positive
// and negative stride), single-PE and 2d-row teams: the host forms (blocking and _on_stream)
// of every reduction type and operation with device forms and of every data mover; and the
// device forms in kernels (every thread of one warp, of one block of 1024 threads, or of a
// grid of several blocks), in both forms (handle and no argument), for a representative set
// of types. Sizes: 0, 1, odd, both sides of ISHMEM_DEVICE_ONESHOT_MAX (its default, 64 KiB),
// and about 100 KiB.
// The PEs share one GPU, where kernels of different processes take turns: every collective
// costs milliseconds, so the full tables run on the world team and a sample on the others.
#include <utility>

#include "collectives_device.h"

using namespace gpu_test;
using ishmem_test::check_moves;
using ishmem_test::check_reduce;

namespace {

const std::vector<std::size_t> kMemSizes = {0, 1, 7, kOneShot, kLarge};

TEST_F(GpuCollectives, HostFormsOfEveryReduction) {
  const SymmetricPair &b = this->b();
  on_every_shape([&](const TeamUnderTest &t) {
    if (is_world(t)) {  // every type and operation, both sides of the threshold; 100 KiB
      ishmem_test::check_host_reductions(t, b, gpu, true, true, kOneShot, false);
      const std::vector<std::size_t> large = {kLarge / 8};
      check_reduce<double>(t, b, gpu, "double_sum_reduce blocking", MPI_SUM,
                           ishmem_test::blocking_run<double>(ishmem_double_sum_reduce), large);
      check_reduce<long long>(
          t, b, gpu, "longlong_min_reduce on_stream", MPI_MIN,
          ishmem_test::on_stream_run<long long>(ishmemx_longlong_min_reduce_on_stream, gpu), large);
      return;
    }
    // A sample elsewhere: sum and xor of 8-byte integers, max of floats.
    const auto sizes = [](std::size_t elem) {
      return std::vector<std::size_t>{1, 7, kOneShot / elem + 1};
    };
    check_reduce<long>(t, b, gpu, "long_sum_reduce blocking", MPI_SUM,
                       ishmem_test::blocking_run<long>(ishmem_long_sum_reduce), sizes(8));
    check_reduce<long>(t, b, gpu, "long_sum_reduce on_stream", MPI_SUM,
                       ishmem_test::on_stream_run<long>(ishmemx_long_sum_reduce_on_stream, gpu),
                       sizes(8));
    check_reduce<uint64_t>(
        t, b, gpu, "uint64_xor_reduce on_stream", MPI_BXOR,
        ishmem_test::on_stream_run<uint64_t>(ishmemx_uint64_xor_reduce_on_stream, gpu), sizes(8));
    check_reduce<float>(t, b, gpu, "float_max_reduce blocking", MPI_MAX,
                        ishmem_test::blocking_run<float>(ishmem_float_max_reduce), sizes(4));
  });
}

TEST_F(GpuCollectives, HostFormsOfEveryMove) {
  const SymmetricPair &b = this->b();
  on_every_shape([&](const TeamUnderTest &t) {
    const bool world = is_world(t);
    for (bool on_stream : {false, true})
      ishmem_test::check_host_moves(
          t, b, gpu, on_stream, world ? kMemSizes : std::vector<std::size_t>{7, kOneShot + 1},
          world ? std::vector<std::size_t>{7} : std::vector<std::size_t>{});
  });
}

// D's reduction O: every size in a block; sum and the first operation of D also in a warp and
// a grid. The form (handle or no argument) alternates with the operation.
template <class D, Op O>
void device_reductions(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a) {
  if constexpr (D::ops >> O & 1) {
    using T = typename D::type;
    constexpr bool kHandle = O % 2 == 0;
    constexpr Op kFirst = D::ops & 1u << kAnd ? kAnd : kMax;
    const bool world = is_world(t), sampled = O == kSum || O == kFirst;
    if (!world && !sampled) return;
    const std::string name = std::string(D::name) + "_" + op_name(O) + "_reduce ";
    const std::size_t over = kOneShot / sizeof(T) + 1, large = kLarge / sizeof(T);
    check_reduce<T>(t, b, a, name + form_of(kBlock, kHandle), mpi_op(O),
                    device_reduce<D, O, kBlock, kHandle>(),
                    world ? ishmem_test::reduce_sizes(sizeof(T), kOneShot, true)
                          : std::vector<std::size_t>{1, over});
    if (!sampled) return;
    check_reduce<T>(t, b, a, name + form_of(kWarp, !kHandle), mpi_op(O),
                    device_reduce<D, O, kWarp, !kHandle>(),
                    world ? std::vector<std::size_t>{7, over} : std::vector<std::size_t>{7});
    check_reduce<T>(t, b, a, name + form_of(kGrid, kHandle), mpi_op(O),
                    device_reduce<D, O, kGrid, kHandle>(),
                    world ? std::vector<std::size_t>{over, large} : std::vector<std::size_t>{over});
  }
}

template <class D, int... O>
void device_reductions_of(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a,
                          std::integer_sequence<int, O...>) {
  (device_reductions<D, Op(O)>(t, b, a), ...);
}

TEST_F(GpuCollectives, DeviceReductions) {
  const SymmetricPair &b = this->b();
  const auto ops = std::make_integer_sequence<int, kProd + 1>();
  on_every_shape([&](const TeamUnderTest &t) {
    for_each_reduction_type(
        [&](auto d) { device_reductions_of<typename decltype(d)::type>(t, b, gpu, ops); });
    if (!is_world(t)) return;
    // The widest grid allowed.
    check_reduce<double>(t, b, gpu, "double_sum_reduce grid of ISHMEMX_GRID_MAX_BLOCKS", MPI_SUM,
                         device_reduce<DevDouble, kSum, kGrid, true>(ISHMEMX_GRID_MAX_BLOCKS),
                         {kOneShot / 8 + 1, kLarge / 8});
    check_moves<unsigned char>(t, b, gpu, "mem grid of ISHMEMX_GRID_MAX_BLOCKS",
                               device_moves<DevMem, kGrid, false>(ISHMEMX_GRID_MAX_BLOCKS),
                               {Move::broadcast, Move::fcollect, Move::alltoall, Move::alltoalls},
                               {kLarge});
  });
}

// D's data movers in a block, a warp and a grid (no collect: it has no grid form), at the
// sizes given; HANDLE picks the block's form, the others take turns.
template <class D, bool HANDLE>
void device_moves_of(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a,
                     const std::vector<std::size_t> &block, const std::vector<std::size_t> &warp,
                     const std::vector<std::size_t> &grid) {
  const std::string name = std::string(D::name) + " ";
  check_moves<typename D::type>(t, b, a, name + form_of(kBlock, HANDLE),
                                device_moves<D, kBlock, HANDLE>(), moves_of(kAllMoves), block);
  check_moves<typename D::type>(t, b, a, name + form_of(kWarp, !HANDLE),
                                device_moves<D, kWarp, !HANDLE>(), moves_of(kAllMoves), warp);
  check_moves<typename D::type>(t, b, a, name + form_of(kGrid, HANDLE),
                                device_moves<D, kGrid, HANDLE>(),
                                moves_of(kAllMoves & ~(1u << int(Move::collect))), grid);
}

TEST_F(GpuCollectives, DeviceMoves) {
  const SymmetricPair &b = this->b();
  on_every_shape([&](const TeamUnderTest &t) {
    if (!is_world(t)) {
      device_moves_of<DevMem, false>(t, b, gpu, {7, kOneShot + 1}, {7}, {kOneShot + 1});
      return;
    }
    device_moves_of<DevMem, true>(t, b, gpu, kMemSizes, {1, 7, kOneShot + 1},
                                  {kOneShot + 1, kLarge});
    device_moves_of<DevInt, false>(t, b, gpu, {1, 7}, {7}, {7});
    device_moves_of<DevLongLong, true>(t, b, gpu, {1, 7}, {7}, {7});
    device_moves_of<DevUint8, false>(t, b, gpu, {1, 7}, {7}, {7});
    device_moves_of<DevUint64, true>(t, b, gpu, {1, 7}, {7}, {7});
    device_moves_of<DevFloat, false>(t, b, gpu, {1, 7}, {7}, {7});
    device_moves_of<DevDouble, true>(t, b, gpu, {1, 7}, {7}, {7});
  });
}

}  // namespace
