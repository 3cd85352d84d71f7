// The planner is a pure function: the same facts give the same plan, with no device and
// no graph. These cases pin auto's rule (planner.cpp) at its boundaries.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "bench/index_generators.hpp"
#include "closure/algorithms/planner.hpp"
#include "closure/engine/methods.hpp"
#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

// A commit history's shape: a million components, one edge and a bit each, every
// component reaching a quarter of the others (a closure of 2.5e11 pairs).
PlanFacts large_closure() {
  PlanFacts f;
  f.vertices = 1'000'000;
  f.edges = 1'200'000;
  CostInputs in;
  in.vertices = f.vertices;
  in.edges = f.edges;
  in.components = f.vertices;
  in.condensed_edges = f.edges;
  in.mean_reach = 250'000;
  in.block_items = 240'000;  // a fifth of the edges leave their block of 32 (the merges)
  f.condensed = in;
  return f;
}

ocl::DeviceInfo h200() {
  return testing::h200_description();
}

TEST(Planner, ARequestedMethodIsTakenAsItIs) {
  for (const auto& entry : method_registry()) {
    if (entry.method == Method::kAuto) continue;
    PlanFacts f = large_closure();
    f.requested = entry.method;
    const Plan p = plan(f);
    EXPECT_EQ(p.need, Plan::Need::kNothing);
    EXPECT_EQ(p.method, entry.method);
    EXPECT_EQ(p.reason, "requested");
  }
}

TEST(Planner, SmallGraphsGoToTheHostWithoutCondensing) {
  PlanFacts f;
  f.vertices = 1000;
  f.edges = kAutoModelFrom - 1001;  // one short of the model's threshold
  const Plan p = plan(f);
  EXPECT_EQ(p.need, Plan::Need::kNothing);
  EXPECT_EQ(p.method, Method::kSparse);
  EXPECT_NE(p.reason.find("small"), std::string::npos) << p.reason;
  f.edges += 1;  // at the threshold: the condensation is needed first
  EXPECT_EQ(plan(f).need, Plan::Need::kCondensation);
}

TEST(Planner, AShallowClosureStaysOnTheHostWithoutLookingForADevice) {
  PlanFacts f = large_closure();
  f.condensed->mean_reach = 3;  // a road network's kind of closure
  const Plan p = plan(f);
  EXPECT_EQ(p.need, Plan::Need::kNothing);
  EXPECT_EQ(p.method, Method::kSparse);
  EXPECT_EQ(p.device_s, 0) << "no device was modelled";
}

TEST(Planner, ALargeClosureAsksForTheGpuThenTakesIt) {
  PlanFacts f = large_closure();
  EXPECT_EQ(plan(f).need, Plan::Need::kGpuDescription);
  f.gpu_looked_up = true;
  f.gpu = h200();
  const Plan p = plan(f);
  EXPECT_EQ(p.need, Plan::Need::kNothing);
  EXPECT_EQ(p.method, Method::kPropagate);
  EXPECT_GT(p.host_s, p.device_s);
  EXPECT_GT(p.device_s, 0);
  EXPECT_NE(p.reason.find("so propagate on the device"), std::string::npos) << p.reason;
}

// The block items (a pass over the condensation's edges) are counted only where a GPU is
// there and in the running: a large closure asks for the GPU's description, then for them;
// without a GPU, or with a shallow closure, it never does. More of them make the GPU's
// prediction longer.
TEST(Planner, BlockItemsAreCountedOnlyWhereAGpuIsInTheRunning) {
  PlanFacts f = large_closure();
  f.condensed->block_items = -1;
  EXPECT_EQ(plan(f).need, Plan::Need::kGpuDescription);
  f.gpu_looked_up = true;
  const Plan no_gpu = plan(f);
  EXPECT_EQ(no_gpu.need, Plan::Need::kNothing);
  EXPECT_EQ(no_gpu.method, Method::kSparse);
  f.gpu = h200();
  EXPECT_EQ(plan(f).need, Plan::Need::kBlockItems);
  f.condensed->block_items = 0;
  EXPECT_EQ(plan(f).need, Plan::Need::kNothing);
  const double few = predict_gpu_propagate_s(*f.condensed);
  f.condensed->block_items = 1'000'000;
  EXPECT_GT(predict_gpu_propagate_s(*f.condensed), few);
  PlanFacts shallow = large_closure();
  shallow.condensed->block_items = -1;
  shallow.condensed->mean_reach = 3;
  EXPECT_EQ(plan(shallow).need, Plan::Need::kNothing);
  EXPECT_EQ(plan(shallow).method, Method::kSparse);
}

