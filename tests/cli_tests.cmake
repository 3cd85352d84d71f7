# CLI tests through CTest: the `closure` binary as users run it, every subcommand, every
# input format, the output formats and every input error (tests/cli/expect.sh checks the
# exit status, the output and that no partial file is left).
set(CLOSURE_BIN $<TARGET_FILE:closure>)
set(EXPECT ${CMAKE_CURRENT_SOURCE_DIR}/cli/expect.sh)
set(DATA ${CMAKE_SOURCE_DIR}/data)
set(BAD ${CMAKE_CURRENT_SOURCE_DIR}/data/bad)
set(OUT ${CMAKE_CURRENT_BINARY_DIR}/cli-out)
file(MAKE_DIRECTORY ${OUT})

function(cli_test name)
  add_test(NAME cli.${name} COMMAND bash ${EXPECT} ${ARGN})
endfunction()

cli_test(help --stdout "transitive closure" --stdout "Exit status" -- ${CLOSURE_BIN} --help)
cli_test(version --stdout "closure ${PROJECT_VERSION}" -- ${CLOSURE_BIN} --version)
cli_test(devices --stdout "host" -- ${CLOSURE_BIN} devices)
# OpenCL is opened at its first call, not linked: without a loader the host does the work.
cli_test(opencl_off_devices_lists_the_host_alone --stdout "no OpenCL device" --
         env CLOSURE_OPENCL_LIBRARY=off ${CLOSURE_BIN} devices)
cli_test(opencl_missing_runs_on_the_host --closure ${OUT}/no-opencl.txt ${DATA}/cycle.closure.txt --
         env CLOSURE_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 ${CLOSURE_BIN} ${DATA}/cycle.txt
         --method propagate -q -o ${OUT}/no-opencl.txt)
# A loader named but not opened (a mistyped path) is named where no device is listed.
cli_test(opencl_mistyped_loader_is_named --stdout "^no OpenCL: CLOSURE_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1: " --
         env CLOSURE_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 ${CLOSURE_BIN} devices)
cli_test(opencl_mistyped_loader_named_beside_a_device --status 2 --stderr "no OpenCL gpu device found .*CLOSURE_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1: " --
         env CLOSURE_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 ${CLOSURE_BIN} ${DATA}/cycle.txt --device gpu -q)
cli_test(opencl_missing_gpu_named_is_usage --status 2 --stderr "no OpenCL gpu device found" --
         env CLOSURE_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1 ${CLOSURE_BIN} ${DATA}/cycle.txt
         --device gpu -q)
add_test(NAME cli.opencl_not_linked COMMAND bash -c
         "readelf -d \"$1\" | grep -q NEEDED && ! readelf -d \"$1\" | grep -i NEEDED | grep -qi opencl"
         _ ${CLOSURE_BIN})
cli_test(no_graph --status 2 --stderr "no graph given" -- ${CLOSURE_BIN})
cli_test(bad_method --status 2 -- ${CLOSURE_BIN} ${DATA}/diamond.txt --method fastest)
cli_test(bad_device --status 2 --stderr "out of range" -- ${CLOSURE_BIN} ${DATA}/diamond.txt --device 99)
# A device the environment names is refused naming the environment, not an option not given.
cli_test(bad_device_from_the_environment --status 2 --stderr "CLOSURE_DEVICE=nonsense: no OpenCL device matches" --
         env CLOSURE_DEVICE=nonsense ${CLOSURE_BIN} ${DATA}/diamond.txt -m square)
cli_test(bad_device_index_past_64_bits --status 2 --stderr "--device 99999999999999999999: device index out of range" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --device 99999999999999999999 -m propagate)
# The device opens on a background thread while the graph is read; its errors still
# reach the user as usage errors, with any method.
cli_test(bad_device_opened_while_reading --status 2 --stderr "no OpenCL device matches 'nosuch'" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --device nosuch --method propagate)
# auto opens a GPU, if any, on speculation only when the graph as read says one may win
# (a long chain: every vertex reaches most others), while it condenses; without one (PoCL
# only, as in CI) it stays on the host without a word about devices. A 2 MB graph of
# disjoint pairs opens nothing: the summary shows no wait for a device.
cli_test(auto_speculates_on_deep_graphs --stdout "^speculated-ok$" --
         bash -c "seq 0 199998 | awk '{ print \$1, \$1 + 1 }' > ${OUT}/chain-200k.txt && env -u CLOSURE_DEVICE ${CLOSURE_BIN} ${OUT}/chain-200k.txt > ${OUT}/speculated.log 2>&1 && grep -q 'closure   19999900000 pairs' ${OUT}/speculated.log && ! grep -qi 'no OpenCL' ${OUT}/speculated.log && echo speculated-ok")
cli_test(auto_opens_nothing_for_shallow_graphs --stdout "^shallow-ok$" --
         bash -c "seq 0 199999 | awk '{ print 2 * \$1, 2 * \$1 + 1 }' > ${OUT}/pairs-2mb.txt && find ${OUT}/pairs-2mb.txt -size +2048k | grep -q . && env -u CLOSURE_DEVICE ${CLOSURE_BIN} ${OUT}/pairs-2mb.txt > ${OUT}/shallow.log 2>&1 && grep -q 'closure   200000 pairs' ${OUT}/shallow.log && grep -q ' device 0.000 s' ${OUT}/shallow.log && echo shallow-ok")
# Where OpenCL drivers were loaded, the exit hands their teardown to a child: the output
# is whole, a reader sees its end at once, and a write error still exits 4.
cli_test(exit_handing_off_teardown_keeps_output_and_status --stdout "^handoff-ok$" --
         bash -c "${CLOSURE_BIN} ${DATA}/cycle.txt -m propagate --device cpu -q -o - | sort | cmp - <(sort ${DATA}/cycle.closure.txt) && ( ${CLOSURE_BIN} ${DATA}/cycle.txt -m propagate --device cpu -q -o - > /dev/full 2>/dev/null && false || test \$? = 4 ) && echo handoff-ok")
