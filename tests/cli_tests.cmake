# CLI tests through CTest: the `closure` binary as users run it.
set(CLOSURE_BIN $<TARGET_FILE:closure>)
add_test(NAME cli.help COMMAND ${CLOSURE_BIN} --help)
set_tests_properties(cli.help PROPERTIES PASS_REGULAR_EXPRESSION "transitive closure")
add_test(NAME cli.version COMMAND ${CLOSURE_BIN} --version)
set_tests_properties(cli.version PROPERTIES PASS_REGULAR_EXPRESSION "closure ${PROJECT_VERSION}")
add_test(NAME cli.devices COMMAND ${CLOSURE_BIN} devices)
set_tests_properties(cli.devices PROPERTIES PASS_REGULAR_EXPRESSION "host")
