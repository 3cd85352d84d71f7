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
cli_test(no_graph --status 2 --stderr "no graph given" -- ${CLOSURE_BIN})
cli_test(bad_method --status 2 -- ${CLOSURE_BIN} ${DATA}/diamond.txt --method fastest)
cli_test(bad_device --status 2 --stderr "out of range" -- ${CLOSURE_BIN} ${DATA}/diamond.txt --device 99)
cli_test(threads --stdout "pairs" -- ${CLOSURE_BIN} ${DATA}/cycle.txt --threads 1 --method sparse)
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
cli_test(output.too_large --status 4 --stderr "pass --force" --no-file ${OUT}/big.txt --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${OUT}/big.txt --max-output 10)
cli_test(output.forced --closure ${OUT}/forced.txt ${DATA}/diamond.closure.txt --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${OUT}/forced.txt --max-output 10 --force)

cli_test(query.yes --stdout "^1 5 yes$" -- ${CLOSURE_BIN} query ${DATA}/diamond.txt 1 5)
cli_test(query.no --stdout "^5 1 no$" -- ${CLOSURE_BIN} query ${DATA}/diamond.txt 5 1)
cli_test(query.names --stdout "^alice alice yes$" -- ${CLOSURE_BIN} query ${DATA}/names.txt alice alice)
cli_test(query.unknown --status 3 --stdout "unknown vertex 'zed'" -- ${CLOSURE_BIN} query ${DATA}/names.txt alice zed)
cli_test(query.pairs --stdout "^eve frank yes$" --stdout "^frank eve no$" --stdout "unknown vertex 'nobody'"
         --stdout ":4: expected two labels" --status 3 --
         bash -c "printf 'eve frank\\nfrank eve\\nnobody eve\\njunk\\n' | ${CLOSURE_BIN} query ${DATA}/names.txt --pairs -")
cli_test(query.usage --status 2 -- ${CLOSURE_BIN} query ${DATA}/names.txt alice)

cli_test(verify.match --stdout "^MATCH$" --stderr "full" -- ${CLOSURE_BIN} verify ${DATA}/loops.dimacs)
cli_test(verify.sampled --stdout "^MATCH$" --stderr "sampled" --
         ${CLOSURE_BIN} verify ${DATA}/cycle.txt --verify-memory 1)
cli_test(verify.flag --stderr "MATCH against Boost.Graph" -- ${CLOSURE_BIN} ${DATA}/ring.mtx --verify)

cli_test(batch.mixed --status 4 --stdout "2 ok, 1 failed" --
         ${CLOSURE_BIN} batch ${DATA}/diamond.txt ${DATA}/dag.gra ${BAD}/missing_column.txt --out ${OUT}/batch -j 2)
cli_test(batch.resume --stdout "2 resumed" --
         bash -c "${CLOSURE_BIN} batch ${DATA}/diamond.txt ${DATA}/dag.gra --out ${OUT}/resume -q && ${CLOSURE_BIN} batch ${DATA}/diamond.txt ${DATA}/dag.gra --out ${OUT}/resume --resume -q")

# Bad input: exit status 3, the file and line named, no output file left behind.
foreach(case "missing_column.txt:2: expected two columns"
             "non_numeric.gra:4: expected (a )?successor"
             "header_mismatch.dimacs:1: 'p' line declares 5 arcs"
             "beyond_count.dimacs:3: vertex 9 is outside"
             "garbage.txt:1: binary data"
             "empty.txt: empty file"
             "not_square.mtx:2: .* must be square")
  string(REGEX MATCH "^[^:]+" file "${case}")
  cli_test(error.${file} --status 3 --stderr "${case}" --no-file ${OUT}/bad-${file}.out --
           ${CLOSURE_BIN} ${BAD}/${file} -o ${OUT}/bad-${file}.out)
endforeach()
cli_test(error.missing_file --status 3 --stderr "no-such-file.txt: cannot open" --
         ${CLOSURE_BIN} no-such-file.txt)

# Review findings, kept as regressions.
cli_test(batch.same_names --stdout "2 files: 2 ok" --
         bash -c "rm -rf ${OUT}/same && ${CLOSURE_BIN} batch -q ${DATA}/diamond.txt ${CMAKE_CURRENT_SOURCE_DIR}/data/dup/diamond.txt --out ${OUT}/same && test -f ${OUT}/same/diamond.txt.closure.txt && test -f ${OUT}/same/2_diamond.txt.closure.txt && ! cmp -s ${OUT}/same/diamond.txt.closure.txt ${OUT}/same/2_diamond.txt.closure.txt")
cli_test(batch.out_inside_input --stdout "1 files: 1 ok, 0 failed" --
         bash -c "rm -rf ${OUT}/self && mkdir -p ${OUT}/self && cp ${DATA}/diamond.txt ${OUT}/self/ && ${CLOSURE_BIN} batch -q ${OUT}/self --out ${OUT}/self/res && ${CLOSURE_BIN} batch -q ${OUT}/self --out ${OUT}/self/res")
cli_test(subcommand_refuses_run_flags --status 2 --stderr "--output applies to `closure FILE`" --
         ${CLOSURE_BIN} query ${DATA}/diamond.txt 1 5 -o ${OUT}/ignored.txt)
cli_test(verify.json --stdout "\"match\": ?true" --
         bash -c "${CLOSURE_BIN} verify ${DATA}/cycle.txt --json && ! ${CLOSURE_BIN} verify ${DATA}/cycle.txt --json | grep -q '^MATCH'")
cli_test(output.edges_refuse_blank_labels --status 4 --stderr "contains whitespace" --no-file ${OUT}/spaced.txt --
         ${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/spaced_labels.dot -o ${OUT}/spaced.txt)
cli_test(output.json_keeps_blank_labels --stdout "\"a b\":\\[\"c\",\"d e\"\\]" --
         ${CLOSURE_BIN} -q ${CMAKE_CURRENT_SOURCE_DIR}/data/spaced_labels.dot -o - --output-format json)
