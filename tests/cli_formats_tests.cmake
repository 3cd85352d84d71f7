# Issue 27: networkx's edge lists in, Graphviz DOT out (docs/formats.md).
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
