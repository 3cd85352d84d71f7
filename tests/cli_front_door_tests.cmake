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
# Every parser the CLI calls and every CLOSURE_* setting, each with a bad value (the script
# fails when a parser or a setting has no case).
cli_test(front_door.every_parser_and_setting_refuses_bad_values --stdout "^bad values ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/bad_values.sh ${CLOSURE_BIN} ${CMAKE_SOURCE_DIR} ${FD}/bad-values)
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

# An output larger than its file system can hold is refused at once with the sizes and the
# way on (an index, reach), never written until ENOSPC: a 40,000-vertex chain of 500-byte
# labels has 8e8 pairs, about 800 GB as an edge list, more than any disk CI runs on.
cli_test(front_door.output_over_free_space_refused --status 4 --stderr "free on the file system of" --stderr "closure index .*longchain.txt -o" --no-file ${FD}/lc.txt --
         bash -c "awk 'BEGIN { l = \"x\"\; while (length(l) < 500) l = l \"x\"\; for (i = 0\; i < 40000\; i++) print l i, l (i + 1) }' > ${FD}/longchain.txt && ${CLOSURE_BIN} -q ${FD}/longchain.txt -o ${FD}/lc.txt --max-output 1000T")
# The same chain in a file of its own: the test above rewrites longchain.txt, and ctest -j
# once ran the two together ("the file changed while it was read").
cli_test(front_door.output_over_limit_and_disk_says_force_would_not_help --status 4 --stderr "; --force would not help" --stderr "closure query" --
         bash -c "test -s ${FD}/longchain-limit.txt || awk 'BEGIN { l = \"x\"\; while (length(l) < 500) l = l \"x\"\; for (i = 0\; i < 40000\; i++) print l i, l (i + 1) }' > ${FD}/longchain-limit.txt\; ${CLOSURE_BIN} -q ${FD}/longchain-limit.txt -o ${FD}/lc2.txt")
cli_test(front_door.output_over_limit_that_fits_says_force --status 4 --stderr "pass --force to write it anyway" --stderr "closure index" --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${FD}/small.txt --max-output 10)

# query on an index takes no closure options: --method, --device, --kernel-params would change
# nothing there, so they are refused rather than silently ignored.
cli_test(front_door.query_index_refuses_closure_options --status 2 --stderr "would change nothing" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/cycle.txt -o ${FD}/c.idx && ${CLOSURE_BIN} query ${FD}/c.idx 1 2 --method square --kernel-params tile_n=4")
# Nor --engine closure (no graph to close) or how to read a graph (no text to parse).
cli_test(front_door.query_index_refuses_engine_closure --status 2 --stderr "is an index file, which answers from the index" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/cycle.txt -o ${FD}/c2.idx && ${CLOSURE_BIN} query ${FD}/c2.idx 1 2 --engine closure")
cli_test(front_door.query_index_refuses_read_options --status 2 --stderr "not a graph to read, so --input-format --header --delimiter would change nothing" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/cycle.txt -o ${FD}/c3.idx && ${CLOSURE_BIN} query ${FD}/c3.idx 1 2 -f csv --header --delimiter :")
cli_test(front_door.query_engine_index_refuses_device --status 2 --stderr "--engine index answers without computing" --
         ${CLOSURE_BIN} query ${DATA}/cycle.txt 1 2 --engine index --device cpu)

# query reads and closes a graph through the run pipeline: the same warning and refusal as
# run under a memory limit, the same progress phases.
cli_test(front_door.query_same_pipeline_under_ulimit --stdout "^query same door ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/query_same_door.sh ${CLOSURE_BIN} ${FD}/query-door)

# reach, reduce, index (and --append) and serve on a graph read through run's read stage:
# its trace milestones, its progress phase on a terminal, its output guard before reading.
cli_test(front_door.every_command_reads_through_the_read_stage --stdout "^read stage door ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/read_stage_door.sh ${CLOSURE_BIN} ${DATA} ${FD}/read-stage)

# MPI only under a launcher: the module is never linked, and a missing, broken or foreign
# one is refused with exit 4.
cli_test(front_door.mpi_module_only_under_a_launcher --stdout "^mpi module ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/mpi_module.sh ${CLOSURE_BIN} ${FD}/mpi-module)
