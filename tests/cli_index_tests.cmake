# CLI tests of the reachability index: index, query on an index, reach, reduce, and hostile
# index files.
set(IDX ${OUT}/index)
file(MAKE_DIRECTORY ${IDX})
cli_test(index.build --stderr "closure index: 6 vertices" --stderr "bytes" --
         ${CLOSURE_BIN} index ${DATA}/names.txt -o ${IDX}/names.idx)
cli_test(index.json --stdout "\"components\": 4" --stdout "\"bytes\": [0-9]+" --
         ${CLOSURE_BIN} index ${DATA}/cycle.txt -o ${IDX}/cycle.idx --json -q)
# The same answers from an index as from the closure, in the same lines.
cli_test(index.query_yes --stdout "^1 5 yes$" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/diamond.txt -o ${IDX}/d.idx && ${CLOSURE_BIN} query ${IDX}/d.idx 1 5")
cli_test(index.query_no --stdout "^5 1 no$" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/diamond.txt -o ${IDX}/d2.idx && ${CLOSURE_BIN} query ${IDX}/d2.idx 5 1")
cli_test(index.query_self_strict --stdout "^alice alice yes$" --stdout "^dave dave no$" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${IDX}/n1.idx && printf 'alice alice\\ndave dave\\n' | ${CLOSURE_BIN} query ${IDX}/n1.idx --pairs -")
cli_test(index.query_reflexive --stdout "^dave dave yes$" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${IDX}/n2.idx && ${CLOSURE_BIN} query ${IDX}/n2.idx dave dave --reflexive")
cli_test(index.query_unknown --status 3 --stdout "unknown vertex 'zed'" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${IDX}/n3.idx && ${CLOSURE_BIN} query ${IDX}/n3.idx alice zed")
cli_test(index.query_pairs_same_as_closure --stdout "^same$" --
         bash -c "printf 'eve frank\\nfrank eve\\nnobody eve\\njunk\\nalice dave\\n' > ${IDX}/q.txt && ${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${IDX}/n4.idx && (${CLOSURE_BIN} query -q ${DATA}/names.txt --pairs ${IDX}/q.txt > ${IDX}/a.txt || true) && (${CLOSURE_BIN} query -q ${IDX}/n4.idx --pairs ${IDX}/q.txt > ${IDX}/b.txt || true) && (${CLOSURE_BIN} query -q ${DATA}/names.txt --engine index --pairs ${IDX}/q.txt > ${IDX}/c.txt || true) && cmp ${IDX}/a.txt ${IDX}/b.txt && cmp ${IDX}/a.txt ${IDX}/c.txt && echo same")
# Batches of 4096 pipelined answers: 10,000 lines of known and unknown names, malformed
# lines, comments and trailing comments (named vertices, cycles) give the same lines, in the
# same order, as the closure's answers; from a file, from a pipe, and as JSON.
# Each test writes its own folder: ctest runs them in parallel, and one test rewriting a
# file the other had mapped was a SIGBUS.
file(MAKE_DIRECTORY ${IDX}/plain ${IDX}/json)
set(BIGQ_PLAIN "bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/query_batch_fixture.sh ${IDX}/plain && ${CLOSURE_BIN} index -q ${IDX}/plain/bigg.txt -o ${IDX}/plain/bigg.idx")
set(BIGQ_JSON "bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/query_batch_fixture.sh ${IDX}/json && ${CLOSURE_BIN} index -q ${IDX}/json/bigg.txt -o ${IDX}/json/bigg.idx")
cli_test(index.query_pairs_batches_same_as_closure --stdout "^same$" --
         bash -c "${BIGQ_PLAIN} && (${CLOSURE_BIN} query -q ${IDX}/plain/bigg.txt --engine closure --pairs ${IDX}/plain/bigq.txt > ${IDX}/plain/ba.txt || true) && (${CLOSURE_BIN} query -q ${IDX}/plain/bigg.idx --pairs ${IDX}/plain/bigq.txt > ${IDX}/plain/bb.txt || true) && (cat ${IDX}/plain/bigq.txt | ${CLOSURE_BIN} query -q ${IDX}/plain/bigg.idx --pairs - > ${IDX}/plain/bc.txt || true) && test $(wc -l < ${IDX}/plain/ba.txt) -gt 9000 && grep -q ' yes$' ${IDX}/plain/ba.txt && grep -q ' no$' ${IDX}/plain/ba.txt && grep -q 'unknown vertex' ${IDX}/plain/ba.txt && grep -q 'expected two labels' ${IDX}/plain/ba.txt && cmp ${IDX}/plain/ba.txt ${IDX}/plain/bb.txt && sed 's|^${IDX}/plain/bigq.txt:|-:|' ${IDX}/plain/ba.txt | cmp - ${IDX}/plain/bc.txt && echo same")
cli_test(index.query_pairs_batches_json_same_as_closure --stdout "^same$" --
         bash -c "${BIGQ_JSON} && (${CLOSURE_BIN} query -q ${IDX}/json/bigg.txt --engine closure --json --pairs ${IDX}/json/bigq.txt > ${IDX}/json/ja.txt || true) && (${CLOSURE_BIN} query -q ${IDX}/json/bigg.idx --json --pairs ${IDX}/json/bigq.txt > ${IDX}/json/jb.txt || true) && grep -q '\"reachable\":true' ${IDX}/json/ja.txt && cmp ${IDX}/json/ja.txt ${IDX}/json/jb.txt && echo same")
# Typed pairs are answered as they come, not when input ends: the answer to the first line
# arrives while standard input is still open (a batch would wait for 4096 lines or EOF), and
# reaches a pipe without any help from stdbuf; a pair and a malformed line written at once
# are both answered before the next write.
cli_test(index.query_pairs_interactive --stdout "^first: alice dave yes$" --stdout "^second: dave alice no$"
         --stdout "^third: dave frank yes$" --stdout "^fourth: .*n6.txt:4: expected two labels" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${IDX}/n6.idx && ln -sf /dev/stdin ${IDX}/n6.txt && coproc Q { ${CLOSURE_BIN} query ${IDX}/n6.idx --pairs ${IDX}/n6.txt -q\; } && echo 'alice dave' >&\${Q[1]} && read -t 30 a <&\${Q[0]} && echo first: \$a && echo 'dave alice' >&\${Q[1]} && read -t 30 b <&\${Q[0]} && echo second: \$b && printf 'dave frank\\njunk\\n' >&\${Q[1]} && read -t 30 c <&\${Q[0]} && read -t 30 d <&\${Q[0]} && echo third: \$c && echo fourth: \$d")
cli_test(index.query_pairs_interactive_stdin --stdout "^first: alice dave yes$" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${IDX}/n5.idx && coproc Q { ${CLOSURE_BIN} query ${IDX}/n5.idx --pairs - -q\; } && echo 'alice dave' >&\${Q[1]} && read -t 30 a <&\${Q[0]} && echo first: \$a")
cli_test(index.query_graph_and_pairs_both_stdin --status 2 --stderr "cannot both come from standard input" --
         ${CLOSURE_BIN} query - --pairs -)
# A label that is not UTF-8 is written with U+FFFD in JSON lines, the same from an index as
# from the closure, and the lines before it are not lost.
cli_test(index.query_json_non_utf8_label --stdout "^same$" --
         bash -c "printf 'a b\\nb \\377\\n' > ${IDX}/u8.txt && printf 'a b\\nb \\377\\n\\377 a\\n' > ${IDX}/u8q.txt && ${CLOSURE_BIN} index -q ${IDX}/u8.txt -o ${IDX}/u8.idx && ${CLOSURE_BIN} query -q ${IDX}/u8.txt --engine closure --json --pairs ${IDX}/u8q.txt > ${IDX}/u8a.txt && ${CLOSURE_BIN} query -q ${IDX}/u8.idx --json --pairs ${IDX}/u8q.txt > ${IDX}/u8b.txt && test $(wc -l < ${IDX}/u8a.txt) -eq 3 && grep -q 'reachable.:true' ${IDX}/u8a.txt && grep -q 'udcff' ${IDX}/u8a.txt && cmp ${IDX}/u8a.txt ${IDX}/u8b.txt && echo same")
cli_test(index.query_engine_index_says_nothing_small --stdout "^1 5 yes$" --
         ${CLOSURE_BIN} query ${DATA}/diamond.txt 1 5 --engine index)
# A graph whose closure could exceed 64 MiB: auto answers from an index and says so.
cli_test(index.query_auto_large --stdout "^0 29999 yes$" --stderr "reachability index built on the fly" --
         bash -c "seq 0 29998 | awk '{print \$1, \$1+1}' > ${IDX}/chain.txt && ${CLOSURE_BIN} query ${IDX}/chain.txt 0 29999")
cli_test(index.no_output --status 2 -- ${CLOSURE_BIN} index ${DATA}/diamond.txt)
cli_test(index.supportive_out_of_range --status 2 --stderr "supportive" --
         ${CLOSURE_BIN} index ${DATA}/diamond.txt -o ${IDX}/s.idx --supportive 33)
# An index file of 32 MiB or more is read into huge pages instead of mapped: the same answers.
cli_test(index.big_file_read_into_huge_pages --stdout "^0 649999 yes$" --stdout "^649999 0 no$" --
         bash -c "seq 0 649998 | awk '{print \$1, \$1+1}' > ${IDX}/long.txt && ${CLOSURE_BIN} index -q ${IDX}/long.txt -o ${IDX}/long.idx && test $(stat -c %s ${IDX}/long.idx) -ge 33554432 && printf '0 649999\\n649999 0\\n' | ${CLOSURE_BIN} query ${IDX}/long.idx --pairs -")
cli_test(index.bad_graph --status 3 --stderr "missing_column.txt:2" --no-file ${IDX}/bad.idx --
         ${CLOSURE_BIN} index ${BAD}/missing_column.txt -o ${IDX}/bad.idx)

# Hostile index files: refused with a clear message and exit status 3.
set(MK "${CLOSURE_BIN} index -q ${DATA}/names.txt -o")
set(CORRUPT ${CMAKE_CURRENT_SOURCE_DIR}/cli/corrupt_index.py)
cli_test(index.hostile_truncated --status 3 --stderr "truncated index file" --
         bash -c "${MK} ${IDX}/t.idx && head -c 150 ${IDX}/t.idx > ${IDX}/t2.idx && ${CLOSURE_BIN} query ${IDX}/t2.idx alice bob")
cli_test(index.hostile_header_only --status 3 --stderr "truncated index file" --
         bash -c "${MK} ${IDX}/h.idx && head -c 40 ${IDX}/h.idx > ${IDX}/h2.idx && ${CLOSURE_BIN} query ${IDX}/h2.idx alice bob")
cli_test(index.hostile_flipped_byte --status 3 --stderr "checksum mismatch" --
         bash -c "${MK} ${IDX}/f.idx && python3 ${CORRUPT} ${IDX}/f.idx ${IDX}/f2.idx flip 120 && ${CLOSURE_BIN} query ${IDX}/f2.idx alice bob")
cli_test(index.hostile_appended --status 3 --stderr "damaged index file" --
         bash -c "${MK} ${IDX}/p.idx && cat ${IDX}/p.idx > ${IDX}/p2.idx && echo extra >> ${IDX}/p2.idx && ${CLOSURE_BIN} query ${IDX}/p2.idx alice bob")
cli_test(index.hostile_version --status 3 --stderr "version 7" --
         bash -c "${MK} ${IDX}/v.idx && python3 ${CORRUPT} ${IDX}/v.idx ${IDX}/v2.idx set 8 7 && ${CLOSURE_BIN} query ${IDX}/v2.idx alice bob")
cli_test(index.hostile_empty_with_magic --status 3 --stderr "truncated index file" --
         bash -c "printf CLOSRIDX > ${IDX}/e.idx && ${CLOSURE_BIN} query ${IDX}/e.idx a b")

# reach: descendants and ancestors in the input's labels; strict (u only on a cycle).
cli_test(reach.descendants --stdout "^2$" --stdout "^5$" --
         bash -c "${CLOSURE_BIN} reach ${DATA}/diamond.txt 1 | tr '\\n' ' ' | grep -q '^2 3 4 5 $' && ${CLOSURE_BIN} reach ${DATA}/diamond.txt 1")
cli_test(reach.ancestors --stdout "^1$" -- ${CLOSURE_BIN} reach ${DATA}/diamond.txt 2 --ancestors)
cli_test(reach.count --stdout "^4$" -- ${CLOSURE_BIN} reach ${DATA}/diamond.txt 1 --count)
# reach's lines name their vertices as edge lists write them: each line given back to query
# names the same vertex (tests/cli/reach_lines_escaped.sh).
cli_test(reach.lines_are_labels_escaped --stdout "^reach lines escaped ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/reach_lines_escaped.sh ${CLOSURE_BIN} ${OUT}/reach-escaped)
# query's answer lines echo labels the same way on every path, and read back as the same
# questions (tests/cli/query_lines_escaped.sh).
cli_test(query.answer_lines_are_labels_escaped --stdout "^query lines escaped ok$" --
         bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/query_lines_escaped.sh ${CLOSURE_BIN} ${OUT}/query-escaped)
cli_test(reach.json --stdout "\"count\": 4" --stdout "\"vertices\"" --stdout "^ *\"5\"$" --
         ${CLOSURE_BIN} reach ${DATA}/diamond.txt 1 --json)
cli_test(reach.unknown --status 3 --stderr "unknown vertex 'nobody'" -- ${CLOSURE_BIN} reach ${DATA}/names.txt nobody)
cli_test(reach.cycle_includes_self --stdout "^alice$" -- ${CLOSURE_BIN} reach ${DATA}/names.txt alice)

# reduce: the transitive reduction keeps the closure.
cli_test(reduce.diamond --stdout "^kept$" --no-file ${IDX}/none.txt --
         bash -c "${CLOSURE_BIN} reduce -q ${DATA}/diamond.txt -o ${IDX}/r.txt && ${CLOSURE_BIN} -q ${IDX}/r.txt -o ${IDX}/rc.txt && diff <(grep -v '^#' ${DATA}/diamond.closure.txt | sort) <(sort ${IDX}/rc.txt) && echo kept")
cli_test(reduce.json --stdout "\"reduced_edges\": 5" --stdout "\"reduction\"" --
         ${CLOSURE_BIN} reduce ${DATA}/diamond.txt --json)
cli_test(reduce.stdout --stdout "^[0-9]+ [0-9]+$" -- ${CLOSURE_BIN} reduce ${DATA}/diamond.txt)

# reduce, reach and index queries against networkx on random DAGs and cyclic graphs.
add_test(NAME python.reach_networkx
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/python/check_reach_networkx.py ${CLOSURE_BIN} ${OUT}/networkx)
cli_test(query.json --stdout "^\\{\"u\": ?\"1\", ?\"v\": ?\"5\", ?\"reachable\": ?true\\}$" --
         ${CLOSURE_BIN} query ${DATA}/diamond.txt 1 5 --json)
cli_test(query.json_unknown --status 3 --stdout "\"error\": ?\"unknown vertex 'zed'\"" --
         ${CLOSURE_BIN} query ${DATA}/names.txt alice zed --json --engine index)
# A label with a line break cannot be shown one per line: refused (usage), never printed
# as two lines; --json shows it escaped.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/reach-line-break.dot "digraph { c -> \"a\nb\" }\n")
cli_test(reach.line_break_label_refused --status 2 --stderr "is blank or holds a line break, which one label per line cannot show" --
         ${CLOSURE_BIN} reach ${CMAKE_CURRENT_BINARY_DIR}/reach-line-break.dot c)
# Nor the label "" or " " (DOT names): a blank line, which no reader takes for a label.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/reach-empty-label.dot "digraph { c -> \"\" }\n")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/reach-blank-label.dot "digraph { c -> \" \"; c -> \"lead \" }\n")
cli_test(reach.empty_label_refused --status 2 --stderr "label '' is blank or holds a line break" --
         ${CLOSURE_BIN} reach ${CMAKE_CURRENT_BINARY_DIR}/reach-empty-label.dot c)
cli_test(reach.blank_label_refused --status 2 --stderr "label ' ' is blank or holds a line break" --
         ${CLOSURE_BIN} reach ${CMAKE_CURRENT_BINARY_DIR}/reach-blank-label.dot c)
cli_test(reach.empty_label_in_json --stdout "^ +\"\"$" --stdout "\"count\": 1" --
         ${CLOSURE_BIN} reach ${CMAKE_CURRENT_BINARY_DIR}/reach-empty-label.dot c --json)
cli_test(reach.line_break_label_in_json --stdout "\"a\\\\nb\"" --
         ${CLOSURE_BIN} reach ${CMAKE_CURRENT_BINARY_DIR}/reach-line-break.dot c --json)
# Binary pairs (--pairs-format u32): 8 bytes a pair in, one byte an answer out (0 no, 1 yes,
# 2 u unknown, 3 v unknown), the same verdicts as the lines; refused with names, a closure,
# --json or a terminal on stdout.
cli_test(index.query_pairs_u32_answers_bytes --stdout "^ *1 +0 +0 +2 +3 *$" --stdout "^status 3$" --
         bash -c "printf '0 1\\n1 2\\n' > ${IDX}/u32g.txt && ${CLOSURE_BIN} index -q ${IDX}/u32g.txt -o ${IDX}/u32g.idx && printf '\\000\\000\\000\\000\\002\\000\\000\\000\\002\\000\\000\\000\\000\\000\\000\\000\\001\\000\\000\\000\\001\\000\\000\\000\\005\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\000\\377\\377\\377\\377' > ${IDX}/u32q.bin && ${CLOSURE_BIN} query -q ${IDX}/u32g.idx --pairs ${IDX}/u32q.bin --pairs-format u32 > ${IDX}/u32a.bin\; echo status \$? && od -An -tu1 ${IDX}/u32a.bin")
cli_test(index.query_pairs_u32_same_as_lines --stdout "^same$" --
         python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/pairs_u32_same_as_lines.py ${CLOSURE_BIN} ${IDX})
# On a graph, auto answers binary pairs from an index built on the fly: the same bytes.
cli_test(index.query_pairs_u32_graph_builds_an_index --stdout "^same$" --
         bash -c "printf '0 1\\n1 2\\n2 0\\n3 4\\n' > ${IDX}/u32h.txt && ${CLOSURE_BIN} index -q ${IDX}/u32h.txt -o ${IDX}/u32h.idx && printf '\\000\\000\\000\\000\\002\\000\\000\\000\\003\\000\\000\\000\\004\\000\\000\\000\\004\\000\\000\\000\\003\\000\\000\\000' > ${IDX}/u32h.bin && ${CLOSURE_BIN} query -q ${IDX}/u32h.txt --pairs ${IDX}/u32h.bin --pairs-format u32 > ${IDX}/u32h.a && ${CLOSURE_BIN} query -q ${IDX}/u32h.idx --pairs ${IDX}/u32h.bin --pairs-format u32 > ${IDX}/u32h.b && od -An -tu1 ${IDX}/u32h.a | grep -q '1 *1 *0' && cmp ${IDX}/u32h.a ${IDX}/u32h.b && echo same")
cli_test(index.query_pairs_u32_torn_file --status 3 --stderr "not a whole number of 8-byte pairs" --
         bash -c "printf '0 1\\n' > ${IDX}/u32t.txt && ${CLOSURE_BIN} index -q ${IDX}/u32t.txt -o ${IDX}/u32t.idx && printf '\\000\\000\\000\\000\\001\\000\\000' > ${IDX}/u32t.bin && ${CLOSURE_BIN} query -q ${IDX}/u32t.idx --pairs ${IDX}/u32t.bin --pairs-format u32 | wc -c | grep -qx 0 && exit \${PIPESTATUS[0]}")
# The answers' reader gone (a quick, quiet stop, even on endless pairs), a full disk (exit 4,
# lines and bytes alike), a pipe torn within a pair (the whole pairs answered, exit 3), and
# standard input a file already partly read (its rest is what counts).
cli_test(index.query_pairs_u32_reader_gone --stdout "^10 status 0$" --
         bash -c "printf '0 1\\n1 0\\n' > ${IDX}/u32z.txt && ${CLOSURE_BIN} index -q ${IDX}/u32z.txt -o ${IDX}/u32z.idx && n=\$(timeout 60 ${CLOSURE_BIN} query -q ${IDX}/u32z.idx --pairs /dev/zero --pairs-format u32 | head -c 10 | wc -c\; echo \" status \${PIPESTATUS[0]}\") && echo \$n")
cli_test(index.query_pairs_full_disk --stdout "^4 4$" --stderr "cannot write the answers" --
         bash -c "printf '0 1\\n1 0\\n' > ${IDX}/u32f.txt && ${CLOSURE_BIN} index -q ${IDX}/u32f.txt -o ${IDX}/u32f.idx && printf '0 1\\n' > ${IDX}/u32f.q && printf '\\000\\000\\000\\000\\001\\000\\000\\000' > ${IDX}/u32f.bin && (${CLOSURE_BIN} query -q ${IDX}/u32f.idx --pairs ${IDX}/u32f.q > /dev/full\; a=\$?\; ${CLOSURE_BIN} query -q ${IDX}/u32f.idx --pairs ${IDX}/u32f.bin --pairs-format u32 > /dev/full\; echo \$a \$?)")
cli_test(index.query_pairs_u32_torn_pipe --stdout "^ *1 *$" --stdout "^status 3$" --stderr "ends with 1 byte that" --
         bash -c "printf '0 1\\n1 0\\n' > ${IDX}/u32p.txt && ${CLOSURE_BIN} index -q ${IDX}/u32p.txt -o ${IDX}/u32p.idx && printf '\\000\\000\\000\\000\\001\\000\\000\\000\\003' | ${CLOSURE_BIN} query -q ${IDX}/u32p.idx --pairs - --pairs-format u32 > ${IDX}/u32p.a\; echo status \$? && od -An -tu1 ${IDX}/u32p.a")
cli_test(index.query_pairs_u32_stdin_partly_read --stdout "^ *1 +0 *$" --
         bash -c "printf '0 1\\n' > ${IDX}/u32s.txt && ${CLOSURE_BIN} index -q ${IDX}/u32s.txt -o ${IDX}/u32s.idx && printf '\\377\\377\\377\\377\\000\\000\\000\\000\\001\\000\\000\\000\\001\\000\\000\\000\\000\\000\\000\\000' > ${IDX}/u32s.bin && { dd bs=4 count=1 of=/dev/null 2>/dev/null\; ${CLOSURE_BIN} query -q ${IDX}/u32s.idx --pairs - --pairs-format u32\; } < ${IDX}/u32s.bin | od -An -tu1")
cli_test(index.query_pairs_u32_named_index --status 2 --stderr "have names" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${IDX}/u32n.idx && printf '\\000\\000\\000\\000\\001\\000\\000\\000' | ${CLOSURE_BIN} query -q ${IDX}/u32n.idx --pairs - --pairs-format u32 > /dev/null")
cli_test(index.query_pairs_u32_needs_an_index --status 2 --stderr "answered from an index" --
         bash -c "printf '\\000\\000\\000\\000\\001\\000\\000\\000' | ${CLOSURE_BIN} query ${DATA}/diamond.txt --engine closure --pairs - --pairs-format u32 > /dev/null")
cli_test(index.query_pairs_u32_not_json --status 2 --stderr "not JSON" --
         bash -c "${CLOSURE_BIN} query ${IDX}/u32n.idx --pairs /dev/null --pairs-format u32 --json > /dev/null")
cli_test(index.query_pairs_u32_not_to_a_terminal --stdout "^status 2$" --stdout "redirect standard output" --
         bash -c "script -qec '${CLOSURE_BIN} query ${DATA}/diamond.txt --pairs /dev/null --pairs-format u32' /dev/null\; echo status \$?")
