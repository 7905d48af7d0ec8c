#include "heap/collective_check.h"

#include <string>
#include <vector>

#include "common/error.h"

namespace ishmem::detail {
namespace {

// Up to 16 PEs the records stay on the stack: a check runs in every allocation.
class Records {
 public:
  explicit Records(int n_pes) {
    if (n_pes > 16) large_.resize(n_pes);
  }
  CollectiveRecord *data() { return large_.empty() ? small_ : large_.data(); }

 private:
  CollectiveRecord small_[16];
  std::vector<CollectiveRecord> large_;
};

}  // namespace

CollectiveCheck::CollectiveCheck(const MpiBootstrap &boot, ControlSegment &control)
    : boot_(boot), control_(control), over_mpi_(boot.topology().n_nodes > 1) {
  if (!over_mpi_) return;
  const Topology &topo = boot.topology();
  ISHMEMI_CHECK_MPI(MPI_Comm_split(boot.world(), topo.local_rank == 0 ? 0 : MPI_UNDEFINED,
                                   topo.my_pe, &leaders_));
  if (leaders_ != MPI_COMM_NULL)
    ISHMEMI_CHECK_MPI(MPI_Comm_set_errhandler(leaders_, MPI_ERRORS_RETURN));
}

CollectiveCheck::~CollectiveCheck() {
  int finalized = 1;
  if (leaders_ == MPI_COMM_NULL || MPI_Finalized(&finalized) != MPI_SUCCESS || finalized) return;
  if (MPI_Comm_free(&leaders_) != MPI_SUCCESS)
    log(LogLevel::warn, "MPI_Comm_free of the node leaders' communicator failed");
}

void CollectiveCheck::across_nodes(const CollectiveRecord &mine) {
  const auto op = static_cast<CollectiveOp>(mine.op);
  bool differ;
  if (op >= CollectiveOp::malloc) {  // heap calls compare their arguments too
    Records all(boot_.topology().n_pes);
    control_.exchange(mine, all.data());
    differ = false;
    for (int pe : boot_.topology().local_pes) differ = differ || !same_record(all.data()[pe], mine);
  } else {
    differ = !control_.barrier(op);
  }
  if (leaders_ != MPI_COMM_NULL) {
    // A bitwise OR of the record and its complement keeps a bit in both only where the
    // leaders' calls differ; the last word carries a difference inside a node.
    std::uint64_t words[7] = {mine.op,      mine.arg[0],  mine.arg[1],     ~mine.op,
                              ~mine.arg[0], ~mine.arg[1], differ ? 1u : 0u};
    std::uint64_t any[7] = {};
    MPI_Request req;
    ISHMEMI_CHECK_MPI(MPI_Iallreduce(words, any, 7, MPI_UINT64_T, MPI_BOR, leaders_, &req));
    watch_complete(req, "MPI_Iallreduce");
    differ =
        any[6] != 0 || (any[0] & any[3]) != 0 || (any[1] & any[4]) != 0 || (any[2] & any[5]) != 0;
  }
  // The release: when the calls differ the leader arrives from no call, which every PE of
  // the node sees as a difference.
  const bool leader_differs = leaders_ != MPI_COMM_NULL && differ;
  const bool same = control_.barrier(leader_differs ? CollectiveOp::none : op);
  if (differ || !same) compare_over_mpi(mine);
}

void CollectiveCheck::check(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1) {
  watch_enter(op);
  const CollectiveRecord mine{static_cast<std::uint64_t>(op), {arg0, arg1}};
  if (over_mpi_) return across_nodes(mine);
  Records all(boot_.topology().n_pes);
  control_.exchange(mine, all.data());
  compare(mine, all.data());
}

void CollectiveCheck::compare_over_mpi(const CollectiveRecord &mine) {
  Records all(boot_.topology().n_pes);
  boot_.allgather(&mine, all.data(), sizeof mine, false);
  compare(mine, all.data());
}

void CollectiveCheck::report_node_mismatch(CollectiveOp op) {
  const CollectiveRecord mine{static_cast<std::uint64_t>(op), {}};
  Records all(boot_.topology().n_pes);
  control_.last_records(all.data());
  compare(mine, all.data());
  fail(ISHMEM_ERR_INTERNAL, "%s: the node barrier saw different calls that agree",
       collective_op_name(mine.op));
}

void CollectiveCheck::compare(const CollectiveRecord &mine, const CollectiveRecord *all) {
  const int n_pes = boot_.topology().n_pes;
  for (const CollectiveRecord *r = all; r != all + n_pes; ++r)
    if (r->op != mine.op || r->arg[0] != mine.arg[0] || r->arg[1] != mine.arg[1])
      fail(ISHMEM_ERR_MISMATCH, "%s: %s", collective_op_name(mine.op),
           disagreement(all, n_pes).c_str());
}

}  // namespace ishmem::detail
