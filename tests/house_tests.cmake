# The house's rules: the shape of the source tree, checked like behaviour.
# (house.one_configuration_layer is in cli_promises_tests.cmake.)

# Folders include only folders below them, in the order tests/house/layers.py defines
# (docs/architecture.md, "Layers"), and no two include each other.
add_test(NAME house.layers_point_down
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/house/layers.py ${CMAKE_SOURCE_DIR})
# What users install holds neither the benchmarks, the float GEMM family (code, kernel text or
# tuning rows) nor the application's pieces: they are libraries of their own (src/bench,
# src/gemm, src/app).
add_test(NAME house.library_holds_no_bench_gemm_or_app
         COMMAND bash -c "! ${CMAKE_AR} t $<TARGET_FILE:closure_core> $<TARGET_FILE:closure_device> | grep -Ei 'bench|gemm|generators|run_graph|batch|worker_pool' && ! grep -aE 'myGEMM|sgemm|__kernel void mmul' $<TARGET_FILE:closure_core> $<TARGET_FILE:closure_device>")
# docs/cpp.md's example is the program the install test builds and runs.
add_test(NAME house.cpp_doc_shows_the_built_example
         COMMAND bash -c "sed -n '/^```cpp$/,/^```$/p' docs/cpp.md | sed '1d;$d' | diff - examples/find_package/reach.cpp"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# No function over 80 lines in src/ (every .cpp) and kernels/*.cl (ctags gives each function's
# lines; the kernels are read as C).
add_test(NAME house.short_functions_everywhere
         COMMAND bash -c "command -v ctags >/dev/null || { echo 'ctags missing: skipped'; exit 77; }; ctags --c++-kinds=f --c-kinds=f --langmap=C:+.cl --fields=+ne -o - $(find src -name '*.cpp') kernels/*.cl | awk -F'\\t' '{l=\"\";e=\"\"; for(i=1;i<=NF;i++){if($i~/^line:/)l=substr($i,6); if($i~/^end:/)e=substr($i,5)} if(e-l+1>80){print $2\":\"l\": \"$1\" has \"e-l+1\" lines\"; bad=1}} END{exit bad}'"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(house.short_functions_everywhere PROPERTIES SKIP_RETURN_CODE 77)
# No diagnostic switch in the kernels; each docs/benchmarks*.md a reference under 400 lines (today's
# figures only: git keeps the earlier ones).
add_test(NAME house.no_diag_switches_and_benchmarks_under_400_lines
         COMMAND bash -c "! grep -rn 'DIAG_' kernels src && for f in docs/benchmarks*.md; do test $(wc -l < $f) -lt 400 || exit 1; done"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# The startup order list (cmake/startup_order.cmake) still names the executable's functions,
# where the link uses it.
if(CLOSURE_STARTUP_ORDER_LINK)
  add_test(NAME house.startup_order_names_real_functions
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/house/startup_order_fresh.py
                   ${CLOSURE_STARTUP_ORDER_FILE} $<TARGET_FILE:closure>)
endif()
# docs/architecture.md is at most 250 lines and names only paths and symbols that exist; every
# link into docs/*.md from README.md and docs/ reaches a file and a heading.
add_test(NAME house.docs_name_real_things
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/house/docs_name_real_things.py ${CMAKE_SOURCE_DIR})
# Comments in src/, kernels/, python/, cmake/ and tests/ cite no file outside the repository
# and no issue by number.
add_test(NAME house.comments_are_self_contained
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/house/comments_are_self_contained.py ${CMAKE_SOURCE_DIR})
# Devices are chosen and opened in one place: only the session's DeviceOpener calls
# ocl::choose_device or makes an ocl::Runtime (the CLI, bench, Python and the service ask a
# Session); ocl/ itself and the tests are outside the rule.
add_test(NAME house.devices_open_only_in_the_session
         COMMAND bash -c "! grep -rnE 'ocl::choose_device|make_unique<ocl::Runtime>|ocl::Runtime [a-z_]+\\(' src python/src --include=*.cpp --include=*.hpp | grep -v '^src/closure/session/\\|^src/closure/ocl/'"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# One error convention: src/ and python/src/ throw only the error table's kinds (errors.hpp),
# never a standard exception (a front end could only guess its kind), except std::bad_alloc,
# which is the resource kind wherever it comes from.
add_test(NAME house.one_error_convention
         COMMAND bash -c "! grep -rnE 'throw +std::' src python/src | grep -vE 'throw +std::bad_alloc'"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# One read stage: the commands, the server and the MPI ranks read a user's graph through
# run_graph.hpp's read_input (the progress phase, trace, summary facts, output guard), never
# read_graph() of their own; bench's measurements (src/cli/bench_*_command.cpp) aside.
add_test(NAME house.one_read_stage
         COMMAND bash -c "! grep -rnE '(^|[^A-Za-z0-9_])read_graph *\\(' src/cli src/serve src/app --include=*.cpp --include=*.hpp | grep -vE '^src/app/tool/run_graph\\.cpp:|^src/cli/bench_[a-z_]+_command\\.cpp:'"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
# The OpenCL entry points (src/closure/ocl/opencl_entries.inc) are what their generator writes
# from the headers installed: a hand edit, or a header whose prototypes changed, fails here.
add_test(NAME house.opencl_entries_are_generated
         COMMAND bash -c "python3 tools/gen-opencl-entries.py | diff - src/closure/ocl/opencl_entries.inc"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
