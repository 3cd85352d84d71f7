// The cancellation hook (closure/util/cancel.hpp): a cancelled token stops the SCC pass,
// the sparse propagation (one thread and several), the dense squaring loop and the CSR
// export with Cancelled; without a scope, or with a token left alone, they run as usual.
#include <gtest/gtest.h>

#include <thread>

#include "bench/generators.hpp"
#include "closure/algorithms/closure_arrays.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/engine/compute.hpp"
#include "closure/util/cancel.hpp"

namespace closure {
namespace {

TEST(Cancel, ScopesNestAndRestore) {
  EXPECT_EQ(current_cancel_token(), nullptr);
  CancelToken a, b;
  {
    CancelScope sa(a);
    EXPECT_EQ(current_cancel_token(), &a);
    {
      CancelScope sb(b);
      EXPECT_EQ(current_cancel_token(), &b);
    }
    EXPECT_EQ(current_cancel_token(), &a);
    // Another thread has no token of its own.
    std::thread([] { EXPECT_EQ(current_cancel_token(), nullptr); }).join();
  }
  EXPECT_EQ(current_cancel_token(), nullptr);
}

TEST(Cancel, CancelledTokenStopsEveryLongLoop) {
  // Big enough that the propagation goes threaded (components + edges >= 200,000).
  const Graph big = random_dag(150'000, 300'000, 7);
  const Graph small = random_dag(300, 900, 8);
  const Condensation condensed = condense(big);  // so the propagation itself is tested
  CancelToken token;
  token.cancel();
  CancelScope scope(token);
  EXPECT_THROW(strongly_connected_components(big), Cancelled);
  EXPECT_THROW(closure_sparse(condensed, {.threads = 1}), Cancelled);
  EXPECT_THROW(closure_sparse(condensed, {.threads = 2}), Cancelled);
  ComputeOptions square;
  square.method = Method::kSquare;
  EXPECT_THROW(compute_closure(small, square), Cancelled);
  ComputeOptions recursive;
  recursive.method = Method::kRecursive;
  EXPECT_THROW(compute_closure(small, recursive), Cancelled);
}

TEST(Cancel, UncancelledRunsGiveTheSameClosure) {
  const Graph g = random_dag(5'000, 20'000, 9);
  const Closure plain = closure_sparse(g);
  CancelToken token;
  CancelScope scope(token);
  const Closure watched = closure_sparse(g, {.threads = 2});
  EXPECT_TRUE(plain == watched);
  EXPECT_EQ(closure_csr(plain).indices, closure_csr(watched).indices);
  token.cancel();
  EXPECT_THROW(closure_csr(plain), Cancelled);
}

}  // namespace
}  // namespace closure
