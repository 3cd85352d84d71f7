// The planner is a pure function: the same facts give the same plan, with no device and
// no graph. These cases pin auto's rule (planner.cpp) at its boundaries.
#include <gtest/gtest.h>

#include "closure/algorithms/planner.hpp"
#include "closure/engine/methods.hpp"
#include "closure/errors.hpp"
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

TEST(Planner, ALargeClosureWithoutAGpuStaysOnTheHost) {
  PlanFacts f = large_closure();
  f.gpu_looked_up = true;  // looked, none found
  const Plan p = plan(f);
  EXPECT_EQ(p.need, Plan::Need::kNothing);
  EXPECT_EQ(p.method, Method::kSparse);
  EXPECT_NE(p.reason.find("so sparse on the host"), std::string::npos) << p.reason;
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

// Sampling stops at the decisive reach: from there on the host's prediction is four times
// the GPU's, so a reach cut there (a lower bound) leaves auto's choice as it was, for
// every size of history and every reach beyond it.
TEST(Planner, ReachCutAtTheDecisiveReachKeepsTheChoice) {
  for (size_t n : {100'000, 1'000'000, 10'000'000}) {
    PlanFacts f = large_closure();
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
      if (cap < n) {  // cut: the GPU, whose lead the reach beyond the cap only widens
        EXPECT_EQ(cut.method, Method::kPropagate) << cut.reason;
        EXPECT_NE(cut.reason.find("at least"), std::string::npos) << cut.reason;
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
