# CLI tests of the promises every command keeps by construction: one input source
# (a pipe is never half-read to tell an index from a graph), one output guard (no command
# writes over its own input), formats never misread (CSV, TSV, %label round trips, '#'
# labels), errors in their class, bounded configuration files, and the memory sweep.
set(PR ${OUT}/promises)
file(MAKE_DIRECTORY ${PR})
set(CHAIN ${DATA}/diamond.txt)  # 1 -> 2 -> 4 -> 5, 1 -> 3 -> 4

# One input source: a pipe, process substitution or stdin gives the answers the file gives.
cli_test(promises.query_process_substitution --stdout "^1 5 yes$" --
         bash -c "${CLOSURE_BIN} query <(cat ${CHAIN}) 1 5")
cli_test(promises.query_dev_stdin_pipe --stdout "^1 5 yes$" --
         bash -c "cat ${CHAIN} | ${CLOSURE_BIN} query /dev/stdin 1 5")
cli_test(promises.query_index_from_a_pipe --stdout "^1 5 yes$" --stdout "^5 1 no$" --
         bash -c "${CLOSURE_BIN} index -q ${CHAIN} -o ${PR}/d.idx && cat ${PR}/d.idx | ${CLOSURE_BIN} query - 1 5 && ${CLOSURE_BIN} query <(cat ${PR}/d.idx) 5 1")
