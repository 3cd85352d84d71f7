# MPI tests (docs/distributed.md): `mpirun -np P closure G` against one process
# on the example graphs, the GRAIL graphs and random graphs with cycles, for P = 2, 3 and
# 4 (oversubscribed on 2 cores), every method and every output format: the same pair
# count and byte-identical files. Then the faults: one rank out of memory, bad input, a
# refused output target and refused commands. Label `mpi` (the sanitized suite skips
# them: Open MPI's own allocations would be reported as leaks).
set(SAME ${CMAKE_CURRENT_SOURCE_DIR}/mpi/same_as_one_process.sh)
set(RUN_MPI ${CMAKE_CURRENT_SOURCE_DIR}/mpi/run_mpi.sh)
set(MPI_OUT ${CMAKE_CURRENT_BINARY_DIR}/mpi-out)
file(MAKE_DIRECTORY ${MPI_OUT})

function(mpi_test name)
  add_test(NAME mpi.${name} COMMAND ${ARGN})
  set_tests_properties(mpi.${name} PROPERTIES LABELS mpi TIMEOUT 900)
endfunction()

foreach(ranks 2 3)
  foreach(method auto sparse propagate)
    mpi_test(data.${method}.P${ranks} bash ${SAME} ${CLOSURE_BIN} ${ranks} data --method ${method})
  endforeach()
  mpi_test(random.sparse.P${ranks} bash ${SAME} ${CLOSURE_BIN} ${ranks} random --method sparse)
  mpi_test(grail.P${ranks} bash ${SAME} ${CLOSURE_BIN} ${ranks} grail --output-format binary)
endforeach()
# The dense methods: the condensation squared over column panels (SUMMA), on PoCL (the
# default device in CI) and on the host.
foreach(ranks 2 3)
  foreach(method square condense recursive)
    mpi_test(data.${method}.P${ranks} bash ${SAME} ${CLOSURE_BIN} ${ranks} data --method ${method})
  endforeach()
endforeach()
mpi_test(random.recursive.host.P3 env RANDOM_GRAPHS=20 bash ${SAME} ${CLOSURE_BIN} 3 random --method recursive --device host)
mpi_test(random.condense.P2 env RANDOM_GRAPHS=20 bash ${SAME} ${CLOSURE_BIN} 2 random --method condense)
# The device path (PoCL in CI) and 4 ranks on 20 of the random graphs each.
mpi_test(random.propagate.P2 env RANDOM_GRAPHS=20 bash ${SAME} ${CLOSURE_BIN} 2 random --method propagate)
mpi_test(random.auto.P4 env RANDOM_GRAPHS=20 bash ${SAME} ${CLOSURE_BIN} 4 random)
mpi_test(data.P1 bash ${SAME} ${CLOSURE_BIN} 1 data)
# Every output format, reflexive or not, gzip, and the verification on rank 0.
foreach(format edges matrix-market json binary)
  mpi_test(format.${format} bash ${SAME} ${CLOSURE_BIN} 3 data --output-format ${format})
  mpi_test(format.${format}.reflexive bash ${SAME} ${CLOSURE_BIN} 2 data --reflexive --output-format ${format})
endforeach()
mpi_test(verify bash ${EXPECT} --stderr "MATCH against Boost.Graph" --stderr "ranks     2" --
         bash -c "source ${RUN_MPI} && mpi 2 ${CLOSURE_BIN} ${DATA}/cycle.txt --verify")
# `closure verify` goes through the same pipeline as run: across the ranks, rank 0 says the
# verdict (the summary's ranks line shows the work was shared).
mpi_test(verify_command bash ${EXPECT} --stdout "^MATCH$" --stderr "ranks     2" --
         bash -c "source ${RUN_MPI} && mpi 2 ${CLOSURE_BIN} verify ${DATA}/cycle.txt")
mpi_test(verify_command_json bash ${EXPECT} --stdout "\"verdict\": \"MATCH\"" --stdout "\"ranks\": 3" --
         bash -c "source ${RUN_MPI} && mpi 3 ${CLOSURE_BIN} verify ${DATA}/diamond.txt --json")
mpi_test(stdout bash ${EXPECT} --stdout "^1 2$" --stdout "^6 4$" --
         bash -c "source ${RUN_MPI} && mpi 3 ${CLOSURE_BIN} -q ${DATA}/cycle.txt -o -")
mpi_test(count_only bash ${EXPECT} --stdout "\"pairs\": 19," --stdout "\"ranks\": 3" --
         bash -c "source ${RUN_MPI} && mpi 3 ${CLOSURE_BIN} ${DATA}/cycle.txt --json")

# Faults: every rank stops with one message and the same status, and no file is left.
# Rank 1 alone under ulimit -v cannot hold its columns of a 50,000-vertex DAG's closure.
mpi_test(fault.one_rank_out_of_memory bash ${EXPECT} --status 4 --stderr "^closure: rank 1 of 2: the closure's columns"
         --no-file ${MPI_OUT}/oom.txt --
         bash -c "awk 'BEGIN { srand(7)\; for (i = 0\; i < 50000\; i++) for (k = 0\; k < 5\; k++) { j = i + 1 + int(rand() * (50000 - i))\; if (j < 50000) print i, j } }' > ${MPI_OUT}/dag50k.txt && source ${RUN_MPI} && mpirun -np 1 ${CLOSURE_BIN} -q ${MPI_OUT}/dag50k.txt -o ${MPI_OUT}/oom.txt --force : -np 1 bash -c 'ulimit -v 250000 && exec ${CLOSURE_BIN} -q ${MPI_OUT}/dag50k.txt -o ${MPI_OUT}/oom.txt --force'")
