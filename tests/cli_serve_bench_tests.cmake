# CLI tests of `closure bench serve`: the bounded load client for `closure serve`, on a
# service it starts itself (--start) and refusals of unbounded or non-local runs. Each test
# writes its own folder (ctest runs them in parallel) and stays within a few seconds.
set(SBENCH ${OUT}/serve-bench)
file(MAKE_DIRECTORY ${SBENCH}/chain ${SBENCH}/names ${SBENCH}/bounded ${SBENCH}/copy)
# A chain of 1000 vertices: identity labels 0..999, learnt from GET /facts.
set(SBENCH_CHAIN "seq 0 998 | awk '{ print \$1, \$1 + 1 }'")

cli_test(bench_serve.start --stdout "^pairs +[1-9][0-9]* +0 " --stdout "^batch +[1-9]"
         --stdout "^total +[1-9][0-9]* +0 " --stdout "exit status 0" --
         bash -c "${SBENCH_CHAIN} > ${SBENCH}/chain/g.txt && ${CLOSURE_BIN} index -q ${SBENCH}/chain/g.txt -o ${SBENCH}/chain/g.idx && ${CLOSURE_BIN} bench serve --start ${SBENCH}/chain/g.idx --seconds 1 --connections 4")
# Named labels: --labels gives them; without it the service's labels are not identity ones.
cli_test(bench_serve.labels_file --stdout "^total +[1-9][0-9]* +0 " --stdout "7 labels" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${SBENCH}/names/n.idx && printf 'alice\\nbob\\ncarol\\ndave\\neve\\nfrank\\nzed\\n' > ${SBENCH}/names/labels.txt && ${CLOSURE_BIN} bench serve --start ${SBENCH}/names/n.idx --labels ${SBENCH}/names/labels.txt --seconds 1 --connections 4 -q")
cli_test(bench_serve.names_need_labels --status 2 --stderr "give --labels FILE" --
         bash -c "${CLOSURE_BIN} index -q ${DATA}/names.txt -o ${SBENCH}/names/n2.idx && ${CLOSURE_BIN} bench serve --start ${SBENCH}/names/n2.idx --seconds 1 --connections 2 -q")
# --requests alone bounds the run: exactly that many requests, in all kinds together (the
# total's "requests", indented 4; the kinds' are indented 6).
cli_test(bench_serve.requests_bound --stdout "^  \"total\": \\{" --stdout "^    \"requests\": 300,"
         --stdout "\"server_exit_status\": 0" --
         bash -c "${SBENCH_CHAIN} > ${SBENCH}/bounded/g.txt && ${CLOSURE_BIN} index -q ${SBENCH}/bounded/g.txt -o ${SBENCH}/bounded/g.idx && ${CLOSURE_BIN} bench serve --start ${SBENCH}/bounded/g.idx --requests 300 --connections 3 --json -q")
# Appends go to a copy: the user's index is unchanged and gets no journal beside it.
cli_test(bench_serve.start_appends_to_a_copy --stdout "^edges +[1-9]" --stdout "^unchanged$" --
         bash -c "${SBENCH_CHAIN} > ${SBENCH}/copy/g.txt && ${CLOSURE_BIN} index -q ${SBENCH}/copy/g.txt -o ${SBENCH}/copy/g.idx && cp ${SBENCH}/copy/g.idx ${SBENCH}/copy/before.idx && ${CLOSURE_BIN} bench serve --start ${SBENCH}/copy/g.idx --mix pairs=1,edges=1 --seconds 1 --connections 2 -q && cmp ${SBENCH}/copy/g.idx ${SBENCH}/copy/before.idx && test ! -e ${SBENCH}/copy/g.idx.journal && echo unchanged")
# Refused: a service elsewhere, an unbounded run, a bound past 600 s, a bad mix; a service
# that is not there is a clear failure naming the URL.
cli_test(bench_serve.remote_refused --status 2 --stderr "bench serve drives a local service only" --
         ${CLOSURE_BIN} bench serve --url http://10.0.0.1:1 --seconds 1)
cli_test(bench_serve.unbounded_refused --status 2 --stderr "unbounded" --
         ${CLOSURE_BIN} bench serve --url http://127.0.0.1:1 --seconds 0)
cli_test(bench_serve.long_refused --status 2 --stderr "--seconds" --
         ${CLOSURE_BIN} bench serve --url http://127.0.0.1:1 --seconds 601)
cli_test(bench_serve.bad_mix_refused --status 2 --stderr "unknown request kind 'lookups'" --
         ${CLOSURE_BIN} bench serve --url http://127.0.0.1:1 --mix lookups=5)
cli_test(bench_serve.connection_refused --status 4 --stderr "cannot connect to http://127.0.0.1:1" --
         ${CLOSURE_BIN} bench serve --url http://127.0.0.1:1 --seconds 1)
