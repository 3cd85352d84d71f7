// The host calibration: its text, its factors on the cost model's terms, the fit behind
// `closure bench closure --calibrate`, and the overlay row every Session applies.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "bench/calibration.hpp"
#include "bench/generators.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/host_calibration.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/host_tuning.hpp"
#include "closure/kernels/tuning_database.hpp"
#include "closure/session/session.hpp"

namespace closure {
namespace {

TEST(HostCalibration, TextReadsBackAndRefusesWhatIsNotAFactor) {
  const HostCalibration c = parse_host_calibration("memory=0.25,compute=2");
  EXPECT_EQ(c, (HostCalibration{2.0, 1.0, 1.0, 0.25}));
  EXPECT_EQ(parse_host_calibration(""), HostCalibration{});
  EXPECT_EQ(parse_host_calibration(format_host_calibration({0.015625, 64, 0.333, 1.5})),
            (HostCalibration{0.015625, 64, 0.333, 1.5}));
  for (const char* bad : {"compute", "compute=", "compute=1x", "speed=2", "compute=1,compute=2",
                          "compute=nan", "compute=inf", "compute=0", "compute=-1", "memory=65",
                          "memory=0.01", "compute=1,,memory=1", "=1"})
    EXPECT_THROW(parse_host_calibration(bad), UsageError) << bad;
}

// Inputs of a random DAG, gathered as bench closure --predict gathers them (uncapped).
CostInputs inputs_of(const Graph& g) {
  const Condensation c = condense(g);
  CostInputs in = gather_cost_inputs(g, c, true, 2, false);
  complete_cost_inputs(in, c);
  return in;
}

TEST(HostCalibration, EachFactorScalesItsTermsAndNoOther) {
  CostInputs in = inputs_of(random_dag(3000, 9000, 7));
  in.chains = 5;
  in.calibration = {};
  const double sparse = predict_host_sparse_s(in), columns = predict_host_column_count_s(in),
               chains = predict_host_chain_count_s(in), planning = predict_auto_planning_s(in);
  CostInputs twice = in;
  twice.calibration = {2, 2, 2, 2};
  EXPECT_NEAR(predict_host_sparse_s(twice), 2 * sparse, 1e-12);
  EXPECT_NEAR(predict_host_column_count_s(twice), 2 * columns, 1e-12);
  EXPECT_NEAR(predict_host_chain_count_s(twice), 2 * chains, 1e-12);
  EXPECT_NEAR(predict_auto_planning_s(twice), 2 * planning, 1e-12);
  // A small DAG stays in the caches: the memory factor changes nothing; sparse's factor only
  // sparse's prediction, the count by columns' only its own.
  CostInputs memory = in;
  memory.calibration.memory = 8;
  EXPECT_DOUBLE_EQ(predict_host_sparse_s(memory), sparse);
  CostInputs rows = in;
  rows.calibration.sparse = 4;
  EXPECT_GT(predict_host_sparse_s(rows), 1.5 * sparse);
  EXPECT_DOUBLE_EQ(predict_host_column_count_s(rows), columns);
  CostInputs cols = in;
  cols.calibration.columns = 4;
  EXPECT_GT(predict_host_column_count_s(cols), 1.5 * columns);
  EXPECT_DOUBLE_EQ(predict_host_sparse_s(cols), sparse);
  // Rows past kRowCacheBytes (32 MB) miss it: there the memory factor weighs.
  CostInputs big = in;
  big.components = 200'000;
  big.row_words = big.span_words = 200;
  const double before = predict_host_sparse_s(big);
  big.calibration.memory = 4;
  EXPECT_GT(predict_host_sparse_s(big), 1.5 * before);
}

// The reason auto gives names a calibration in force, and only then.
TEST(HostCalibration, TheReasonNamesACalibrationInForce) {
  CostInputs in = inputs_of(random_dag(3000, 9000, 7));
  in.calibration = {};
  EXPECT_EQ(describe_costs(in, 1.0, 1e30).find("calibrated"), std::string::npos);
  in.calibration.memory = 0.5;
  EXPECT_NE(describe_costs(in, 1.0, 1e30)
                .find("(host calibrated: compute=1,sparse=1,columns=1,memory=0.5)"),
            std::string::npos)
      << describe_costs(in, 1.0, 1e30);
}

// Rows measured on a machine 3x faster than the model's in every term: the fit brings them
// all within 2x, from none.
TEST(HostCalibration, FitBringsAUniformlyFasterMachineWithin2x) {
  std::vector<PredictedBenchRow> rows;
  const HostCalibration truth{1 / 3.0, 1 / 3.0, 1 / 3.0, 1 / 3.0};
  for (const auto& [n, m] : {std::pair{10000, 15000}, {8000, 40000}, {30000, 90000}})
    for (const char* method : {"sparse", "columns"}) {
      PredictedBenchRow r;
      r.inputs = inputs_of(random_dag(size_t(n), size_t(m), 3));
      r.run.method = method;
      r.run.status = "ok";
      r.run.seconds = repredicted(r, truth);
      ASSERT_GE(r.run.seconds, kCalibrationFloorS) << n;
      rows.push_back(r);
    }
  PredictedBenchRow tiny = rows[0];  // under the floor: left out
  tiny.run.seconds = 1e-6;
  rows.push_back(tiny);
  const CalibrationFit fit = fit_host_calibration(rows);
  EXPECT_EQ(fit.fitted, 6u);
  EXPECT_EQ(fit.within_before, 0u);
  EXPECT_EQ(fit.within_after, 6u) << describe_fit(fit);
  EXPECT_LT(fit.log_error_after, fit.log_error_before);
  for (size_t i = 0; i < 6; ++i) {
    const double ratio = rows[i].run.seconds / repredicted(rows[i], fit.calibration);
    EXPECT_GE(ratio, 0.5) << i;
    EXPECT_LE(ratio, 2.0) << i;
  }
}

// The overlay's "host" row reaches the cost model through any Session: this processor's
// row before the default one; CLOSURE_TUNING=off none; a broken row names its line.
TEST(HostCalibration, ASessionAppliesTheOverlaysHostRow) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("closure_host_tuning_" + std::to_string(::getpid()) + ".txt"))
                               .string();
  const char* was = std::getenv(kTuningEnv);
  const std::string before = was ? was : "";
  const std::string cpu = host_processor().name;
  // A row for a processor whose name holds this one's (a substring matches a GPU's row, not
  // a processor's), then this processor's own.
  std::ofstream(path) << "boolean type=gpu tile_n=2\nhost default compute=0.5,memory=2\n"
                      << "host device=\"" << cpu << " 9999X\" columns=5\n"
                      << (cpu.empty() ? "" : "host device=\"" + cpu + "\" sparse=3\n");
  ::setenv(kTuningEnv, path.c_str(), 1);
  { Session s; }
  EXPECT_EQ(current_host_calibration(),
            cpu.empty() ? (HostCalibration{0.5, 1, 1, 2}) : (HostCalibration{1, 3, 1, 1}));
  EXPECT_EQ(CostInputs{}.calibration, current_host_calibration());
  const std::string broken = path + ".broken";
  std::ofstream(broken) << "# first\nhost default compute=fast\n";
  ::setenv(kTuningEnv, broken.c_str(), 1);
  try {
    Session s;
    FAIL() << "a broken host row was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(broken + ":2"), std::string::npos) << e.what();
  }
  ::setenv(kTuningEnv, "off", 1);
  { Session s; }
  EXPECT_EQ(current_host_calibration(), HostCalibration{});
  // Sessions read the overlay's host rows alone (overlay_tuning_rows_of), so a built-in one
  // would never apply: there is none, and the overlay's rows are the family's first.
  EXPECT_TRUE(tuning_rows_of(kHostTuningFamily).empty());
  ::setenv(kTuningEnv, path.c_str(), 1);
  const std::vector<TuningRow> overlay = overlay_tuning_rows_of(kHostTuningFamily);
  ASSERT_EQ(overlay.size(), cpu.empty() ? 2u : 3u);
  EXPECT_EQ(overlay.front().params, "compute=0.5,memory=2");
  EXPECT_EQ(tuning_rows_of("boolean").front().params, "tile_n=2");
  if (was)
    ::setenv(kTuningEnv, before.c_str(), 1);
  else
    ::unsetenv(kTuningEnv);
  set_current_host_calibration({});
  std::filesystem::remove(path);
  std::filesystem::remove(broken);
}

}  // namespace
}  // namespace closure
