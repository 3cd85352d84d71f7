# The house's rules (issue 25): the shape of the source tree, checked like behaviour.
# (house.one_configuration_layer is in cli_promises_tests.cmake.)

# Folders include only folders below them, in the order tests/house/layers.py defines
# (docs/architecture.md, "Layers"), and no two include each other.
add_test(NAME house.layers_point_down
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/house/layers.py ${CMAKE_SOURCE_DIR})
# What users install holds neither the benchmarks nor the float GEMM family: they are
# libraries of their own (src/bench, src/gemm).
add_test(NAME house.library_holds_no_bench_or_gemm
         COMMAND bash -c "! ${CMAKE_AR} t $<TARGET_FILE:closure_lib> | grep -Ei 'bench|gemm|generators'")
# docs/cpp.md's example is the program the install test builds and runs.
add_test(NAME house.cpp_doc_shows_the_built_example
         COMMAND bash -c "sed -n '/^```cpp$/,/^```$/p' docs/cpp.md | sed '1d;$d' | diff - examples/find_package/reach.cpp"
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