cli_test(promises.query_pipe_same_as_file --stdout "^same$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/pipe_vs_file.sh ${CLOSURE_BIN} ${PR}/pipe)

# One output guard: index and reduce refuse their own input (by any name), as run does.
cli_test(promises.index_onto_input_refused --status 2 --stderr "is an input of this command" --
         bash -c "cp ${CHAIN} ${PR}/self1.txt && ${CLOSURE_BIN} index -q ${PR}/self1.txt -o ${PR}/self1.txt\; rc=$?\; cmp ${CHAIN} ${PR}/self1.txt && exit $rc")
cli_test(promises.reduce_onto_input_refused --status 2 --stderr "is an input of this command" --
         bash -c "cp ${CHAIN} ${PR}/self2.txt && ${CLOSURE_BIN} reduce -q ${PR}/self2.txt -o ${PR}/self2.txt\; rc=$?\; cmp ${CHAIN} ${PR}/self2.txt && exit $rc")
cli_test(promises.reduce_onto_input_by_symlink_refused --status 2 --stderr "is an input of this command" --
         bash -c "cp ${CHAIN} ${PR}/self3.txt && ln -sf self3.txt ${PR}/self3-link.txt && ${CLOSURE_BIN} reduce -q ${PR}/self3.txt -o ${PR}/self3-link.txt\; rc=$?\; cmp ${CHAIN} ${PR}/self3.txt && exit $rc")

# Formats: CSV as pandas writes it (header, index column, quoted fields), "a, b" lines and a
# "source, target" header, TSV with a header; never the vertices "a," or "source".
cli_test(promises.csv_pandas_index_column --stdout "\"vertices\": 4" --stdout "\"edges\": 3" --stdout "\"pairs\": 6" --
         ${CLOSURE_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/data/csv/pandas_index.csv --json)
cli_test(promises.csv_quoted_field_is_one_label --stdout "^a b yes$" --
         bash -c "${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/csv/pandas_index.csv --json -o ${PR}/pi.json && grep -q '\"b, jr\"' ${PR}/pi.json && ${CLOSURE_BIN} query ${CMAKE_CURRENT_SOURCE_DIR}/data/csv/pandas_index.csv a b")
cli_test(promises.csv_numbers_with_header --stdout "\"vertices\": 3" --stdout "\"pairs\": 9" --
         ${CLOSURE_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/data/csv/numbers_header.csv --json)
cli_test(promises.comma_space_lines_are_edges --stdout "^a b$" --stdout "^a c$" --stdout "^b c$" --
         bash -c "printf 'a, b\\nb, c\\n' > ${PR}/cs.txt && ${CLOSURE_BIN} -q ${PR}/cs.txt -o - | sort")
cli_test(promises.comma_space_header_is_a_header --stdout "^3 pairs$" --
         bash -c "printf 'source, target\\n1, 2\\n2, 3\\n' > ${PR}/csh.txt && ${CLOSURE_BIN} -q ${PR}/csh.txt -o - | grep -c . | sed 's/$/ pairs/' && ! ${CLOSURE_BIN} -q ${PR}/csh.txt -o - | grep -q source")
cli_test(promises.tsv_with_header --stdout "^x z$" --
         bash -c "printf 'source\\ttarget\\nx\\ty\\ny\\tz\\n' > ${PR}/t.tsv && ${CLOSURE_BIN} -q ${PR}/t.tsv -o - | sort")
# A header on a tab-separated edge list: refused in a .txt (docs/formats.md, edge lists), read
# as TSV's header in a .tsv.
cli_test(promises.tsv_header_is_read_in_a_tsv --stdout "\"vertices\": 3" --stdout "\"pairs\": 3" --
         bash -c "cp ${BAD}/header.txt ${PR}/header.tsv && ${CLOSURE_BIN} ${PR}/header.tsv --json")
cli_test(promises.csv_unterminated_quote_names_the_line --status 3 --stderr ":2: a quoted field does not end" --
         bash -c "printf 'a,b\\n\"c,d\\n' > ${PR}/bad.csv && ${CLOSURE_BIN} -q ${PR}/bad.csv")
# Matrix Market output keeps the labels: read back, its closure is the input's, label for label.
cli_test(promises.mtx_round_trip_keeps_labels --stdout "^same$" --
         bash -c "${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/names_escaped.txt -o ${PR}/names.mtx && ${CLOSURE_BIN} -q ${PR}/names.mtx -o ${PR}/back.txt && ${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/names_escaped.txt -o ${PR}/direct.txt && sort ${PR}/back.txt > ${PR}/a && sort ${PR}/direct.txt > ${PR}/b && grep -q 'carol' ${PR}/a && cmp ${PR}/a ${PR}/b && echo same")
cli_test(promises.mtx_duplicate_label_refused --status 3 --stderr "two vertices have the label" --
         bash -c "printf '%%%%MatrixMarket matrix coordinate pattern general\\n%%label 1 a\\n%%label 2 a\\n2 2 1\\n1 2\\n' > ${PR}/dup.mtx && ${CLOSURE_BIN} -q ${PR}/dup.mtx")
# A label starting with '#' is asked about as the writer escapes it.
cli_test(promises.query_hash_label --stdout "yes$" --
         bash -c "printf '\\\\#a b\\n' > ${PR}/hash.txt && ${CLOSURE_BIN} query ${PR}/hash.txt '\\#a' b && printf '\\\\#a b\\n' | ${CLOSURE_BIN} query -q ${PR}/hash.txt --pairs - | grep -q 'yes$'")

# Errors in their class.
cli_test(promises.batch_missing_input_is_input_error --status 3 --stderr "/nonexistent-graph: does not exist" --
         ${CLOSURE_BIN} batch /nonexistent-graph --out ${PR}/b1)
cli_test(promises.batch_stdin_is_usage --status 2 --stderr "not standard input" --
         ${CLOSURE_BIN} batch - --out ${PR}/b2)
cli_test(promises.batch_time_limit_nan_refused --status 2 --stderr "finite number of seconds" --
         ${CLOSURE_BIN} batch ${CHAIN} --out ${PR}/b3 --file-time-limit nan)
cli_test(promises.tuning_garbage_is_usage --status 2 --stderr "tuning overlay" --
         bash -c "echo 'bool nonsense' > ${PR}/tuning.txt && CLOSURE_TUNING=${PR}/tuning.txt ${CLOSURE_BIN} -q ${CHAIN} --method square")
cli_test(promises.bool_params_garbage_is_usage --status 2 --stderr "CLOSURE_BOOL_PARAMS" --
         bash -c "CLOSURE_BOOL_PARAMS=garbage ${CLOSURE_BIN} -q ${CHAIN} --method square")
# A default overlay path through a file ($HOME naming one) is no overlay, as a missing file is.
cli_test(promises.tuning_default_path_through_a_file_is_none --stdout "^no-overlay-ok$" --
         bash -c "touch ${PR}/home-file && env -u XDG_CACHE_HOME -u CLOSURE_TUNING HOME=${PR}/home-file POCL_CACHE_DIR=${PR}/pocl-cache ${CLOSURE_BIN} -q ${CHAIN} --method square && echo no-overlay-ok")
# A device or FIFO as the tuning overlay is refused at once: no unbounded read, no hang.
cli_test(promises.tuning_dev_zero_refused --status 2 --stderr "not a regular file" --
         bash -c "CLOSURE_TUNING=/dev/zero timeout 60 ${CLOSURE_BIN} -q ${CHAIN} --method square")
cli_test(promises.tuning_fifo_refused --status 2 --stderr "not a regular file" --
         bash -c "rm -f ${PR}/fifo && mkfifo ${PR}/fifo && CLOSURE_TUNING=${PR}/fifo timeout 60 ${CLOSURE_BIN} -q ${CHAIN} --method square")
# A host run reads the overlay too (its "host" row: this machine's calibration), and a
# FIFO there never hangs it.
cli_test(promises.tuning_fifo_refused_on_the_host --status 2 --stderr "not a regular file" --
         bash -c "rm -f ${PR}/fifo2 && mkfifo ${PR}/fifo2 && CLOSURE_TUNING=${PR}/fifo2 timeout 60 ${CLOSURE_BIN} -q ${CHAIN} --device host")
# --calibrate fits to the graphs named (none: refused); --save writes this processor's
# "host" row, which the next run reads back (a broken one would be exit 2).
cli_test(promises.calibrate_without_graphs_is_usage --status 2 --stderr "name the graphs" --
         ${CLOSURE_BIN} bench closure --calibrate)
cli_test(promises.calibrate_save_without_overlay_refused_first --status 2 --stderr "no tuning overlay file" --
         env CLOSURE_TUNING=off ${CLOSURE_BIN} bench closure --calibrate --save --generated chain)
cli_test(promises.calibrate_save_needs_calibrate --status 2 --stderr "calibrate" --
         ${CLOSURE_BIN} bench closure --save ${CHAIN})
cli_test(promises.calibrate_saves_a_host_row --stdout "^host-row-ok$" --
         bash -c "rm -f ${PR}/calibrated.txt && CLOSURE_TUNING=${PR}/calibrated.txt ${CLOSURE_BIN} bench closure --calibrate --save --no-boost --no-classic --repeat 1 --generated random-dag:5k:20k > ${PR}/calibrate.log && grep -Eq '^host  (device=.*|default)  compute=[0-9.e+-]+,sparse=[0-9.e+-]+,columns=[0-9.e+-]+,memory=[0-9.e+-]+$' ${PR}/calibrated.txt && CLOSURE_TUNING=${PR}/calibrated.txt ${CLOSURE_BIN} -q ${CHAIN} && echo host-row-ok")

# Many threads under a small address space: a result or a message, never an abort.
add_test(NAME cli.promises.threads_under_ulimit
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/threads_under_ulimit.sh ${CLOSURE_BIN} ${PR}/threads-ulimit)
set_tests_properties(cli.promises.threads_under_ulimit PROPERTIES PASS_REGULAR_EXPRESSION "threads under ulimit ok")
# The CPU device under ulimit -v around what its rows need: a result or exit 4, never
# PoCL's abort (tests/cli/cpu_device_under_ulimit.sh).
add_test(NAME cli.promises.cpu_device_under_ulimit
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/cpu_device_under_ulimit.sh ${CLOSURE_BIN} ${PR}/cpu-ulimit)
set_tests_properties(cli.promises.cpu_device_under_ulimit PROPERTIES PASS_REGULAR_EXPRESSION "cpu device under ulimit ok"
                     TIMEOUT 600)
# The memory promise at a few limits (tools and limits: tests/cli/memory_sweep.sh).
add_test(NAME cli.promises.under_ulimit_sweep
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/memory_sweep.sh ${CLOSURE_BIN} ${PR}/sweep 60 100 200 400)
set_tests_properties(cli.promises.under_ulimit_sweep PROPERTIES TIMEOUT 900)
if(CLOSURE_PYTHON)  # and Python's transitive_closure and build_index
  set_tests_properties(cli.promises.under_ulimit_sweep PROPERTIES ENVIRONMENT
    "CLOSURE_PYTHONPATH=${CMAKE_BINARY_DIR}/python;CLOSURE_PYTHON=${Python3_EXECUTABLE}")
endif()

# A run whose threads cannot start (ulimit -u, no memory left for a stack) is a resource
# error that names the memory left, not TBB's bare words. pthread_create fails through a
# preloaded shim; not under the sanitizers, whose runtime must be the first library loaded.
if(NOT CLOSURE_SANITIZE)
  add_library(fail_thread_start MODULE support/fail_thread_start.cpp)
  cli_test(promises.thread_start_failure_is_a_resource_error --status 4
           --stderr "a thread could not start .* left to this process" --
           bash -c "python3 ${CMAKE_SOURCE_DIR}/tools/gen_commit_dag.py 200000 2 > ${PR}/h200k.txt && LD_PRELOAD=$<TARGET_FILE:fail_thread_start> ${CLOSURE_BIN} -q ${PR}/h200k.txt")
endif()

# A closure that cannot fit names `closure index` / `query` / `reach` for the user's file, and
# following that hint works under the same ulimit -v (tests/cli/memory_hint.sh).
cli_test(promises.out_of_memory_names_the_index_under_ulimit --stdout "^memory hint ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/memory_hint.sh ${CLOSURE_BIN} ${PR}/memory-hint)

# batch: owns what it writes, one at a time per --out, no worker outlives it.
cli_test(promises.batch_guard --stdout "^batch guard ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/batch_guard.sh ${CLOSURE_BIN} ${PR}/batch-guard)

# JSON stays JSON: two labels that are not UTF-8 stay distinct (\udcNN), and malformed
# --pairs lines are JSON objects too.
cli_test(promises.json_non_utf8_labels_stay_distinct --stdout "udcff" --stdout "udcfe" --stdout "\"count\": 3" --
         bash -c "printf 'a \\377\\na \\376\\na b\\n' > ${PR}/bytes.txt && ${CLOSURE_BIN} reach ${PR}/bytes.txt a --json")
cli_test(promises.query_pairs_json_lines_are_all_json --stdout "^4 json lines$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/json_lines.sh ${CLOSURE_BIN} ${DATA}/diamond.txt)

# Output extensions are matched case aside.
cli_test(promises.output_extension_case_aside --stdout "^%%MatrixMarket" --stdout "^gzip-json-ok$" --
         bash -c "${CLOSURE_BIN} -q ${CHAIN} -o ${PR}/upper.MTX && head -1 ${PR}/upper.MTX && ${CLOSURE_BIN} -q ${CHAIN} -o ${PR}/upper.Json.GZ && gzip -dc ${PR}/upper.Json.GZ | grep -q successors && echo gzip-json-ok")
# -o c.csv writes CSV (quoted where needed) that reads back as the same closure; -o
# c.graphml is refused rather than filled with an edge list (c.dot draws:
# cli_formats_tests.cmake).
cli_test(promises.csv_output_round_trip --stdout "^source,target$" --stdout "^\"x, y\",a$" --stdout "^same$" --
         bash -c "printf 'a,b\\n\"x, y\",a\\n' > ${PR}/w.csv && ${CLOSURE_BIN} -q ${PR}/w.csv -o ${PR}/wc.csv && cat ${PR}/wc.csv && ${CLOSURE_BIN} -q ${PR}/wc.csv -o ${PR}/wc2.csv && ${CLOSURE_BIN} -q ${PR}/w.csv -o ${PR}/wc.tsv && ${CLOSURE_BIN} -q ${PR}/wc.tsv -o ${PR}/wc3.csv && tail -n +2 ${PR}/wc.csv | sort > ${PR}/s1 && tail -n +2 ${PR}/wc2.csv | sort > ${PR}/s2 && tail -n +2 ${PR}/wc3.csv | sort > ${PR}/s3 && cmp ${PR}/s1 ${PR}/s2 && cmp ${PR}/s1 ${PR}/s3 && echo same")
cli_test(promises.foreign_output_extension_refused --status 2 --stderr "does not write graphml files" --no-file ${PR}/g.graphml --
         ${CLOSURE_BIN} -q ${CHAIN} -o ${PR}/g.graphml)
# DIMACS's .max and .col and Matrix Market's .mm are read as those formats: an edge list
# under their names was written, and read back refused.
foreach(ext max col mm)
  cli_test(promises.input_extension_output_refused_${ext} --status 2
           --stderr "does not write ${ext} files" --no-file ${PR}/g.${ext} --
           ${CLOSURE_BIN} -q ${CHAIN} -o ${PR}/g.${ext})
endforeach()

# The house: the environment is read in one configuration layer only.
add_test(NAME house.one_configuration_layer
         COMMAND bash -c "cd ${CMAKE_SOURCE_DIR} && ! grep -rn 'getenv' src python/src | grep -v '^src/closure/config\\.[ch]pp:'")

# A full disk under standard output is a failure (exit 4), not a silent loss.
cli_test(promises.stdout_on_a_full_disk --status 4 --stderr "cannot write standard output" --
         bash -c "${CLOSURE_BIN} ${CHAIN} --json > /dev/full")
