# networkx's edge lists in, Graphviz DOT out (docs/formats.md).
set(NX ${CMAKE_CURRENT_SOURCE_DIR}/data/networkx)

# Every networkx edge-list writer's file, closed by closure, against nx.transitive_closure.
add_test(NAME python.networkx_edgelist
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/python/check_networkx_edgelist.py ${CLOSURE_BIN} ${OUT}/nx-edgelist)
# The same without networkx: write_edgelist's dicts (a '}' inside a string) and
# write_weighted_edgelist's weights; a .edgelist is an edge list, never CSV.
cli_test(input.networkx_dicts --stdout "\"pairs\": 12" --stdout "\"format\": \"edges\"" --
         ${CLOSURE_BIN} ${NX}/cycle.edgelist --json)
cli_test(input.networkx_weighted --stdout "\"pairs\": 9" --
         ${CLOSURE_BIN} ${NX}/weighted.edgelist --json)
cli_test(error.dict_unclosed --status 3 --stderr "dict_unclosed.edgelist:2: an unclosed '\\{' in the attribute dictionary"
         --no-file ${OUT}/bad-dict.out -- ${CLOSURE_BIN} ${BAD}/dict_unclosed.edgelist -o ${OUT}/bad-dict.out)

# Graphviz DOT out: the closure's pairs (-o c.dot), the reduction (reduce -o r.dot) and the
# condensation (reduce --condensation -o c.dot), plain and gzip'ed; Graphviz must parse and
# render each (tests/cli/check_dot.sh), with a node per vertex (or component). (The
# patterns match a statement's closing ';' as '.': a ';' would split the CMake list.)
set(CHECK_DOT ${CMAKE_CURRENT_SOURCE_DIR}/cli/check_dot.sh)
find_program(CLOSURE_DOT_PROGRAM dot)
if(CLOSURE_DOT_PROGRAM)
  set(RENDERED "^rendered [0-9]+ nodes$")
else()
  set(RENDERED "^(rendered [0-9]+ nodes|no graphviz)$")
endif()
set(DOTS ${OUT}/dot)
file(MAKE_DIRECTORY ${DOTS})
cli_test(output.dot_closure --stdout "^  \"1\" -> \"5\".$" --stdout "${RENDERED}" --
         bash -c "${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${DOTS}/c.dot && cat ${DOTS}/c.dot && ${CHECK_DOT} ${DOTS}/c.dot 1 2 3 4 5")
cli_test(output.dot_closure_gz_case_aside --stdout "^digraph closure \\{$" --stdout "^  \"alice\" -> \"alice\".$" --stdout "${RENDERED}" --
         bash -c "${CLOSURE_BIN} -q ${DATA}/names.txt -o ${DOTS}/n.GV.gz && gzip -dc ${DOTS}/n.GV.gz && ${CHECK_DOT} ${DOTS}/n.GV.gz alice")
# Labels DOT must escape (read from CSV, which holds them as they are): quotes, a trailing
# backslash, blanks, a byte that is not UTF-8.
cli_test(output.dot_escapes --stdout "^  \"x\\\\\\\\\" -> \"a \\\\\"b\\\\\"\".$" --stdout "^  \"\\\\xff\".$" --stdout "${RENDERED}" --
         bash -c "printf 'x\\\\,\"a \"\"b\"\"\"\\nx\\\\,\\377\\n' > ${DOTS}/esc.csv && ${CLOSURE_BIN} -q ${DOTS}/esc.csv -o ${DOTS}/esc.dot && cat ${DOTS}/esc.dot && ${CHECK_DOT} ${DOTS}/esc.dot")
cli_test(output.dot_reduction --stdout "^digraph reduction \\{$" --stdout "^  \"1\" -> \"2\".$" --stdout "${RENDERED}" --
         bash -c "${CLOSURE_BIN} reduce -q ${DATA}/diamond.txt -o ${DOTS}/r.dot && cat ${DOTS}/r.dot && ! grep -q '\"1\" -> \"5\"' ${DOTS}/r.dot && ${CHECK_DOT} ${DOTS}/r.dot 1 2 3 4 5")
cli_test(output.dot_condensation --stdout "^  \"1\" \\[shape=box, label=\"1\\\\n2\\\\n3\"\\].$" --stdout "\"components\": 4" --stdout "\"reduced_condensation_edges\": 3" --stdout "${RENDERED}" --
         bash -c "${CLOSURE_BIN} reduce ${DATA}/cycle.txt --condensation --json -o ${DOTS}/k.dot.gz && gzip -dc ${DOTS}/k.dot.gz && ${CHECK_DOT} ${DOTS}/k.dot.gz 1 4 5 6")
cli_test(output.dot_condensation_needs_dot --status 2 --stderr "--condensation draws Graphviz DOT" --no-file ${DOTS}/k.txt --
         ${CLOSURE_BIN} reduce ${DATA}/cycle.txt --condensation -o ${DOTS}/k.txt)
# Standard output has no extension: --output-format dot draws there (and under any name
# but one whose extension means a data format).
cli_test(output.dot_to_stdout --stdout "^  \"1\" -> \"5\".$" --stdout "${RENDERED}" --
         bash -c "${CLOSURE_BIN} -q ${DATA}/diamond.txt -o - --output-format dot > ${DOTS}/stdout.dot && cat ${DOTS}/stdout.dot && ${CHECK_DOT} ${DOTS}/stdout.dot 1 2 3 4 5")
cli_test(output.dot_format_conflicts_with_json_name --status 2 --stderr "conflicts with the extension" --no-file ${DOTS}/c.json --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${DOTS}/c.json --output-format dot)
# The size guard counts a drawing's bytes too.
cli_test(output.dot_max_output --status 4 --stderr "as dot" --no-file ${DOTS}/big.dot --
         ${CLOSURE_BIN} -q ${DATA}/diamond.txt -o ${DOTS}/big.dot --max-output 100)
# networkx's write_edgelist with a delimiter glued to its attribute dicts: ',' reads as CSV
# whatever the file is named; a delimiter no reader splits on is refused (exit 3), never
# read as vertices named "0;7;{'weight':".
cli_test(formats.networkx_comma_edgelist_with_dicts --stdout "^0 3$" --stdout "^0 7$" --stdout "^7 3$" --
         bash -c "printf \"0,7,{'weight': 0.941}\\n7,3,{'weight': 0.5}\\n\" > ${OUT}/nx-comma.txt && ${CLOSURE_BIN} -q ${OUT}/nx-comma.txt -o -")
cli_test(formats.networkx_pipe_edgelist_refused --status 3 --stderr "write_edgelist with delimiter '.'" --
         bash -c "printf \"0|7|{'weight': 0.941}\\n\" > ${OUT}/nx-pipe.txt && ${CLOSURE_BIN} -q ${OUT}/nx-pipe.txt")