# `closure run` under its exit watcher (on by default where a GPU may be present): the
# output whole, the worker's exit statuses, signals forwarded and mirrored.
cli_test(exit_watcher_keeps_output_status_and_signals --stdout "^exit watcher ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/exit_watcher.sh ${CLOSURE_BIN} ${DATA} ${OUT}/exit-watcher)
# With no output only the count is wanted: on a history the host counts by columns over
# live rows (no rows kept); the count equals the lines of the closure written out, on a
# graph with cycles too (weighted by component sizes).
cli_test(count_by_columns_equals_the_written_closure --stdout "^counted-ok$" --
         bash -c "python3 ${CMAKE_SOURCE_DIR}/tools/gen_commit_dag.py 3000 2 > ${OUT}/h3000.txt && printf '5 2999\\n' >> ${OUT}/h3000.txt && ${CLOSURE_BIN} ${OUT}/h3000.txt > ${OUT}/h3000.log 2>&1 && grep -q 'counted by columns' ${OUT}/h3000.log && ${CLOSURE_BIN} ${OUT}/h3000.txt -q -o ${OUT}/h3000.closure && grep -q \"closure   $(wc -l < ${OUT}/h3000.closure) pairs\" ${OUT}/h3000.log && echo counted-ok")
cli_test(threads --stderr "19 pairs" -- ${CLOSURE_BIN} ${DATA}/cycle.txt --threads 1 --method sparse)
cli_test(bad_threads --status 2 -- ${CLOSURE_BIN} ${DATA}/cycle.txt --threads 0)

# Every example graph, every method, on the default device and on the host: the closure
# equals the hand-checked one in data/<name>.closure.txt.
foreach(graph diamond.txt cycle.txt names.txt dag.gra loops.dimacs ring.mtx deps.dot)
  string(REGEX REPLACE "\\.[a-z]+$" "" stem ${graph})
  foreach(method auto sparse square condense recursive)
    foreach(device default host)
      set(dev_args)
      if(device STREQUAL "host")
        set(dev_args --device host)
      endif()
      set(out ${OUT}/${stem}-${method}-${device}.txt)
      cli_test(closure.${stem}.${method}.${device} --closure ${out} ${DATA}/${stem}.closure.txt --
               ${CLOSURE_BIN} -q ${DATA}/${graph} --method ${method} ${dev_args} -o ${out})
    endforeach()
  endforeach()
endforeach()

cli_test(input.gzip --closure ${OUT}/gz.txt ${DATA}/diamond.closure.txt --
         ${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/diamond.txt.gz -o ${OUT}/gz.txt)
cli_test(input.stdin --closure ${OUT}/stdin.txt ${DATA}/diamond.closure.txt --
         bash -c "${CLOSURE_BIN} -q - -o ${OUT}/stdin.txt < ${DATA}/diamond.txt")
cli_test(input.format_override --stdout "\"format\": \"edges\"" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --input-format edges --json)
cli_test(summary.text --stderr "5 vertices, 5 edges, DAG" --stderr "9 pairs" --stderr "compute" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt)
cli_test(summary.json --stdout "\"pairs\": 19" --stdout "\"components\": 4" --
         ${CLOSURE_BIN} ${DATA}/cycle.txt --json --method condense)
cli_test(reflexive --stdout "\"pairs\": 14" -- ${CLOSURE_BIN} ${DATA}/diamond.txt --reflexive --json)

cli_test(output.matrix_market --stdout "^%%MatrixMarket matrix coordinate pattern general" --stdout "^5 5 9$" --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o - --output-format matrix-market)
cli_test(output.json --stdout "\"pairs\":9" --stdout "\"1\":\\[\"2\",\"3\",\"4\",\"5\"\\]" --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o - --output-format json)
cli_test(output.binary --stdout "^CLOSBIT1" -- ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o - --output-format binary)
# The formats' aliases (formats.md) in any case, for run and batch alike; a wrong name lists
# every name the command takes (run's "dot" too).
cli_test(output.format_aliases_any_case --stdout "^%%MatrixMarket" --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o - --output-format MTX)
cli_test(output.format_alias_bin --stdout "^CLOSBIT1" --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o - --output-format bin)
cli_test(output.format_unknown_lists_dot --status 2 --stderr "unknown output format 'mtxx' .*node-link, dot" --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o - --output-format mtxx)
cli_test(batch.format_alias --stdout "^batch-alias-ok$" --
         bash -c "rm -rf ${OUT}/balias && ${CLOSURE_BIN} batch -q ${DATA}/diamond.txt --out ${OUT}/balias --output-format Matrix-Market > /dev/null && head -1 ${OUT}/balias/diamond.txt.closure.mtx | grep -q MatrixMarket && echo batch-alias-ok")
cli_test(output.too_large --status 4 --stderr "pass --force" --no-file ${OUT}/big.txt --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${OUT}/big.txt --max-output 10)
cli_test(output.forced --closure ${OUT}/forced.txt ${DATA}/diamond.closure.txt --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${OUT}/forced.txt --max-output 10 --force)

cli_test(query.yes --stdout "^1 5 yes$" -- ${CLOSURE_BIN} query ${DATA}/diamond.txt 1 5)
cli_test(query.no --stdout "^5 1 no$" -- ${CLOSURE_BIN} query ${DATA}/diamond.txt 5 1)
cli_test(query.names --stdout "^alice alice yes$" -- ${CLOSURE_BIN} query ${DATA}/names.txt alice alice)
# --pairs' summary: unknown labels counted among the answered lines and apart, in words
# that agree with their count (it had said "4 answered (2 reachable), 1 unknown labels").
cli_test(query.pairs_summary --status 3
         --stderr "4 lines answered \\(2 reachable, 1 not, 1 with an unknown label\\), 1 malformed line$" --
         bash -c "printf '1 5\\n5 1\\n1 zz\\n2 5\\nbad\\n' > ${OUT}/pairs-summary.txt && ${CLOSURE_BIN} query ${DATA}/diamond.txt --pairs ${OUT}/pairs-summary.txt")
cli_test(query.unknown --status 3 --stdout "unknown vertex 'zed'" -- ${CLOSURE_BIN} query ${DATA}/names.txt alice zed)
# A program that writes a pair and waits gets its answer, whatever the engine.
cli_test(query.pairs_answered_as_read --stdout "^answered as read$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/pairs_answered_as_read.sh ${CLOSURE_BIN} ${DATA})
cli_test(query.pairs --stdout "^eve frank yes$" --stdout "^frank eve no$" --stdout "unknown vertex 'nobody'"
         --stdout ":4: expected two labels" --status 3 --
         bash -c "printf 'eve frank\\nfrank eve\\nnobody eve\\njunk\\n' | ${CLOSURE_BIN} query ${DATA}/names.txt --pairs -")
cli_test(query.usage --status 2 -- ${CLOSURE_BIN} query ${DATA}/names.txt alice)
# The device method (PoCL in CI): answers batched on the device, in order, same text.
cli_test(query.pairs.propagate --stdout "^eve frank yes$" --stdout "^frank eve no$"
         --stdout "unknown vertex 'nobody'" --stdout ":4: expected two labels" --status 3 --
         bash -c "printf 'eve frank\\nfrank eve\\nnobody eve\\njunk\\n' | ${CLOSURE_BIN} query ${DATA}/names.txt --pairs - --method propagate")
cli_test(help.methods --stdout "propagate" -- ${CLOSURE_BIN} --help)
# A 100-vertex chain (4 words of columns) in slices of one word: 4 slices, 4950 pairs, with
# every sweep kernel (the slice width is a knob of the bench, not of the product).
cli_test(propagate.slices --stdout "chained +100 +4 .* 4950 " --stdout "blocked +100 +4 .* 4950 " --
         bash -c "seq 0 98 | awk '{print \$1, \$1 + 1}' > ${OUT}/chain100.txt && ${CLOSURE_BIN} bench propagate --device cpu --slice-words 1 ${OUT}/chain100.txt")


cli_test(verify.match --stdout "^MATCH$" --stderr "full" -- ${CLOSURE_BIN} verify ${DATA}/loops.dimacs)
cli_test(verify.sampled --stdout "^MATCH$" --stderr "sampled" --
         ${CLOSURE_BIN} verify ${DATA}/cycle.txt --verify-memory 1)
cli_test(verify.flag --stderr "MATCH against Boost.Graph" -- ${CLOSURE_BIN} ${DATA}/ring.mtx --verify)

cli_test(batch.mixed --status 4 --stdout "2 ok, 1 failed"
         --stderr "^closure batch: [^ ]*missing_column.txt:2: expected two columns" --
         ${CLOSURE_BIN} batch ${DATA}/diamond.txt ${DATA}/dag.gra ${BAD}/missing_column.txt --out ${OUT}/batch -j 2)
# batch: --include/--exclude, failed rows without made-up facts, true/false
# in CSV and JSON, no per-file lines without a terminal, deleted inputs' records removed.
cli_test(batch.rows_and_names --stdout "^batch rows ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/batch_rows.sh ${CLOSURE_BIN} ${OUT}/batch-rows)
# A full disk: every outcome still said, the batch's own files still its own (needs a tmpfs).
# --out naming a file (here the input itself) is the user's to change: usage, as -o is.
cli_test(batch.out_naming_a_file_is_usage --status 2 --stderr "is not a folder" --
         ${CLOSURE_BIN} batch ${DATA}/diamond.txt --out ${DATA}/diamond.txt)
cli_test(batch.out_through_a_file_is_usage --status 2 --stderr "is not a folder" --
         ${CLOSURE_BIN} batch ${DATA}/diamond.txt --out ${DATA}/diamond.txt/)
cli_test(batch.out_empty_is_usage --status 2 --stderr "--out is empty" --
         bash -c "exec ${CLOSURE_BIN} batch ${DATA}/diamond.txt --out ''")
add_test(NAME cli.batch.full_disk COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/batch_full_disk.sh
                                          ${CLOSURE_BIN} ${OUT}/batch-full-disk)
set_tests_properties(cli.batch.full_disk PROPERTIES SKIP_RETURN_CODE 77
                     PASS_REGULAR_EXPRESSION "^batch on a full disk ok")
# Names of up to 255 bytes (NAME_MAX) are written: the temporary beside them is cut short.
cli_test(output.longest_names --stdout "^written$" --
         bash -c "cd ${OUT} && n=$(printf 'b%.0s' $(seq 255)) && ${CLOSURE_BIN} -q ${DATA}/cycle.txt -o $n && ${CLOSURE_BIN} index -q ${DATA}/cycle.txt -o $(printf 'c%.0s' $(seq 251)).idx && test -s $n && echo written")
cli_test(batch.resume --stdout "2 resumed" --
         bash -c "${CLOSURE_BIN} batch ${DATA}/diamond.txt ${DATA}/dag.gra --out ${OUT}/resume -q && ${CLOSURE_BIN} batch ${DATA}/diamond.txt ${DATA}/dag.gra --out ${OUT}/resume --resume -q")

# closure's own binary files given as a graph are named for what they are, from a file, a
# gzip file or a pipe alike, by every command that reads a graph (not "binary data").
cli_test(input.index_file_as_a_graph --status 3 --stderr "a reachability index written by .closure index., not a graph: only .closure query. reads it" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/cycle.txt -o ${OUT}/asgraph.idx && ${CLOSURE_BIN} reach ${OUT}/asgraph.idx 1")
cli_test(input.index_file_piped_as_a_graph --status 3 --stderr "<stdin>: a reachability index" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/cycle.txt -o ${OUT}/piped.idx && gzip -c ${OUT}/piped.idx | gunzip | ${CLOSURE_BIN} -q -")
cli_test(input.gzip_index_to_query --status 3 --stderr "a gzip-compressed reachability index, not a graph: .closure query. reads an index only uncompressed" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/cycle.txt -o ${OUT}/gz.idx && gzip -c ${OUT}/gz.idx > ${OUT}/gz.idx.gz && ${CLOSURE_BIN} query ${OUT}/gz.idx.gz 1 2")
# Edge lists closure writes read back as written; detection's refusals and a format named.
cli_test(input.edge_list_round_trip --stdout "^edge lists ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/edge_list_round_trip.sh ${CLOSURE_BIN} ${OUT}/edge-round-trip)
cli_test(input.binary_closure_as_a_graph --status 3 --stderr "a closure written as a binary bit matrix" --
         bash -c "${CLOSURE_BIN} -q ${DATA}/cycle.txt -o ${OUT}/asgraph.bin && ${CLOSURE_BIN} reduce ${OUT}/asgraph.bin")
# Bad input: exit status 3, the file and line named, no output file left behind.
foreach(case "missing_column.txt:2: expected two columns"
             "non_numeric.gra:4: expected (a )?successor"
             "header_mismatch.dimacs:1: 'p' line declares 5 arcs"
             "beyond_count.dimacs:3: vertex 9 is outside"
             "garbage.txt:1: binary data"
             "empty.txt: empty file"
             "not_square.mtx:2: .* must be square"
             # hostile and careless input
             "deep.dot:2: subgraphs nested more than 256"
             "header.txt:1: 'source' 'target' looks like a header row"
             "trailing.txt.gz: data after the end of the gzip stream"
             "graph.graphml:1: XML"
             "huge_header.dimacs:1: declares 134217728 vertices")
  string(REGEX MATCH "^[^:]+" file "${case}")
  cli_test(error.${file} --status 3 --stderr "${case}" --no-file ${OUT}/bad-${file}.out --
           ${CLOSURE_BIN} ${BAD}/${file} -o ${OUT}/bad-${file}.out)
endforeach()
cli_test(error.missing_file --status 3 --stderr "no-such-file.txt: cannot open" --
         ${CLOSURE_BIN} no-such-file.txt)

# Review findings, kept as regressions.
cli_test(batch.same_names --stdout "2 files: 2 ok" --
         bash -c "rm -rf ${OUT}/same && ${CLOSURE_BIN} batch -q ${DATA}/diamond.txt ${CMAKE_CURRENT_SOURCE_DIR}/data/dup/diamond.txt --out ${OUT}/same && test -f ${OUT}/same/diamond.txt.closure.txt && test -f ${OUT}/same/2_diamond.txt.closure.txt && ! cmp -s ${OUT}/same/diamond.txt.closure.txt ${OUT}/same/2_diamond.txt.closure.txt")
cli_test(batch.out_inside_input --stdout "1 file: 1 ok, 0 failed" --
         bash -c "rm -rf ${OUT}/self && mkdir -p ${OUT}/self && cp ${DATA}/diamond.txt ${OUT}/self/ && ${CLOSURE_BIN} batch -q ${OUT}/self --out ${OUT}/self/res && ${CLOSURE_BIN} batch -q ${OUT}/self --out ${OUT}/self/res")
# Subcommands no longer see run's options at all, so
# CLI11 itself refuses them (no flag policing in main).
cli_test(subcommand_refuses_run_flags --status 2 --stderr "not expected:.* -o" --
         ${CLOSURE_BIN} query ${DATA}/diamond.txt 1 5 -o ${OUT}/ignored.txt)
cli_test(verify.json --stdout "\"match\": ?true" --
         bash -c "${CLOSURE_BIN} verify ${DATA}/cycle.txt --json && ! ${CLOSURE_BIN} verify ${DATA}/cycle.txt --json | grep -q '^MATCH'")
# A label the format cannot hold is a refused combination of graph and output format: usage.
cli_test(output.edges_refuse_blank_labels --status 2 --stderr "contains whitespace" --no-file ${OUT}/spaced.txt --
         ${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/spaced_labels.dot -o ${OUT}/spaced.txt)
cli_test(output.json_keeps_blank_labels --stdout "\"a b\":\\[\"c\",\"d e\"\\]" --
         ${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/spaced_labels.dot -o - --output-format json)
cli_test(input.adjlist --stdout "\"edges\": 3" --
         ${CLOSURE_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/data/adjlist.txt --input-format adjlist --json)
cli_test(error.adjlist_as_edges --status 3 --stderr "adjlist.txt:3: 2 columns where line 2 has 3.*adjlist" --
         ${CLOSURE_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/data/adjlist.txt)


# Outputs, memory, careless use, the error model and the CLI's shape: each failed before its
# fix.
set(G ${DATA}/diamond.txt)
# A device is written, never replaced. As root the test uses its own copy of /dev/null
# (mknod c 1 3 in the test folder): a regression must not destroy the machine's /dev/null.
cli_test(output.device_is_written_not_replaced --status 0 --
         bash -c "d=/dev/null\; if mknod ${OUT}/null c 1 3 2>/dev/null || test -c ${OUT}/null\; then d=${OUT}/null\; fi\; ${CLOSURE_BIN} -q ${G} -o $d && test -c $d")
cli_test(output.fifo_is_streamed --
         bash -c "rm -f ${OUT}/fifo ${OUT}/fifo.out && mkfifo ${OUT}/fifo && (timeout 60 cat ${OUT}/fifo > ${OUT}/fifo.out &) && ${CLOSURE_BIN} -q ${G} -o ${OUT}/fifo && sleep 0.2 && test -p ${OUT}/fifo && diff <(sort ${OUT}/fifo.out) <(grep -v '^#' ${DATA}/diamond.closure.txt | sort)")
cli_test(output.process_substitution --
         bash -c "${CLOSURE_BIN} -q ${G} -o >(cat > ${OUT}/procsub.txt) && sleep 0.2 && diff <(sort ${OUT}/procsub.txt) <(grep -v '^#' ${DATA}/diamond.closure.txt | sort)")
cli_test(output.symlink_followed --
         bash -c "rm -f ${OUT}/real.txt ${OUT}/link.txt && echo old > ${OUT}/real.txt && ln -s real.txt ${OUT}/link.txt && ${CLOSURE_BIN} -q ${G} -o ${OUT}/link.txt && test -L ${OUT}/link.txt && grep -q '^1 5$' ${OUT}/real.txt")
cli_test(output.keeps_mode_0600 --stdout "^600$" --
         bash -c "rm -f ${OUT}/secret.txt && echo old > ${OUT}/secret.txt && chmod 600 ${OUT}/secret.txt && ${CLOSURE_BIN} -q ${G} -o ${OUT}/secret.txt && stat -c %a ${OUT}/secret.txt")
cli_test(output.onto_input_refused --status 2 --stderr "is an input of this command" --
         bash -c "cp ${G} ${OUT}/self.txt && ${CLOSURE_BIN} -q ${OUT}/self.txt -o ${OUT}/self.txt\; rc=$?\; cmp ${G} ${OUT}/self.txt && exit $rc")
cli_test(output.hard_link_refused --status 2 --stderr "hard links" --
         bash -c "rm -f ${OUT}/hl1 ${OUT}/hl2 && echo keep > ${OUT}/hl1 && ln ${OUT}/hl1 ${OUT}/hl2 && ${CLOSURE_BIN} -q ${G} -o ${OUT}/hl1\; rc=$?\; grep -q keep ${OUT}/hl2 && exit $rc")
cli_test(output.empty_path_refused --status 2 --stderr "empty path" -- bash -c "${CLOSURE_BIN} -q ${G} -o ''")
cli_test(output.mtx_from_extension --stdout "^%%MatrixMarket" --
         bash -c "${CLOSURE_BIN} -q ${G} -o ${OUT}/ext.mtx && cat ${OUT}/ext.mtx")
cli_test(output.json_from_extension --stdout "\"successors\"" --
         bash -c "${CLOSURE_BIN} -q ${G} -o ${OUT}/ext.json && cat ${OUT}/ext.json")
cli_test(output.bin_from_extension --stdout "^CLOSBIT1" --
         bash -c "${CLOSURE_BIN} -q ${G} -o ${OUT}/ext.bin && cat ${OUT}/ext.bin")
cli_test(output.gzip_from_extension --
         bash -c "${CLOSURE_BIN} -q ${G} -o ${OUT}/ext.txt.gz && diff <(zcat ${OUT}/ext.txt.gz | sort) <(grep -v '^#' ${DATA}/diamond.closure.txt | sort)")
cli_test(output.format_conflict_refused --status 2 --stderr "conflicts" --no-file ${OUT}/conflict.mtx --
         bash -c "rm -f ${OUT}/conflict.mtx && ${CLOSURE_BIN} -q ${G} -o ${OUT}/conflict.mtx --output-format json")
cli_test(output.format_without_output_refused --status 2 --stderr "needs -o" --
         ${CLOSURE_BIN} -q ${G} --output-format json)
cli_test(output.json_and_stdout_refused --status 2 --stderr "standard output" --
         ${CLOSURE_BIN} ${G} --json -o -)
# 100 vertices reach one whose label is 2^18 bytes: exactly 100 * (2^18 + 2) + 292 bytes.
cli_test(output.max_output_exact_with_long_labels --status 4 --stderr "would take 26214892 bytes" --no-file ${OUT}/long.txt --
         bash -c "awk 'BEGIN { l = \"x\"\; while (length(l) < 200000) l = l l\; for (i = 1\; i <= 100\; i++) print \"v\" i, l }' > ${OUT}/long_labels.txt && ${CLOSURE_BIN} -q ${OUT}/long_labels.txt -o ${OUT}/long.txt --max-output 10M")
foreach(bad -5 99999999999999999999 10x 1.5G)
  cli_test(output.max_output_strict_${bad} --status 2 --stderr "not a byte count" --
           ${CLOSURE_BIN} -q ${G} -o ${OUT}/strict.txt --max-output ${bad})
endforeach()
cli_test(output.max_output_units --closure ${OUT}/units.txt ${DATA}/diamond.closure.txt --
         ${CLOSURE_BIN} -q ${G} -o ${OUT}/units.txt --max-output 1K)
cli_test(output.max_output_not_for_pipes --stdout "^1 5$" --
         ${CLOSURE_BIN} -q ${G} -o - --max-output 10)
cli_test(output.closed_pipe_is_a_quiet_stop --
         bash -c "set -o pipefail\; seq 1 3000 | awk '{ print $1, $1 + 1 }' > ${OUT}/chain3000.txt && ${CLOSURE_BIN} -q ${OUT}/chain3000.txt -o - | head -1 > /dev/null")
cli_test(help.exit_statuses_and_shared_options --stdout "Exit status" --stdout "Shared options" --stdout "--method" --stdout "--threads"
         -- ${CLOSURE_BIN} query --help)
# --help names the program, and each subcommand lists only the shared options it uses: a
# command that only reads a graph takes no device, method or kernel options.
cli_test(help.names_the_program --stdout "^Usage: closure \\[OPTIONS\\]" -- ${CLOSURE_BIN} --help)
cli_test(help.subcommand_names_the_program --stdout "^Usage: closure reduce " -- ${CLOSURE_BIN} reduce --help)
foreach(cmd index reach reduce)
  cli_test(help.${cmd}_lists_only_its_options --stdout "^only-its-options$" --
           bash -c "${CLOSURE_BIN} ${cmd} --help > ${OUT}/help-${cmd}.txt && grep -q -- --input-format ${OUT}/help-${cmd}.txt && grep -q -- --threads ${OUT}/help-${cmd}.txt && ! grep -qE -- '--(kernel-params|verify-memory|device|method|progress)' ${OUT}/help-${cmd}.txt && echo only-its-options")
  cli_test(${cmd}.refuses_kernel_params --status 2 --stderr "kernel-params" --
           ${CLOSURE_BIN} ${cmd} ${DATA}/diamond.txt a -o ${OUT}/unused-${cmd}.out --kernel-params tile_n=4)
endforeach()
cli_test(help.verify_has_no_progress --stdout "^no-progress-option$" --
         bash -c "${CLOSURE_BIN} verify --help > ${OUT}/help-verify.txt && grep -q -- --verify-memory ${OUT}/help-verify.txt && ! grep -q -- --progress ${OUT}/help-verify.txt && echo no-progress-option")
cli_test(help.run_is_the_default --stdout "Exit status" --stdout "--max-output" --stdout "Shared options" -- ${CLOSURE_BIN} run --help)
cli_test(run.explicit_subcommand --closure ${OUT}/explicit.txt ${DATA}/diamond.closure.txt --
         ${CLOSURE_BIN} run -q ${G} -o ${OUT}/explicit.txt)
cli_test(run.options_before_the_graph --closure ${OUT}/before.txt ${DATA}/diamond.closure.txt --
         ${CLOSURE_BIN} --method sparse -q -o ${OUT}/before.txt ${G})
# Shared options before a subcommand's name apply to it (they were "not expected" before).
cli_test(run.shared_options_before_a_subcommand --stdout "^1 4 yes$" --
         ${CLOSURE_BIN} -q --method sparse query ${G} 1 4)
cli_test(error.kernel_params_typo_is_usage --status 2 --stderr "kernel-params" --
         ${CLOSURE_BIN} -q ${G} --kernel-params tile_q=3)
cli_test(error.bench_generated_typo_is_usage --status 2 --stderr "generated" --
         ${CLOSURE_BIN} bench closure --generated random-dag:x:y --no-boost --no-classic)
cli_test(summary.square_counts_sccs --stdout "\"components\": 4" --
         ${CLOSURE_BIN} ${DATA}/cycle.txt --json --method square --device host)
# bench closure checks --device in a child (a GPU driver loaded in the parent does not
# survive the fork of the method's child); a bad name is still a usage error.
# Bench options that leave no row to measure are refused, as --no-host on the host path is.
cli_test(error.bench_gemm_only_device_codes_on_the_host --status 2 --stderr "leave nothing to measure" --
         ${CLOSURE_BIN} bench gemm --n 16 --device host --only myGEMM2)
cli_test(error.bench_bool_no_products_alone --status 2 --stderr "--no-products without --sweep or --closure" --
         ${CLOSURE_BIN} bench bool --sizes 64 --repeat 1 --no-products)
cli_test(error.bench_propagate_empty_kernel_name --status 2 --stderr "--kernels: an empty kernel name" --
         bash -c "${CLOSURE_BIN} bench propagate ${DATA}/cycle.txt --repeat 1 --kernels ''")
# bench closure: --scale scales random-dag:N:M too, and --memory-cap holds the matrix
# methods to it (refused with their sizes), as its --help says.
cli_test(bench.closure_scale_applies_to_random_dags --stdout "random-dag:1k:2k +500 +1000 " --
         ${CLOSURE_BIN} bench closure --generated random-dag:1k:2k --scale 0.5 --repeat 1 --device host --no-boost --no-classic --methods sparse)
cli_test(bench.closure_memory_cap_holds_the_matrix_methods --stdout "square .*failed: square on 4000 vertices needs about" --
         ${CLOSURE_BIN} bench closure --generated random-dag:4k:8k --repeat 1 --device host --no-boost --no-classic --methods square --memory-cap 0.001)
cli_test(error.bench_unknown_benchmark --status 2 --stderr "unknown benchmark 'gem'. the benchmarks: gemm, bool" --
         ${CLOSURE_BIN} bench gem)
cli_test(error.bench_closure_bad_device --status 2 --stderr "^closure: --device nosuch: no OpenCL device matches" --
         ${CLOSURE_BIN} bench closure ${DATA}/cycle.txt --device nosuch --no-boost)
cli_test(bench.closure_on_a_named_device --stdout "propagate .* ok" --
         ${CLOSURE_BIN} bench closure ${DATA}/cycle.txt --device cpu --methods propagate --no-boost)
# A sweep kernel's name is the user's: a typo is a usage error.
cli_test(error.propagate_kernel_typo_is_usage --status 2 --stderr "unknown kernel 'chaned'" --
         ${CLOSURE_BIN} bench propagate ${DATA}/cycle.txt --device cpu --kernels chained,chaned)
cli_test(error.propagate_count_needs_a_sweep --status 2 --stderr "unknown kernel 'count-'" --
         ${CLOSURE_BIN} bench propagate ${DATA}/cycle.txt --device cpu --kernels count-)
# Every sweep and group order gives the same pair count (the one distinct value in column 11).
cli_test(bench.propagate_sweeps_agree --stdout "^1 104178$" --
         bash -c "${CLOSURE_BIN} bench propagate ${CMAKE_CURRENT_SOURCE_DIR}/data/grail/go_sub_6793.gra --device cpu --repeat 1 --kernels count,count-inorder,count-blocked,chained,chained-inorder,blocked,plain16 | awk 'NR > 2 { print \$11 }' | sort -u | awk '{ n++\; v = \$1 } END { print n, v }'")
cli_test(bench.scale_help_multiplies --stdout "Multiply" -- ${CLOSURE_BIN} bench closure --help)
# The count by chains in one pass and in 2, 3 and 7 stretches: one cross-pair count (column 8),
# that of `closure G` (every component of a history is one vertex, so all pairs cross).
cli_test(bench.chains_stretches_agree --stdout "^1 yes$" --
         bash -c "python3 ${CMAKE_SOURCE_DIR}/tools/gen_commit_dag.py 5000 3 > ${OUT}/h5000.txt && ${CLOSURE_BIN} bench chains ${OUT}/h5000.txt --stretches 1,2,3,7 --repeat 1 | awk 'NR > 1 { print \$8 }' | sort -u > ${OUT}/h5000.pairs && n=$(${CLOSURE_BIN} ${OUT}/h5000.txt 2>&1 | awk '/^closure / { print \$2 }') && echo $(wc -l < ${OUT}/h5000.pairs) $(grep -qx \"$n\" ${OUT}/h5000.pairs && echo yes)")
cli_test(error.bench_chains_missing_file --status 3 --stderr "no-such-graph.txt" --
         ${CLOSURE_BIN} bench chains ${GEN}/no-such-graph.txt)
cli_test(progress.forced_shows_phases --stderr "closure: reading" --stderr "closure: computing" --
         env CLOSURE_PROGRESS_DELAY=0 ${CLOSURE_BIN} -q --progress ${G} -o ${OUT}/progress.txt)
cli_test(progress.off_by_default_off_a_terminal --
         bash -c "! ${CLOSURE_BIN} ${G} 2>&1 >/dev/null | grep -q 'closure: reading'")
cli_test(progress.on_a_terminal --stdout "closure: reading" --
         bash -c "command -v script >/dev/null || { echo 'closure: reading (no script(1) here)'\; exit 0\; }\; CLOSURE_PROGRESS_DELAY=0 script -qec '${CLOSURE_BIN} ${G}' /dev/null")
# Memory: ulimit -v as in the issue's repro. Writing the closure needs its rows (about 1 GB):
# the sparse default refuses with sizes named, and leaves no output behind. Counting alone
# needs no rows: it is counted by columns under the same limit, to the same count as without
# one (it once flipped to sparse and a refusal on a timed estimate, under CI's load).
set(DAG100K "awk 'BEGIN { srand(7)\; for (i = 0\; i < 100000\; i++) for (k = 0\; k < 10\; k++) { j = i + 1 + int(rand() * (100000 - i))\; if (j < 100000) print i, j } }'")
cli_test(memory.sparse_under_ulimit --status 4 --stderr "sparse on 100000 vertices" --stderr "available" --
         bash -c "${DAG100K} > ${OUT}/dag100k.txt && rm -f ${OUT}/dag100k.closure.txt && (ulimit -v 600000 && ${CLOSURE_BIN} -q ${OUT}/dag100k.txt -o ${OUT}/dag100k.closure.txt)\; s=$?\; test ! -e ${OUT}/dag100k.closure.txt || exit 9\; exit $s")
cli_test(memory.count_under_ulimit_by_columns --stdout "^same 2043087580$" --stdout "would crowd" --
         bash -c "${DAG100K} > ${OUT}/dag100k-count.txt && free=$(${CLOSURE_BIN} ${OUT}/dag100k-count.txt 2>&1 | awk '/^closure/ { print $2 }') && (ulimit -v 600000 && ${CLOSURE_BIN} ${OUT}/dag100k-count.txt) > ${OUT}/dag100k-count.out 2>&1 && grep '^method' ${OUT}/dag100k-count.out && limited=$(awk '/^closure/ { print $2 }' ${OUT}/dag100k-count.out) && test \"$free\" = \"$limited\" && echo same $limited")
cli_test(memory.dense_under_ulimit --status 4 --stderr "of host memory" --
         bash -c "awk 'BEGIN { srand(7)\; for (i = 0\; i < 100000\; i++) for (k = 0\; k < 3\; k++) { j = i + 1 + int(rand() * (100000 - i))\; if (j < 100000) print i, j } }' > ${OUT}/dag100k-dense.txt && ulimit -v 600000 && ${CLOSURE_BIN} -q ${OUT}/dag100k-dense.txt --method condense --device host")
# Careless use, batch / verify / query side: each failed before its fix.
set(GEN ${OUT}/generated)
file(MAKE_DIRECTORY ${GEN})
# Generated inputs, written at configure time (CMake lists would split shell semicolons).
string(REPEAT "{" 300000 open_braces)
string(REPEAT "}" 300000 close_braces)
file(WRITE ${GEN}/deep.dot "digraph g { a -> b\n${open_braces}${close_braces}\n}\n")
set(text "")
foreach(i RANGE 0 199)
  math(EXPR j "${i} + 1000")
  string(APPEND text "${i} ${j}\n")
endforeach()
file(WRITE ${GEN}/matching.txt "${text}")  # 200 vertices reaching one vertex each
set(text "")
foreach(i RANGE 1 5000)
  string(APPEND text "0 ${i}\n")
endforeach()
file(WRITE ${GEN}/star.txt "${text}")  # one source, 5000 sinks
set(text "")
foreach(i RANGE 0 4998)
  math(EXPR j "${i} + 1")
  string(APPEND text "${i} ${j}\n")
endforeach()
file(WRITE ${GEN}/chain.txt "${text}")  # 12.5 million closure pairs: Boost needs 800 MB
# A file that overflows the stack of a recursive DOT reader: whatever the reader does with
# it, the batch goes on, records it and writes its summary.
cli_test(batch.crash_is_a_failed_record --stdout "2 files: 1 ok, 1 failed"
         --stdout "^status=4$" --
         bash -c "rm -rf ${GEN}/nest ${GEN}/nest-out && mkdir -p ${GEN}/nest && cp ${DATA}/diamond.txt ${GEN}/deep.dot ${GEN}/nest/ && (${CLOSURE_BIN} batch -q ${GEN}/nest --out ${GEN}/nest-out > ${GEN}/nest.out || echo status=$? >> ${GEN}/nest.out) && test -f ${GEN}/nest-out/summary.csv && grep -q deep.dot ${GEN}/nest-out/deep.dot.summary.json && cat ${GEN}/nest.out")
cli_test(batch.symlink_loop_is_a_failed_record --status 4 --stdout "2 files: 1 ok, 1 failed"
         --stdout "symbolic links" --
         bash -c "rm -rf ${GEN}/loop && mkdir -p ${GEN}/loop && cp ${DATA}/diamond.txt ${GEN}/loop/ && ln -s self ${GEN}/loop/self && ${CLOSURE_BIN} batch -q ${GEN}/loop --out ${GEN}/loop-out")
cli_test(batch.damaged_record_is_redone --stdout "2 files: 2 ok, 0 failed" --stdout " 1 resumed" --
         bash -c "rm -rf ${GEN}/dmg && ${CLOSURE_BIN} batch -q ${DATA}/diamond.txt ${DATA}/dag.gra --out ${GEN}/dmg > /dev/null && sed -i 's/\"\\(n\\|vertices\\)\":[0-9]*/\"\\1\":x/' ${GEN}/dmg/diamond.txt.summary.json && grep -q ':x' ${GEN}/dmg/diamond.txt.summary.json && ${CLOSURE_BIN} batch -q ${DATA}/diamond.txt ${DATA}/dag.gra --out ${GEN}/dmg --resume -j 2")
cli_test(batch.resume_redoes_stale_results --stdout "^stale ok$" --
         bash -c "rm -rf ${GEN}/stale && mkdir -p ${GEN}/stale && cp ${DATA}/diamond.txt ${GEN}/stale/g.txt && b='${CLOSURE_BIN} batch -q ${GEN}/stale/g.txt --out ${GEN}/stale/out --resume' && $b | grep -q '0 resumed' && $b | grep -q '1 resumed' && echo '5 1' >> ${GEN}/stale/g.txt && $b | grep -q '0 resumed' && $b --reflexive | grep -q '0 resumed' && $b --reflexive | grep -q '1 resumed' && echo junk > ${GEN}/stale/out/g.txt.closure.txt && $b --reflexive | grep -q '0 resumed' && ! grep -q junk ${GEN}/stale/out/g.txt.closure.txt && echo 'stale ok'")
cli_test(batch.out_is_the_input_folder --stdout "^2 files: 2 ok" --
         bash -c "rm -rf ${GEN}/same && mkdir -p ${GEN}/same && cp ${DATA}/diamond.txt ${DATA}/cycle.txt ${GEN}/same/ && ${CLOSURE_BIN} batch -q ${GEN}/same --out ${GEN}/same > /dev/null && ${CLOSURE_BIN} batch -q ${GEN}/same --out ${GEN}/same | tail -1")
# Folders below an input folder that is the output folder (or lies inside it) are the
# user's: searched, only the batch's own outputs there passed over (node-link's too).
cli_test(batch.out_is_the_input_folder_with_subfolders --stdout "^3 files: 3 ok" --
         bash -c "rm -rf ${GEN}/samesub && mkdir -p ${GEN}/samesub/sub/deeper && cp ${DATA}/diamond.txt ${GEN}/samesub/ && cp ${DATA}/cycle.txt ${GEN}/samesub/sub/ && cp ${DATA}/dag.gra ${GEN}/samesub/sub/deeper/ && ${CLOSURE_BIN} batch -q ${GEN}/samesub --out ${GEN}/samesub --output-format node-link > /dev/null && ${CLOSURE_BIN} batch -q ${GEN}/samesub --out ${GEN}/samesub --output-format node-link | tail -1")
cli_test(batch.out_holds_the_input_folder --stdout "^2 files: 2 ok" --
         bash -c "rm -rf ${GEN}/outer && mkdir -p ${GEN}/outer/in/sub && cp ${DATA}/diamond.txt ${GEN}/outer/in/ && cp ${DATA}/cycle.txt ${GEN}/outer/in/sub/ && ${CLOSURE_BIN} batch -q ${GEN}/outer/in --out ${GEN}/outer | tail -1")
# --threads other than the hardware's: the batch forks its workers outside any thread arena
# (inside one it had ended TBB and crashed with SIGSEGV at the end, exit 139).
foreach(threads 1 3)
  cli_test(batch.threads_${threads} --stdout "^2 files: 2 ok" --
           bash -c "rm -rf ${GEN}/bthreads${threads} && ${CLOSURE_BIN} batch -q ${DATA}/diamond.txt ${DATA}/cycle.txt --out ${GEN}/bthreads${threads} --threads ${threads} -j 2 | tail -1")
endforeach()
# A file that fails on a later run loses the closure of its earlier content, which its
# record (output null) no longer stands for.
cli_test(batch.failed_rerun_removes_old_closure --stdout "^stale-closure-removed$" --
         bash -c "rm -rf ${GEN}/refail && mkdir -p ${GEN}/refail/in && printf '1 2\\n2 3\\n' > ${GEN}/refail/in/a.txt && ${CLOSURE_BIN} batch -q ${GEN}/refail/in --out ${GEN}/refail/out > /dev/null && test -s ${GEN}/refail/out/a.txt.closure.txt && printf '1 2\\n2 x y z\\n' > ${GEN}/refail/in/a.txt && ( ${CLOSURE_BIN} batch -q ${GEN}/refail/in --out ${GEN}/refail/out > /dev/null 2>&1\; test \$? = 4 ) && test ! -e ${GEN}/refail/out/a.txt.closure.txt && grep -q '\"output\":null' ${GEN}/refail/out/a.txt.summary.json && echo stale-closure-removed")
# A symbolic link to a file in an input folder is named as the link, not as its target:
# two links to one file, one into a subfolder and one out of the folder each get their own.
cli_test(batch.links_named_as_links --stdout "^links-named-ok$" --
         bash -c "rm -rf ${GEN}/blink && mkdir -p ${GEN}/blink/in/sub ${GEN}/blink/other && cp ${DATA}/diamond.txt ${GEN}/blink/in/a.txt && ln -s a.txt ${GEN}/blink/in/l1.txt && ln -s a.txt ${GEN}/blink/in/l2.txt && cp ${DATA}/cycle.txt ${GEN}/blink/in/sub/real.txt && ln -s sub/real.txt ${GEN}/blink/in/latest.txt && cp ${DATA}/cycle.txt ${GEN}/blink/other/o.txt && ln -s ../other/o.txt ${GEN}/blink/in/out.txt && ${CLOSURE_BIN} batch -q ${GEN}/blink/in --out ${GEN}/blink/out | tail -1 | grep -q '^6 files: 6 ok' && cd ${GEN}/blink/out && test -s l1.txt.closure.txt && test -s l2.txt.closure.txt && test -s latest.txt.closure.txt && test -s out.txt.closure.txt && test -s sub/real.txt.closure.txt && test ! -e 1_a.txt.summary.json && echo links-named-ok")
# Inputs read under another name than before (the N_ prefixes shift once the first of two
# inputs of one name is deleted) leave no record under the old name beside the new one.
cli_test(batch.renamed_inputs_leave_no_old_records --stdout "^renamed-ok$" --
         bash -c "rm -rf ${GEN}/bren && mkdir -p ${GEN}/bren/a ${GEN}/bren/b ${GEN}/bren/c && cp ${DATA}/diamond.txt ${GEN}/bren/a/x.txt && cp ${DATA}/cycle.txt ${GEN}/bren/b/x.txt && cp ${DATA}/diamond.txt ${GEN}/bren/c/2_x.txt && cd ${GEN}/bren && ${CLOSURE_BIN} batch -q a b c --out out > /dev/null && test -e out/3_2_x.txt.summary.json && rm a/x.txt && ${CLOSURE_BIN} batch -q a b c --out out --resume > /dev/null && test ! -e out/3_2_x.txt.summary.json && test ! -e out/3_2_x.txt.closure.txt && grep -q 'b/x.txt' out/x.txt.summary.json && grep -q 'c/2_x.txt' out/2_x.txt.summary.json && test \$(ls out/*.summary.json | wc -l) = 2 && echo renamed-ok")
cli_test(batch.records_use_summary_names --stdout "\"vertices\":5,\"edges\":5,\"components\":5" --
         bash -c "rm -rf ${GEN}/names && ${CLOSURE_BIN} batch -q ${DATA}/diamond.txt --out ${GEN}/names > /dev/null && cat ${GEN}/names/diamond.txt.summary.json ${GEN}/names/summary.json")
cli_test(batch.verify_inconclusive --status 5 --stdout "INCONCLUSIVE" --stdout "1 inconclusive" --
         bash -c "${CLOSURE_BIN} batch -q ${GEN}/matching.txt --out ${GEN}/inconclusive --verify --verify-sources 2 --verify-memory 1")
foreach(seed "-1" "18446744073709551616" "0x10")
  cli_test(verify.seed_not_whole_number_${seed} --status 2 --stderr "is not a whole number from 0 to 18446744073709551615" --
           ${CLOSURE_BIN} verify ${DATA}/cycle.txt --seed ${seed})
endforeach()
cli_test(verify.seed_largest --stdout "^MATCH$" --
         ${CLOSURE_BIN} verify ${DATA}/cycle.txt --seed 18446744073709551615)
# CLI11's strtoull took -1 as 2^64 - 1: "all sources", MATCH. Decimal within range only.
foreach(bad -1 18446744073709551616)
  cli_test(verify.sources_${bad}_refused --status 2 --stderr "--sources: '${bad}' is not a whole number" --
           ${CLOSURE_BIN} verify ${DATA}/cycle.txt --sources=${bad})
  cli_test(run.verify_sources_${bad}_refused --status 2 --stderr "--verify-sources: '${bad}' is not a whole number" --
           ${CLOSURE_BIN} ${DATA}/cycle.txt --verify --verify-sources=${bad})
endforeach()
# --json beside an output that is standard output by another name: refused as -o - is.
cli_test(run.json_beside_dev_stdout_refused --status 2 --stderr "--json and -o /dev/stdout would both write to standard output" --
         bash -c "${CLOSURE_BIN} ${DATA}/cycle.txt -o /dev/stdout --json > ${OUT}/json-stdout.txt")
# -o /dev/stdout (or /dev/fd/1) is the descriptor: written at its offset, not a replaced
# file; what the shell wrote before stays, and >> appends.
cli_test(output.dev_stdout_is_the_descriptor --stdout "^head 9 foot kept 10$" --
         bash -c "(echo head && ${CLOSURE_BIN} ${DATA}/diamond.txt -q -o /dev/stdout && echo foot) > ${OUT}/fd1.txt && echo kept > ${OUT}/fd1b.txt && ${CLOSURE_BIN} ${DATA}/diamond.txt -q -o /dev/fd/1 >> ${OUT}/fd1b.txt && echo $(head -1 ${OUT}/fd1.txt) $(($(wc -l < ${OUT}/fd1.txt) - 2)) $(tail -1 ${OUT}/fd1.txt) $(head -1 ${OUT}/fd1b.txt) $(wc -l < ${OUT}/fd1b.txt)")
# Other spellings of a descriptor's name, and one not open (tests/cli/descriptor_spellings.sh).
cli_test(output.descriptor_spellings --stdout "^descriptor spellings ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/descriptor_spellings.sh ${CLOSURE_BIN} ${DATA}/diamond.txt ${OUT}/fd-spellings)
# /dev/stdin as the output is descriptor 0 (read-only here): refused, the file untouched.
cli_test(output.dev_stdin_is_the_descriptor --stderr "cannot write /dev/stdin" --stdout "^precious$" --
         bash -c "echo precious > ${OUT}/stdin-file.txt && ! ${CLOSURE_BIN} ${DATA}/diamond.txt -q -o /dev/stdin < ${OUT}/stdin-file.txt && cat ${OUT}/stdin-file.txt")
# A file-size limit reached is the write's error (exit 4), not a death by SIGXFSZ (153).
cli_test(output.file_size_limit_is_exit_4 --status 4 --stderr "cannot write .*File too large" --
         bash -c "paste -d ' ' <(seq 0 999) <(seq 1 1000) > ${OUT}/chain1k.txt && ulimit -f 100 && exec ${CLOSURE_BIN} ${OUT}/chain1k.txt -q -o ${OUT}/fsize.txt")
# A help longer than stdio's buffer into a full disk is exit 4 too, as a short one is.
foreach(help "run --help" "batch --help" "--version")
  string(REPLACE " " "_" tag "${help}")
  cli_test(help.write_error${tag} --status 4 --stderr "cannot write standard output" --
           bash -c "exec ${CLOSURE_BIN} ${help} > /dev/full")
endforeach()
# Out of descriptors opening an input is the process's resource (exit 4), not bad input (3).
cli_test(input.out_of_descriptors_under_ulimit_is_exit_4 --status 4 --stderr "fd4.idx: cannot open: Too many open files" --
         bash -c "${CLOSURE_BIN} index ${DATA}/cycle.txt -q -o ${OUT}/fd4.idx && (exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- < /dev/null && ulimit -n 4 && exec ${CLOSURE_BIN} query ${OUT}/fd4.idx --pairs ${DATA}/cycle.txt)")
cli_test(reduce.json_beside_the_redirected_file_refused --status 2 --stderr "would both write to standard output" --
         bash -c "${CLOSURE_BIN} reduce ${DATA}/cycle.txt -o ${OUT}/json-same.txt --json > ${OUT}/json-same.txt")
cli_test(verify.memory_zero_refused --status 2 --stderr "--verify-memory 0: .*give at least 1 byte" --
         ${CLOSURE_BIN} verify ${DATA}/cycle.txt --verify-memory 0)
cli_test(verify.inconclusive --status 5 --stdout "^INCONCLUSIVE$" --stderr "2 pairs expected" --
         ${CLOSURE_BIN} verify ${GEN}/matching.txt --verify-memory 1 --sources 2)
cli_test(verify.json_inconclusive --status 5 --stdout "\"verdict\": \"INCONCLUSIVE\"" --stdout "\"match\": false" --
         ${CLOSURE_BIN} verify ${GEN}/matching.txt --verify-memory 1 --sources 2 --json)
# Sources among vertices that reach something: 64 random vertices of a star are sinks.
cli_test(verify.sampled_sources_reach_something --stdout "^MATCH$" --stderr "5000 pairs expected" --
         ${CLOSURE_BIN} verify ${GEN}/star.txt --verify-memory 1)
cli_test(verify.zero_sources --status 2 --stderr "at least 1" -- ${CLOSURE_BIN} verify ${DATA}/cycle.txt --sources 0)
cli_test(verify.zero_verify_sources --status 2 --stderr "at least 1" -- ${CLOSURE_BIN} ${DATA}/cycle.txt --verify --verify-sources 0)
cli_test(batch.zero_verify_sources --status 2 --stderr "at least 1" -- ${CLOSURE_BIN} batch ${DATA}/cycle.txt --out ${GEN}/zero --verify --verify-sources 0)
# Under `ulimit -v`, Boost's full closure (800 MB here) is replaced by the sampled check.
cli_test(verify.under_memory_limit --stdout "^MATCH$" --stderr "sampled" --
         bash -c "ulimit -v 400000 && ${CLOSURE_BIN} verify ${GEN}/chain.txt")
cli_test(query.pairs_folder --status 3 --stderr "is a folder" -- ${CLOSURE_BIN} query ${DATA}/diamond.txt --pairs ${DATA})
cli_test(query.pairs_missing --status 3 --stderr "cannot open" -- ${CLOSURE_BIN} query ${DATA}/diamond.txt --pairs ${GEN}/no-such-pairs.txt)
# Bench options go through CLI11 validators or parsers that throw UsageError: a hostile value
# (negative, zero, huge, not a number) is exit 2 with a message naming the option. Before, some
# were a SIGSEGV (bench bool --sizes -1, bench index --generated power-law:0:5), an endless loop
# (power-law:1:5) or an internal error (exit 4).
function(bench_usage_test name sub option value)
  cli_test(error.bench_${name} --status 2 --stderr "${option}: " --
           ${CLOSURE_BIN} bench ${sub} ${option} ${value} ${ARGN})
endfunction()
foreach(option --sizes --closure)
  string(REGEX REPLACE "^--" "" stem ${option})
  foreach(value -1 0 abc 99999999999999999999)
    bench_usage_test(bool_${stem}_${value} bool ${option} ${value})
  endforeach()
endforeach()
bench_usage_test(bool_sweep_n_negative bool --sweep-n -1)
bench_usage_test(bool_full_check_max_negative bool --full-check-max -1)
bench_usage_test(bool_kernels_typo bool --kernels cubic,cubc)
bench_usage_test(bool_sweep_kernels_typo bool --sweep-kernels utri)
bench_usage_test(bool_params_typo bool --params tile_q=1 --device cpu)
bench_usage_test(bool_mma_params_out_of_range bool --mma-params warp_m=7 --device cpu)
foreach(value -1 0 abc 2000000)
  bench_usage_test(dense_n_${value} dense --n ${value})
endforeach()
bench_usage_test(dense_degree_negative dense --degree -1)
bench_usage_test(dense_repeat_zero dense --repeat 0)
bench_usage_test(dense_base_zero dense --base 0)
bench_usage_test(index_sources_zero index --sources 0)
bench_usage_test(index_random_pairs_negative index --random-pairs -1)
bench_usage_test(index_repeat_zero index --repeat 0)
bench_usage_test(index_dir_missing index --index-dir ${GEN}/no-such-dir --generated commits:10)
bench_usage_test(closure_scale_zero closure --scale 0 --generated chain)
bench_usage_test(closure_scale_negative closure --scale -1 --generated chain)
bench_usage_test(closure_scale_huge closure --scale 1000 --generated chain)
bench_usage_test(closure_memory_cap_negative closure --memory-cap -1 --generated chain)
bench_usage_test(closure_repeat_zero closure --repeat 0 --generated chain)
bench_usage_test(closure_methods_typo closure --methods sprase --generated chain)
bench_usage_test(gemm_only_typo gemm --only seqq --device host --n 8)
bench_usage_test(gemm_params_typo gemm --gemm-params zz=1 --device host --n 8)
bench_usage_test(propagate_repeat_zero propagate --repeat 0 ${DATA}/cycle.txt)
bench_usage_test(propagate_slice_words_negative propagate --slice-words -1 ${DATA}/cycle.txt)
bench_usage_test(read_input_format_typo read --input-format edgs ${DATA}/cycle.txt)
bench_usage_test(chains_stretches_zero chains --stretches 0 ${DATA}/cycle.txt)
bench_usage_test(chains_stretches_typo chains --stretches 1,x ${DATA}/cycle.txt)
bench_usage_test(chains_repeat_zero chains --repeat 0 ${DATA}/cycle.txt)
cli_test(error.bench_gemm_sweep_on_the_host --status 2 --stderr "--sweep needs an OpenCL device" --
         ${CLOSURE_BIN} bench gemm --sweep --device host --n 8)
cli_test(error.bench_propagate_on_the_host --status 2 --stderr "needs an OpenCL device" --
         ${CLOSURE_BIN} bench propagate ${DATA}/cycle.txt --device host)
cli_test(error.bench_read_missing_file --status 3 --stderr "no-such-graph.txt" --
         ${CLOSURE_BIN} bench read ${GEN}/no-such-graph.txt)
# Generated-graph specs: every parameter checked against its range, named in the message.
foreach(spec power-law:0:5 power-law:1:5 power-law:-1:5 commits:0 commits:nan random-dag:3:4)
  string(REPLACE ":" "_" stem ${spec})
  bench_usage_test(index_generated_${stem} index --generated ${spec})
endforeach()
cli_test(error.bench_index_power_law_names_its_range --status 2
         --stderr "'power-law:1:5': N is '1'. it must be a whole number in .2, [0-9]+. " --
         ${CLOSURE_BIN} bench index --generated power-law:1:5)
foreach(spec random-dag:10:46 random-dag:-1:2 random-dag:5 nope)
  string(REPLACE ":" "_" stem ${spec})
  bench_usage_test(closure_generated_${stem} closure --generated ${spec} --no-boost)
endforeach()
# The smallest parameters each index generator accepts finish (power-law:1:5 looped forever).
cli_test(bench.index_smallest_generated_graphs --stdout "^\\| power-law:2:5 \\| 2 \\|"
         --stdout "^\\| commits:1 \\| 1 \\|" --stdout "^\\| random-dag:1:0 \\| 1 \\|" --
         ${CLOSURE_BIN} bench index --generated power-law:2:5,commits:1,random-dag:1:0
         --random-pairs 100 --reachable-pairs 100 --sources 2 --checked-per-source 10)
# Every name `bench closure --help` lists runs (chain, giant-scc, ... were "internal error:
# unknown generated graph"); the list is read from the help itself, so a name added to the
# help without a generator fails here.
cli_test(bench.closure_every_listed_generated_name_runs
         --stdout "^listed names ran: random-dag random_dag_100k_1M giant-scc .*dense_dag_20k_10pct$" --
         bash -c "names=\$(${CLOSURE_BIN} bench closure --help | sed -n 's/.*names from: //p' | cut -d'\;' -f1 | tr -d '(),') && test -n \"\$names\" && for g in \$names\; do ${CLOSURE_BIN} bench closure --generated \$g --scale 0.0001 --no-boost --no-classic --repeat 1 | grep -q ' ok' || { echo \"failed: \$g\"\; exit 1\; }\; done && echo listed names ran: \$names")
# The dense benchmark's host path at an order that is not a multiple of 64 (it was "internal
# error: BitMatrix::block beyond the padded matrix").
cli_test(bench.dense_on_the_host --stdout "100 closure density .* recursive == squaring: yes" --
         ${CLOSURE_BIN} bench dense --device host --n 100 --repeat 1)
# --torch-times reads a regular file of at most 4 MB (/dev/zero was read without end); a
# bad line is named FILE:LINE (exit 3); a good file's figures are used.
file(WRITE ${GEN}/torch-bad.txt "square 64 0.001\nclosure 64 -1\n")
file(WRITE ${GEN}/torch-good.txt "# measured\nsquare 64 0.001\n")
cli_test(error.bench_bool_torch_times_device_file --status 3 --stderr "/dev/zero: is not a regular file" --
         ${CLOSURE_BIN} bench bool --torch-times /dev/zero)
cli_test(error.bench_bool_torch_times_too_large --status 3 --stderr "is larger than 4 MB" --
         bash -c "head -c 5000000 /dev/zero > ${GEN}/torch-big.txt && ${CLOSURE_BIN} bench bool --torch-times ${GEN}/torch-big.txt")
cli_test(error.bench_bool_torch_times_bad_line --status 3 --stderr "torch-bad.txt:2: expected 'closure n seconds'" --
         ${CLOSURE_BIN} bench bool --torch-times ${GEN}/torch-bad.txt)
cli_test(bench.bool_torch_times_read --stdout "PyTorch bf16 squaring: n=64 0.001 s \\(this run\\)" --
         ${CLOSURE_BIN} bench bool --device cpu --sizes 64 --kernels cubic --repeat 1 --torch-times ${GEN}/torch-good.txt)
# Every way on the CLI prints (--header, --delimiter, --input-format adjlist, --force,
# --method sparse), followed as printed, gives the right closure.
# (The --method sparse hint needs ulimit -v: its own test, which sanitized builds skip.)
cli_test(hints_followed --stdout "^hints followed$" --
         env HINTS_UNDER_ULIMIT=0 bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/hints_followed.sh ${CLOSURE_BIN} ${DATA} ${OUT}/hints)
cli_test(hints_followed_under_ulimit --stdout "^hints followed$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/hints_followed.sh ${CLOSURE_BIN} ${DATA} ${OUT}/hints-ulimit)
# --header, --no-header and --delimiter as they read.
cli_test(read.delimiter_and_header --stdout "^a b$" --
         bash -c "printf 'from_pkg|to_pkg\\na|b\\n' > ${OUT}/pipe.txt && ${CLOSURE_BIN} -q ${OUT}/pipe.txt --delimiter '|' --header -o -")
cli_test(read.delimiter_refused_for_mtx --status 2 --stderr "--delimiter: a delimiter applies to delimited text" --
         ${CLOSURE_BIN} ${DATA}/ring.mtx --input-format mtx --delimiter "|")
cli_test(read.header_refused_for_gra --status 2 --stderr "a header row applies to csv, tsv and edge lists, not to the gra format" --
         ${CLOSURE_BIN} ${DATA}/dag.gra --header)
cli_test(read.header_and_no_header_exclude --status 2 --stderr "excludes" --
         ${CLOSURE_BIN} ${DATA}/diamond.txt --header --no-header)
# batch: a label an edge list cannot hold keeps the row's counts and names the file not
# written and the formats that can; a closure written in another format replaces the ones a
# batch wrote before (a user's file of that name stays).
cli_test(batch.spaced_labels_and_other_formats --stdout "^batch-formats-ok$" --
         bash -c "rm -rf ${OUT}/bf && mkdir -p ${OUT}/bf/in && printf '\"a b\",c\\nc,d\\n' > ${OUT}/bf/in/sp.csv && printf '1 2\\n' > ${OUT}/bf/in/ok.txt && ( ${CLOSURE_BIN} batch ${OUT}/bf/in --out ${OUT}/bf/out > ${OUT}/bf/log 2>&1\; test \$? = 4 ) && grep -q 'sp.csv.closure.txt not written: .*--output-format csv' ${OUT}/bf/log && grep -q '\"pairs\":3' ${OUT}/bf/out/sp.csv.summary.json && echo mine > ${OUT}/bf/out/ok.txt.closure.json && ${CLOSURE_BIN} batch ${OUT}/bf/in --out ${OUT}/bf/out --output-format csv > /dev/null && test ! -e ${OUT}/bf/out/ok.txt.closure.txt && test -s ${OUT}/bf/out/sp.csv.closure.csv && grep -q mine ${OUT}/bf/out/ok.txt.closure.json && echo batch-formats-ok")
