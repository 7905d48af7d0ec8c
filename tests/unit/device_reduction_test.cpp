// The reductions the device proxy decodes from kernels' requests (runtime/proxied_collectives.h):
// every operation on every integer size and sign, the ordered ones on float and double, each
// with its MPI datatype and operation and a combine that computes it; nothing else.
#include <gtest/gtest.h>

#include <cstdint>

#include "runtime/proxied_collectives.h"

using ishmem::detail::device_reduction;
using ishmem::detail::ElementKind;
using ishmem::detail::ElementType;
using ishmem::detail::ReduceOp;
using ishmem::detail::Reduction;

namespace {

struct OpCase {
  ReduceOp op;
  MPI_Op mpi;
  bool bitwise;
};
const OpCase kOps[] = {{ReduceOp::and_, MPI_BAND, true}, {ReduceOp::or_, MPI_BOR, true},
                       {ReduceOp::xor_, MPI_BXOR, true}, {ReduceOp::max, MPI_MAX, false},
                       {ReduceOp::min, MPI_MIN, false},  {ReduceOp::sum, MPI_SUM, false},
                       {ReduceOp::prod, MPI_PROD, false}};

struct TypeCase {
  ElementType type;
  MPI_Datatype mpi;
};
const TypeCase kIntegers[] = {
    {{1, ElementKind::signed_int}, MPI_INT8_T},     {{2, ElementKind::signed_int}, MPI_INT16_T},
    {{4, ElementKind::signed_int}, MPI_INT32_T},    {{8, ElementKind::signed_int}, MPI_INT64_T},
    {{1, ElementKind::unsigned_int}, MPI_UINT8_T},  {{2, ElementKind::unsigned_int}, MPI_UINT16_T},
    {{4, ElementKind::unsigned_int}, MPI_UINT32_T}, {{8, ElementKind::unsigned_int}, MPI_UINT64_T}};
const TypeCase kReals[] = {{{4, ElementKind::real}, MPI_FLOAT},
                           {{8, ElementKind::real}, MPI_DOUBLE}};

TEST(DeviceReduction, EveryOperationOnEveryKernelType) {
  for (const OpCase &o : kOps) {
    for (const TypeCase &t : kIntegers) {
      Reduction r{};
      ASSERT_TRUE(device_reduction(o.op, t.type, r)) << int(o.op) << " on " << t.type.size;
      EXPECT_EQ(r.op, o.op);
      EXPECT_EQ(r.mpi_op, o.mpi);
      EXPECT_EQ(r.mpi_type, t.mpi) << t.type.size << "-byte integer";
      EXPECT_EQ(r.type.code(), t.type.code());
    }
    for (const TypeCase &t : kReals) {
      Reduction r{};
      EXPECT_EQ(device_reduction(o.op, t.type, r), !o.bitwise) << int(o.op) << " on a real";
      if (!o.bitwise) {
        EXPECT_EQ(r.mpi_op, o.mpi);
        EXPECT_EQ(r.mpi_type, t.mpi);
      }
    }
  }
}

TEST(DeviceReduction, CombinesAsItsOperation) {
  Reduction r{};
  ASSERT_TRUE(device_reduction(ReduceOp::sum, {4, ElementKind::signed_int}, r));
  std::int32_t acc[2] = {1, -5}, in[2] = {2, 7};
  r.combine(acc, in, 2);
  EXPECT_EQ(acc[0], 3);
  EXPECT_EQ(acc[1], 2);
  ASSERT_TRUE(device_reduction(ReduceOp::xor_, {1, ElementKind::unsigned_int}, r));
  std::uint8_t bits = 0xf0, other = 0x3c;
  r.combine(&bits, &other, 1);
  EXPECT_EQ(bits, 0xcc);
  ASSERT_TRUE(device_reduction(ReduceOp::min, {8, ElementKind::real}, r));
  double x = 2.5, y = -1.25;
  r.combine(&x, &y, 1);
  EXPECT_EQ(x, -1.25);
}

TEST(DeviceReduction, RefusesOtherTypes) {
  Reduction r{};
  EXPECT_FALSE(device_reduction(ReduceOp::sum, {16, ElementKind::real}, r));  // long double
  EXPECT_FALSE(device_reduction(ReduceOp::sum, {8, ElementKind::complex}, r));
  EXPECT_FALSE(device_reduction(ReduceOp::sum, {3, ElementKind::signed_int}, r));
  EXPECT_FALSE(device_reduction(ReduceOp::sum, {1, ElementKind::bytes}, r));
  EXPECT_FALSE(device_reduction(ReduceOp::none, {4, ElementKind::signed_int}, r));
}

}  // namespace