# Nor, with a dense method, the panels of the squaring: refused with the sizes before the
# first round (it had run out of memory partway, with no sizes).
mpi_test(fault.one_rank_out_of_memory_dense bash ${EXPECT} --status 4 --stderr "^closure: rank 1 of 2: the squaring of 24000 components over 2 ranks needs about .* of host memory on each rank"
         --no-file ${MPI_OUT}/oom-dense.txt --
         bash -c "awk 'BEGIN { srand(7)\; for (i = 0\; i < 24000\; i++) for (k = 0\; k < 5\; k++) { j = i + 1 + int(rand() * (24000 - i))\; if (j < 24000) print i, j } }' > ${MPI_OUT}/dag24k.txt && source ${RUN_MPI} && mpirun -np 1 ${CLOSURE_BIN} -q ${MPI_OUT}/dag24k.txt --method condense --device host -o ${MPI_OUT}/oom-dense.txt --force : -np 1 bash -c 'ulimit -v 250000 && exec ${CLOSURE_BIN} -q ${MPI_OUT}/dag24k.txt --method condense --device host -o ${MPI_OUT}/oom-dense.txt --force'")
mpi_test(fault.bad_input bash ${EXPECT} --status 3 --stderr "^closure: [^ ]*missing_column.txt:2: expected two columns" --
         bash -c "source ${RUN_MPI} && mpi 2 ${CLOSURE_BIN} -q ${BAD}/missing_column.txt")
mpi_test(fault.query_refused bash ${EXPECT} --status 2 --stderr "closure query. does not run on 3 MPI ranks" --
         bash -c "source ${RUN_MPI} && mpi 3 ${CLOSURE_BIN} query ${DATA}/cycle.txt 1 2")
mpi_test(fault.bench_refused bash ${EXPECT} --status 2 --stderr "closure bench. does not run on 2 MPI ranks" --
         bash -c "source ${RUN_MPI} && mpi 2 ${CLOSURE_BIN} bench read ${DATA}/cycle.txt")
mpi_test(fault.output_refused bash ${EXPECT} --status 2 --stderr "is a folder" --
         bash -c "source ${RUN_MPI} && mpi 2 ${CLOSURE_BIN} ${DATA}/cycle.txt -o ${MPI_OUT}")
# Ranks that read different graphs stop with one message and exit 3, for every method
# (before, sparse gave a count of neither graph and the dense methods hung).
foreach(method sparse propagate condense)
  mpi_test(fault.ranks_read_different_graphs.${method} bash ${EXPECT} --status 3
           --stderr "read another graph than rank 0" --
           bash -c "source ${RUN_MPI} && timeout 300 mpirun -np 1 ${CLOSURE_BIN} -q ${DATA}/cycle.txt --method ${method} : -np 1 ${CLOSURE_BIN} -q ${DATA}/diamond.txt --method ${method}")
endforeach()
# The ranks agree on the whole request before any collective: a rank given another output,
# method, subcommand or a command line that does not parse stops every rank with one message
# (exit 2) instead of a hang or MPI_ERR_TRUNCATE; `timeout` turns a hang into a failure.
mpi_test(fault.ranks_differ_in_output bash ${EXPECT} --status 2 --stderr "rank 1 runs .run --output=${MPI_OUT}/b.txt" --no-file ${MPI_OUT}/a.txt --
         bash -c "source ${RUN_MPI} && timeout 120 mpirun -np 1 ${CLOSURE_BIN} -q ${DATA}/cycle.txt -o ${MPI_OUT}/a.txt : -np 1 ${CLOSURE_BIN} -q ${DATA}/cycle.txt -o ${MPI_OUT}/b.txt")
mpi_test(fault.ranks_differ_in_method bash ${EXPECT} --status 2 --stderr "rank 1 runs .run --method=propagate" --
         bash -c "source ${RUN_MPI} && timeout 120 mpirun -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt --method sparse : -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt --method propagate")
mpi_test(fault.ranks_differ_in_verify bash ${EXPECT} --status 2 --stderr "not given the same command" --
         bash -c "source ${RUN_MPI} && timeout 120 mpirun -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt --verify : -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt")
mpi_test(fault.ranks_differ_in_subcommand bash ${EXPECT} --status 2 --stderr "rank 1 runs .run., rank 0 .query" --
         bash -c "source ${RUN_MPI} && timeout 120 mpirun -np 1 ${CLOSURE_BIN} query ${DATA}/cycle.txt 1 2 : -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt")
mpi_test(fault.one_rank_does_not_parse bash ${EXPECT} --status 2 --stderr "does not parse: The following argument was not expected: --bogus" --
         bash -c "source ${RUN_MPI} && timeout 120 mpirun -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt --bogus : -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt")
mpi_test(fault.one_rank_bench bash ${EXPECT} --status 2 --stderr "not given the same command" --
         bash -c "source ${RUN_MPI} && timeout 120 mpirun -np 1 ${CLOSURE_BIN} bench read ${DATA}/cycle.txt : -np 1 ${CLOSURE_BIN} ${DATA}/cycle.txt")