TEST(Planner, ALargeClosureWithoutAGpuStaysOnTheHost) {
  PlanFacts f = large_closure();
  f.gpu_looked_up = true;  // looked, none found
  const Plan p = plan(f);
  EXPECT_EQ(p.need, Plan::Need::kNothing);
  EXPECT_EQ(p.method, Method::kSparse);
  EXPECT_NE(p.reason.find("so sparse on the host"), std::string::npos) << p.reason;
}

// A GPU opened on speculation (a large file, from the process's start) has the start-up it
// has taken so far paid whatever auto chooses; the rest is waited for only if it is chosen.
// Where the host's prediction lies between the GPU's with and without its start-up, an
// opening begun long enough ago decides for the GPU, one just begun does not.
TEST(Planner, AGpuOpeningLeavesOutOnlyTheStartUpItHasTakenSoFar) {
  PlanFacts f = large_closure();
  CostInputs& in = *f.condensed;
  in.mean_reach = 16;  // a small closure, so the device's start-up dominates its cost
  const double with_start = predict_gpu_propagate_s(in);
  const double without_start = predict_gpu_propagate_s(in, GpuOpening(60));
  ASSERT_LT(without_start, with_start);
  EXPECT_DOUBLE_EQ(predict_gpu_propagate_s(in, GpuOpening(0)), with_start);
  const double part = (with_start - without_start) / 4;
  EXPECT_NEAR(predict_gpu_propagate_s(in, GpuOpening(part)), with_start - part, 1e-12);
  // A host prediction between the two: find the reach that puts it there.
  double low = 1, high = double(in.components);
  for (int i = 0; i < 200; ++i) {
    in.mean_reach = (low + high) / 2;
    const double h = predict_host_s(in);
    if (h < (with_start + without_start) / 2)
      low = in.mean_reach;
    else
      high = in.mean_reach;
  }
  const double host_s = predict_host_s(in);
  ASSERT_GT(host_s, predict_gpu_propagate_s(in, GpuOpening(60)));
  ASSERT_LT(host_s, predict_gpu_propagate_s(in));
  ASSERT_GE(host_s, kDeviceWorthLookingS);
  f.gpu_looked_up = true;
  f.gpu = h200();
  const Plan closed = plan(f);
  EXPECT_EQ(closed.method, Method::kSparse) << closed.reason;
  f.gpu_opening = GpuOpening(0);
  const Plan just_begun = plan(f);
  EXPECT_EQ(just_begun.method, Method::kSparse) << just_begun.reason;
  f.gpu_opening = GpuOpening(60);
  const Plan opened = plan(f);
  EXPECT_EQ(opened.method, Method::kPropagate) << opened.reason;
  EXPECT_NEAR(opened.device_s, predict_gpu_propagate_s(in, GpuOpening(60)), 1e-12);
}

TEST(Planner, TheSameFactsGiveTheSamePlan) {
  PlanFacts f = large_closure();
  f.gpu_looked_up = true;
  f.gpu = h200();
  const Plan a = plan(f), b = plan(f);
  EXPECT_EQ(a.method, b.method);
  EXPECT_EQ(a.reason, b.reason);
}

TEST(MethodRegistry, NamesParseBackAndEveryMethodButAutoRuns) {
  ASSERT_EQ(method_registry().front().method, Method::kAuto);
  for (const auto& e : method_registry()) {
    EXPECT_EQ(parse_method(e.name), e.method);
    EXPECT_EQ(method_name(e.method), e.name);
    EXPECT_EQ(e.run == nullptr, e.method == Method::kAuto) << e.name;
    EXPECT_FALSE(e.summary.empty()) << e.name;
    EXPECT_NE(method_help().find(std::string(e.name) + ": " + std::string(e.summary)),
              std::string::npos);
  }
  EXPECT_THROW(parse_method("fast"), UsageError);
}

