# CLI tests of the living index and `closure serve`: `index --append` answers as
# a rebuild does, and the service's fault tests (tests/cli/serve_faults.py), each on
# loopback, bounded in count and time (the script's alarm stops it at 120 s).
set(LIVE ${OUT}/living)
file(MAKE_DIRECTORY ${LIVE})
foreach(scenario kill9 malformed slow reload fulldisk term port twice)
  add_test(NAME cli.serve.${scenario}
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/serve_faults.py $<TARGET_FILE:closure>
                   ${LIVE}/${scenario} ${scenario})
  set_tests_properties(cli.serve.${scenario} PROPERTIES TIMEOUT 150)
endforeach()
# Appends of every kind into an index file answer as the index of both graphs together.
cli_test(index.append_equals_rebuild --stdout "^same$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/index_append.sh ${CLOSURE_BIN} ${LIVE}/append)
cli_test(index.append_in_place --stdout "^top c0 yes$" --stdout "^c5 top no$" --
         bash -c "printf 'c1 c0\\nc2 c1\\nc3 c2\\nc4 c3\\nc5 c4\\n' > ${LIVE}/p.txt && ${CLOSURE_BIN} index -q ${LIVE}/p.txt -o ${LIVE}/p.idx && printf 'top c5\\n' > ${LIVE}/p_new.txt && ${CLOSURE_BIN} index -q --append ${LIVE}/p.idx ${LIVE}/p_new.txt -o ${LIVE}/p.idx && printf 'c5 top\\ntop c0\\n' | ${CLOSURE_BIN} query -q ${LIVE}/p.idx --pairs -")
cli_test(index.merge_needs_append --status 2 --stderr "--merge needs --append" --
         ${CLOSURE_BIN} index ${DATA}/diamond.txt -o ${LIVE}/m.idx --merge)
cli_test(index.append_refuses_output_onto_new_edges --status 2 --stderr "is an input" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/diamond.txt -o ${LIVE}/d.idx && cp ${DATA}/diamond.txt ${LIVE}/dnew.txt && ${CLOSURE_BIN} index --append ${LIVE}/d.idx ${LIVE}/dnew.txt -o ${LIVE}/dnew.txt")
cli_test(serve.help --stdout "loopback by default" --stdout "--port-file" -- ${CLOSURE_BIN} serve --help)
# A short soak (the benchmark runs 600 s): mixed reads on 64 connections for 3 s against a
# 20,000-commit history, every request answered, the server sampled as it goes.
add_test(NAME cli.serve.short_soak
         COMMAND bash -c "CLOSURE_BIN=$<TARGET_FILE:closure> bash ${CMAKE_SOURCE_DIR}/tools/bench-serve-soak.sh 3 20000 | tee /dev/stderr | grep -Eq '^total +[1-9][0-9]* +0 ' && echo soak-ok")
set_tests_properties(cli.serve.short_soak PROPERTIES PASS_REGULAR_EXPRESSION "soak-ok" TIMEOUT 120)
