// Communicator on MPI_COMM_WORLD, in closure's MPI module (closure-mpi.so): the CLI loads
// it only under an MPI launcher (app/process/mpi_launch.hpp). Errors stay
// MPI_ERRORS_ARE_FATAL: a broken link or a dead peer ends the whole job through mpirun,
// which is what users expect of MPI.

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/process/mpi_plugin_abi.hpp"
#include "closure/session/communicator.hpp"

namespace closure::mpi {
namespace {

// Messages in pieces of at most 1 GiB: MPI counts are ints.
constexpr size_t kChunk = size_t{1} << 30;
constexpr int kSizeTag = 1, kDataTag = 2;

// A receiver without memory for a message its sender is already sending: there is no
// clean way back, so the whole job stops now (mpirun ends every rank, exit status 4)
// instead of leaving the sender waiting.
[[noreturn]] void abort_job(const char* what, uint64_t bytes) {
  std::fprintf(stderr, "closure: no memory to receive %s (%llu bytes); stopping every rank\n", what,
               (unsigned long long)bytes);
  MPI_Abort(MPI_COMM_WORLD, 4);
  std::abort();
}

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank_);
    MPI_Comm_size(local, &local_size_);
    MPI_Comm_free(&local);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }

  uint64_t sum(uint64_t value) override {
    uint64_t out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return out;
  }
  double max(double value) override {
    double out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
  }
  int min(int value) override {
    int out = 0;
    MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return out;
  }
  std::string broadcast(const std::string& text, int root) override {
    uint64_t n = text.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD);
    std::string out;
    try {
      out = rank_ == root ? text : std::string(n, '\0');
    } catch (const std::exception&) {
      // The root is already sending: the whole job stops rather than wait (see below).
      abort_job("a broadcast", n);
    }
    for (size_t at = 0; at < n; at += kChunk)
      MPI_Bcast(out.data() + at, int(std::min(kChunk, n - at)), MPI_BYTE, root, MPI_COMM_WORLD);
    return out;
  }
  void gather_to_root(std::span<const uint8_t> mine,
                      const std::function<void(int, std::span<const uint8_t>)>& on_part) override {
    if (rank_ != 0) {
      uint64_t n = mine.size();
      MPI_Send(&n, 1, MPI_UINT64_T, 0, kSizeTag, MPI_COMM_WORLD);
      for (size_t at = 0; at < n; at += kChunk)
        MPI_Send(mine.data() + at, int(std::min(kChunk, n - at)), MPI_BYTE, 0, kDataTag,
                 MPI_COMM_WORLD);
      return;
    }
    on_part(0, mine);
    std::vector<uint8_t> part;
    for (int r = 1; r < size_; ++r) {
      uint64_t n = 0;
      MPI_Recv(&n, 1, MPI_UINT64_T, r, kSizeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      try {
        part.resize(n);
      } catch (const std::exception&) {
        abort_job(("rank " + std::to_string(r) + "'s part of the closure").c_str(), n);
      }
      for (size_t at = 0; at < n; at += kChunk)
        MPI_Recv(part.data() + at, int(std::min(kChunk, n - at)), MPI_BYTE, r, kDataTag,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      on_part(r, part);
      part = {};
    }
  }

 private:
  int rank_ = 0, size_ = 1, local_rank_ = 0, local_size_ = 1;
};

}  // namespace

}  // namespace closure::mpi

// The module's only exported names (it is built with hidden visibility).
extern "C" __attribute__((visibility("default"))) closure::Communicator* closure_mpi_start(
    int* argc, char*** argv) {
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  return new closure::mpi::MpiCommunicator();
}

extern "C" __attribute__((visibility("default"))) void closure_mpi_finish(
    closure::Communicator* world) {
  delete world;
  MPI_Finalize();
}