// Sampling stops at the decisive reach: from there on sparse's prediction is four times the
// best it is compared with (the GPU's; when counting, the count by columns' too, which the
// reach does not change), so a reach cut there (a lower bound) leaves auto's choice as it
// was, for every size of history, 2 or 16 threads, and every reach beyond it.
TEST(Planner, ReachCutAtTheDecisiveReachKeepsTheChoice) {
  for (const bool count_only : {false, true})
    for (const unsigned threads : {2u, 16u})
      for (size_t n : {100'000, 1'000'000, 10'000'000}) {
        SCOPED_TRACE(std::string(count_only ? "counting" : "rows") + " on " +
                     std::to_string(threads) + " threads");
        PlanFacts f = large_closure();
        f.condensed->count_only = count_only;
        f.condensed->host_threads = threads;
        f.condensed->live_rows = 2000;
        f.vertices = f.condensed->vertices = f.condensed->components = n;
        f.edges = f.condensed->edges = f.condensed->condensed_edges = n + n / 5;
        f.gpu_looked_up = true;
        f.gpu = h200();
        const size_t cap = decisive_reach(*f.condensed);
        ASSERT_GT(cap, 64u);
        ASSERT_LE(cap, n);
        if (n >= 1'000'000) {  // where sampling cost most, it stops early
          EXPECT_LT(cap, n / 10);
        }
        for (double reach : {double(cap), double(n) / 4, double(n) / 2}) {
          f.condensed->mean_reach = reach;
          f.condensed->reach_cap = 0;
          const Method whole = plan(f).method;
          f.condensed->mean_reach = std::min(reach, double(cap));
          f.condensed->reach_cap = cap;
          const Plan cut = plan(f);
          EXPECT_EQ(cut.method, whole) << n << " reaching " << reach;
          if (cap < n) {  // from the cap on: the GPU, or when counting the count by columns,
                          // whose lead over sparse the reach beyond it only widens
            if (cut.method != Method::kPropagate) {
              EXPECT_TRUE(count_only) << cut.reason;
              EXPECT_NE(cut.reason.find("count by columns"), std::string::npos) << cut.reason;
            }
            if (reach >= double(cap)) {  // cut there, and said to be a bound
              EXPECT_NE(cut.reason.find("at least"), std::string::npos) << cut.reason;
            }
          }
        }
      }
}

// Only counting, the host may count by columns over live rows: on the H200's 16 host
// threads that beats the GPU's start-up at 200k commits (measured 0.11 s whole process
// against 0.39-0.50 on the GPU) but not at 1M (0.92-1.03 against 0.49-0.59) or 10M.
TEST(Planner, CountingOnlyTheHostCountsByColumnsWhereThatBeatsTheGpu) {
  for (auto [n, gpu_wins] :
       {std::pair{size_t{200'000}, false}, {size_t{1'000'000}, true}, {size_t{10'000'000}, true}}) {
    PlanFacts f = large_closure();
    f.vertices = f.condensed->vertices = f.condensed->components = n;
    f.edges = f.condensed->edges = f.condensed->condensed_edges = n + n / 5;
    f.condensed->mean_reach = double(n) / 2;
    f.condensed->count_only = true;
    f.condensed->host_threads = 16;
    f.gpu_looked_up = true;
    f.gpu = h200();
    const Plan p = plan(f);
    EXPECT_EQ(p.method, gpu_wins ? Method::kPropagate : Method::kSparse) << p.reason;
    if (!gpu_wins) {
      EXPECT_NE(p.reason.find("count by columns"), std::string::npos) << p.reason;
    }
    f.condensed->count_only = false;  // rows wanted: sparse would store them all
    EXPECT_EQ(plan(f).method, Method::kPropagate) << n;
  }
}

// The engine that answers questions on a graph: what is asked is taken as it is, with no
// fact gathered; auto first asks for the component count, then compares the closure's
// dense bound (components^2 / 8 bytes) with kClosureLimitBytes.
TEST(EnginePlanner, ARequestedEngineIsTakenWithoutCountingComponents) {
  for (Engine e : {Engine::kClosure, Engine::kIndex}) {
    const EnginePlan p = plan_engine({e, std::nullopt});
    EXPECT_FALSE(p.needs_components);
    EXPECT_EQ(p.engine, e);
    EXPECT_EQ(p.reason, "requested");
    // A component count changes nothing about a request.
    EXPECT_EQ(plan_engine({e, size_t{10'000'000}}).engine, e);
  }
}

TEST(EnginePlanner, AutoAsksForTheComponentCountFirst) {
  const EnginePlan p = plan_engine({Engine::kAuto, std::nullopt});
  EXPECT_TRUE(p.needs_components);
}

TEST(EnginePlanner, AutoIndexesOnlyAboveTheClosureLimit) {
  // 23170^2 / 8 is just under 64 MiB, 23171^2 / 8 just over.
  const size_t under = 23170, over = 23171;
  ASSERT_LE(double(under) * double(under) / 8, kClosureLimitBytes);
  ASSERT_GT(double(over) * double(over) / 8, kClosureLimitBytes);
  const EnginePlan small = plan_engine({Engine::kAuto, under});
  EXPECT_FALSE(small.needs_components);
  EXPECT_EQ(small.engine, Engine::kClosure) << small.reason;
  const EnginePlan large = plan_engine({Engine::kAuto, over});
  EXPECT_EQ(large.engine, Engine::kIndex) << large.reason;
  EXPECT_EQ(large.components, over);
  EXPECT_DOUBLE_EQ(large.closure_bytes, double(over) * double(over) / 8);
  EXPECT_NE(large.reason.find("23171 components"), std::string::npos) << large.reason;
  EXPECT_EQ(plan_engine({Engine::kAuto, size_t{0}}).engine, Engine::kClosure);
}

TEST(EnginePlanner, EngineNamesRoundTripAndOthersAreUsageErrors) {
  for (Engine e : {Engine::kAuto, Engine::kClosure, Engine::kIndex})
    EXPECT_EQ(parse_engine(engine_name(e)), e);
  EXPECT_THROW(parse_engine("bfs"), UsageError);
}

}  // namespace
}  // namespace closure

namespace closure {
namespace {

// A condensation's inputs as gather_cost_inputs() fills them, fixed: `live` rows kept by
// the count by columns, `row` words stored and `span` scanned per sparse row.
CostInputs fixed_inputs(size_t components, size_t edges, size_t live, double row, double span) {
  CostInputs in;
  in.vertices = in.components = components;
  in.edges = in.condensed_edges = edges;
  in.mean_reach = 32 * row;
  in.row_words = row;
  in.span_words = span;
  in.levels = components / 2;  // deep: sparse's threaded path does not run
  in.live_rows = live;
  in.count_only = true;
  in.host_threads = 2;
  return in;
}

// Long paths and low reach (a road network) keep many rows live: the count by columns
// then reads them from memory, and the same sweep is predicted slower per word than a
// history's, whose few live rows stay in cache.
TEST(CostModel, ManyLiveRowsMakeTheCountByColumnsMemoryBound) {
  const CostInputs history = fixed_inputs(130'000, 200'000, 180, 1000, 1300);
  CostInputs road = history;
  road.live_rows = 23'000;
  EXPECT_GT(predict_host_column_count_s(road), 2 * predict_host_column_count_s(history));
  double last = 0;
  for (size_t live : {1u, 100u, 10'000u, 100'000u}) {
    road.live_rows = live;
    const double s = predict_host_column_count_s(road);
    EXPECT_GE(s, last) << live;
    last = s;
  }
}

// The count by columns works over the words from a row's first column to its highest
// reached: where rows reach near ids only (1.5M disjoint pairs, 3M components: 2.5 s before
// each slice stopped at the lowest row reaching it, 0.1 s since, on 2 cores), it is
// predicted by those words and the few slices they span, not half a row's words in half
// the slices (11 s predicted); with the reach unknown, by half a row as before.
TEST(CostModel, TheCountByColumnsIsPredictedByTheWordsRowsReach) {
  CostInputs pairs = fixed_inputs(3'000'000, 1'500'000, 1, 0, 0);
  pairs.levels = 2;
  const double unknown = predict_host_column_count_s(pairs);
  pairs.reach_words = 1;
  const double local = predict_host_column_count_s(pairs);
  EXPECT_LT(local, 0.5);
  EXPECT_GT(unknown, 10 * local);
  double last = 0;
  for (double reach : {1.0, 100.0, 10'000.0, 46'875.0, 93'750.0, 1e9}) {
    pairs.reach_words = reach;
    const double s = predict_host_column_count_s(pairs);
    EXPECT_GE(s, last) << reach;  // more words reached never predict a faster count
    last = s;
  }
  EXPECT_GE(last, unknown);  // a row reaching all its words costs at least half a row
}

// More host threads never predict a slower count, nor a slower sparse run; the count
// gains from them, and sparse only where its threaded path runs (wide, large graphs).
TEST(CostModel, ThreadsNeverSlowAPredictionDown) {
  CostInputs in = fixed_inputs(130'000, 200'000, 5'000, 1000, 1300);
  std::vector<double> count, sparse;
  for (unsigned t : {1u, 2u, 4u, 16u}) {
    in.host_threads = t;
    count.push_back(predict_host_column_count_s(in));
    sparse.push_back(predict_host_sparse_s(in));
  }
  for (size_t i = 1; i < count.size(); ++i) {
    EXPECT_LE(count[i], count[i - 1]);
    EXPECT_LE(sparse[i], sparse[i - 1]);
  }
  EXPECT_LT(count.back(), count.front() / 2);
  EXPECT_EQ(sparse.back(), sparse.front()) << "deep: one thread whatever the budget";
  in.levels = 100;  // 1,300 components a level: threaded
  in.host_threads = 1;
  const double one = predict_host_sparse_s(in);
  in.host_threads = 16;
  EXPECT_LT(predict_host_sparse_s(in), one);
}

// Sparse costs what its rows store and scan: more of either, more time; rows that are
// runs (a chain: nothing stored) cost only the linear passes.
TEST(CostModel, SparseGrowsWithStoredAndScannedWords) {
  const CostInputs base = fixed_inputs(100'000, 150'000, 100, 100, 200);
  CostInputs more_rows = base, more_span = base, chain = base;
  more_rows.row_words = 1000;
  more_span.span_words = 2000;
  EXPECT_GT(predict_host_sparse_s(more_rows), predict_host_sparse_s(base));
  EXPECT_GT(predict_host_sparse_s(more_span), predict_host_sparse_s(base));
  // Rows that are runs store and scan nothing: what is left is sparse's pass over the
  // components, which misses the cache where the DAG's condensation streams, and costs less
  // than a graph with cycles', which pays Tarjan's pass besides.
  chain.row_words = chain.span_words = 0;
  CostInputs with_a_cycle = chain;
  with_a_cycle.components -= 1;
  EXPECT_GT(predict_host_sparse_s(chain), predict_host_linear_s(chain));
  EXPECT_LT(predict_host_sparse_s(chain), predict_host_linear_s(with_a_cycle));
  // Without the row estimate, the mean reach's words stand in for both.
  CostInputs unknown = base;
  unknown.row_words = -1;
  unknown.mean_reach = 32 * 1000;
  EXPECT_GT(predict_host_sparse_s(unknown), predict_host_sparse_s(base));
  // The linear passes grow with the graph.
  CostInputs bigger = base;
  bigger.vertices *= 10;
  bigger.edges *= 10;
  EXPECT_GT(predict_host_linear_s(bigger), 10 * predict_host_linear_s(base));
  // A graph without cycles (a component a vertex) is condensed by a topological pass that
  // streams its arrays: linear in its size, and cheaper than one with cycles past the cache.
  CostInputs dag = bigger;
  dag.components = dag.vertices;
  EXPECT_NEAR(predict_host_linear_s(dag), 10 * predict_host_linear_s(base), 1e-12);
  EXPECT_LT(2 * predict_host_linear_s(dag), predict_host_linear_s(bigger));
}

// gather_cost_inputs on a fixed graph: a path of 1,000 vertices is 1,000 components on
// one path, each row a run (nothing stored, nothing scanned), one row live at a time.
// The count by columns first touches its stored rows' pages, a live row's slot as wide as
// the words it reaches: on GRAIL's go (6,793 components, 1,365 live rows) a few words each,
// about 40 KB in all (it had been a KiB a row, 1.4 MB, when every slot was a slice wide;
// sparse and the count now measure 0.9 and 1.0 ms, `bench closure --predict`). The bounds
// below allow 0.05-0.4 ns a byte (kColumnFreshByteS is 0.09 on each of 2 threads); a slot a
// slice wide would be 8x more bytes.
TEST(CostModel, TheCountByColumnsPaysItsStoredRowsFreshPages) {
  const auto path = std::filesystem::path(CLOSURE_TEST_DATA_DIR) / "grail/go_sub_6793.gra";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  const Graph g = read_graph(path.string()).graph;
  const Condensation c = condense(g);
  CostInputs in = gather_cost_inputs(g, c, true, 2, false);
  ASSERT_EQ(in.live_rows, 1365u);
  // Every live row's pages: the prediction grows with them, a live row's slot holding the
  // words from its first column to the highest it reaches (go's rows: a few words each).
  ASSERT_GT(in.reach_words, 0);
  const double with_rows = predict_host_column_count_s(in);
  const double row_bytes = 4 * (std::min(in.reach_words, 256.0) + 1);
  in.live_rows = 1;
  EXPECT_GT(with_rows - predict_host_column_count_s(in), 1364 * row_bytes * 0.5e-10);
  EXPECT_LT(with_rows - predict_host_column_count_s(in), 1364 * row_bytes * 4e-10);
}

TEST(CostModel, GatheredInputsOfAPath) {
  std::vector<Edge> edges;
  for (vertex_t v = 0; v + 1 < 1000; ++v) edges.emplace_back(v, v + 1);
  const Graph g(1000, std::move(edges));
  const Condensation c = condense(g);
  const CostInputs in = gather_cost_inputs(g, c, true, 2, false);
  EXPECT_EQ(in.components, 1000u);
  EXPECT_EQ(in.condensed_edges, 999u);
  EXPECT_EQ(in.levels, 1000u);
  EXPECT_EQ(in.row_words, 0);
  EXPECT_EQ(in.span_words, 0);
  EXPECT_EQ(in.live_rows, 1u);
  EXPECT_GT(in.mean_reach, 400);  // the middles of 16 ranges reach 500 on average
  EXPECT_EQ(gather_cost_inputs(g, c, false, 2, false).live_rows, 0u) << "rows wanted: not counted";
}

// auto's inputs skip the live rows' pass where sparse is predicted faster than the count
// by columns at its least (one live row); the choice is then the one the full inputs make.
// A random sparse DAG (short rows: sparse wins) skips it; a history (columns win) does not.
TEST(CostModel, AutoCountsLiveRowsOnlyWhereTheCountCouldWin) {
  std::mt19937_64 rng(12);
  std::vector<Edge> edges;
  for (vertex_t v = 1; v < 20000; ++v) edges.emplace_back(vertex_t(rng() % v), v);
  const Graph tree(20000, std::move(edges));
  const Graph history = commit_history_dag(20000, 2);
  for (const Graph* g : {&tree, &history}) {
    const Condensation c = condense(*g);
    const CostInputs full = gather_cost_inputs(*g, c, true, 2, false);
    CostInputs capped = gather_cost_inputs(*g, c, true, 2, true);
    complete_cost_inputs(capped, c);
    const bool columns_full = predict_host_column_count_s(full) < predict_host_sparse_s(full);
    const bool columns_auto = predict_host_column_count_s(capped) < predict_host_sparse_s(capped);
    EXPECT_EQ(columns_auto, columns_full) << (g == &tree ? "tree" : "history");
    EXPECT_GT(full.live_rows, 0u);
    if (g == &tree) {
      EXPECT_FALSE(columns_full);
      EXPECT_EQ(capped.live_rows, 0u) << "sparse wins: no pass";
    } else {
      EXPECT_TRUE(columns_full);
      EXPECT_EQ(capped.live_rows, full.live_rows);
    }
  }
}

// A count's planning may gather the row estimate and the longest path beside the chain
// cover (estimate_rows_and_levels), then complete the rest: the live rows are still
// counted where the count by columns could win, as completing at once does, and
// completing twice changes nothing.
TEST(CostModel, RowsEstimatedFirstCompleteAsAtOnce) {
  const Graph history = commit_history_dag(20000, 2);
  const Condensation c = condense(history);
  // As auto's capped sample leaves them where it reached the decisive reach (10M commits).
  CostInputs left_out = gather_cost_inputs(history, c, true, 2, true);
  left_out.row_words = -1;
  left_out.levels = left_out.live_rows = 0;
  left_out.completed = false;
  CostInputs at_once = left_out;
  complete_cost_inputs(at_once, c);
  CostInputs first = left_out;
  estimate_rows_and_levels(first, c);
  EXPECT_EQ(first.levels, at_once.levels);
  EXPECT_EQ(first.live_rows, 0u) << "the live rows wait for the completion";
  complete_cost_inputs(first, c);
  EXPECT_GT(at_once.live_rows, 0u);
  EXPECT_EQ(first.live_rows, at_once.live_rows);
  EXPECT_EQ(first.row_words, at_once.row_words);
  EXPECT_EQ(first.reach_words, at_once.reach_words);
  first.live_rows = 7;
  complete_cost_inputs(first, c);
  EXPECT_EQ(first.live_rows, 7u) << "completed once";
}

}  // namespace
}  // namespace closure
