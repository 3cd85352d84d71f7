# CLI tests of the one front door: every command writes through the same writers and output
# guard, and every parser reports the same error kinds (exit 2 usage, 3 input, 4 resource).
set(FD ${OUT}/front-door)
file(MAKE_DIRECTORY ${FD})

# One writer per format: reduce writes what -o names, labels escaped as run escapes them.
cli_test(front_door.reduce_writes_every_format --stdout "^reduce writers ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/reduce_writers.sh ${CLOSURE_BIN} ${FD}/reduce)
cli_test(front_door.reduce_json_with_stdout_refused --status 2 --stderr "both write to standard output" --
         ${CLOSURE_BIN} reduce ${DATA}/diamond.txt --json -o -)

# One output guard: batch owns names in --out, never what a link there points to.
cli_test(front_door.batch_owned_names_never_through_links --stdout "^batch ownership ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/batch_ownership.sh ${CLOSURE_BIN} ${FD}/batch)

# One error convention: a bad value is a usage error (exit 2, the option named) whichever
# command or setting carries it.
cli_test(front_door.batch_bad_device_is_usage --status 2 --stderr "no OpenCL device matches 'nosuch'" --
         ${CLOSURE_BIN} batch ${DATA}/diamond.txt --out ${FD}/batch-device --device nosuch)
cli_test(front_door.kernel_params_out_of_range_is_usage --status 2 --stderr "^closure: --kernel-params: .*tile_n=0 out of range" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --method square --kernel-params tile_n=0)
cli_test(front_door.kernel_params_not_a_number_is_usage --status 2 --stderr "^closure: --kernel-params: not a number" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --method square --kernel-params tile_n=x)
cli_test(front_door.bool_params_env_out_of_range_is_usage --status 2 --stderr "^closure: CLOSURE_BOOL_PARAMS: .*out of range" --
         env CLOSURE_BOOL_PARAMS=tile_n=0 ${CLOSURE_BIN} ${DATA}/diamond.txt --method square --device cpu)
cli_test(front_door.bool_params_env_unknown_key_is_usage --status 2 --stderr "^closure: CLOSURE_BOOL_PARAMS: unknown kernel parameter" --
         env CLOSURE_BOOL_PARAMS=tile_q=2 ${CLOSURE_BIN} ${DATA}/diamond.txt --method square --device cpu)

# The command line: a mistyped command is named with the one meant; CLI11's messages carry
# the tool's prefix; options that only tune --verify are refused without it.
cli_test(front_door.mistyped_command_suggests --status 2 --stderr "^closure: unknown command 'runn'. did you mean `closure run`" --
         ${CLOSURE_BIN} runn ${DATA}/diamond.txt)
cli_test(front_door.mistyped_query_suggests --status 2 --stderr "did you mean `closure query`" --
         ${CLOSURE_BIN} qeury ${DATA}/diamond.txt 1 2)
cli_test(front_door.missing_graph_is_not_a_command --status 3 --stderr "^closure: runn.txt: cannot open" --
         bash -c "cd ${FD} && ${CLOSURE_BIN} runn.txt")
cli_test(front_door.cli11_messages_have_the_prefix --status 2 --stderr "^closure: The following argument was not expected: --bogus" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --bogus)
cli_test(front_door.verify_sources_needs_verify --status 2 --stderr "^closure: --verify-sources requires --verify" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --verify-sources 10)
cli_test(front_door.verify_memory_needs_verify --status 2 --stderr "^closure: --verify-memory .* needs --verify" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --verify-memory 1G)
cli_test(front_door.batch_verify_memory_needs_verify --status 2 --stderr "needs --verify" --
         ${CLOSURE_BIN} batch ${DATA}/diamond.txt --out ${FD}/batch-vm --verify-memory 1G)
cli_test(front_door.batch_help_lists_every_output_format --stdout "One of: edges, matrix-market, json, binary, csv, tsv" --
         ${CLOSURE_BIN} batch --help)
