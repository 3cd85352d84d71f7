// What the distributed closure needs of a group of processes (MPI ranks), kept free of
// MPI itself: the library, its tests and the Python module build without MPI; the CLI
// links the MPI implementation (src/mpi/) when Open MPI's development files exist.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace closure {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // This rank's position among the ranks on its host: which of the host's GPUs it takes.
  virtual int local_rank() const = 0;
  // How many ranks share this rank's host (they share its cores and GPUs).
  virtual int local_size() const = 0;

  // Collectives: every rank calls them in the same order.
  virtual uint64_t sum(uint64_t value) = 0;
  virtual double max(double value) = 0;
  virtual int min(int value) = 0;
  // root's text to every rank.
  virtual std::string broadcast(const std::string& text, int root) = 0;
  // Rank 0 is handed every rank's bytes in rank order (its own first), one part at a
  // time; other ranks only send theirs. Parts of any size (sent in chunks).
  virtual void gather_to_root(
      std::span<const uint8_t> mine,
      const std::function<void(int rank, std::span<const uint8_t>)>& on_part) = 0;
};

// The communicator of this process when it was started by mpirun with MPI built in;
// null otherwise (a plain process). Set once by main.
Communicator* process_communicator();
void set_process_communicator(Communicator* communicator);
// The process's communicator when it has more than one rank; null otherwise.
Communicator* distributed_communicator();

// Runs `body` on every rank, then agrees: when any rank threw, every rank throws. The
// failing rank (the lowest, when several fail) rethrows its own exception; the others
// throw an Error of the same kind whose message names that rank and repeats its message,
// so rank 0 can print the one clear message and every rank exits with the same status.
// No rank waits forever for one that failed.
void collectively(Communicator& comm, const std::function<void()>& body);

}  // namespace closure
