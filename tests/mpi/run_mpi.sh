# Sourced by the MPI tests: mpirun as the tests call it. --oversubscribe lets 3 or 4 ranks
# share the 2 cores of a CI machine; the variables allow root (CI runs as root) and keep
# Open MPI's shared-memory transport off ptrace, which containers often forbid.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
# Each test's own session folder: two mpiruns that ctest -j started together raced to make
# the shared /tmp/ompi.HOST.UID ("File exists", orte_init failed; CI, mpi.data.P1).
export OMPI_MCA_orte_tmpdir_base=${OMPI_MCA_orte_tmpdir_base:-$(mktemp -d "${TMPDIR:-/tmp}/closure-ompi.XXXXXX")}
mpi() {
  local ranks=$1
  shift
  mpirun --oversubscribe -np "$ranks" "$@"
}
