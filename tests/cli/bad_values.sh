#!/usr/bin/env bash
# Every option parser of the CLI and every CLOSURE_* setting, given a bad value, ends in the
# status of its error kind (2 usage, 3 input, 4 resource; 0 where a setting is documented to
# fall back to its default), with a message and never "internal error". The script also
# checks that it has a case for every setting src/closure/config.hpp names and for every
# parse_* function and usage_checked() check the CLI calls, so a new one needs a case here.
#   bad_values.sh CLOSURE_BIN REPO_ROOT WORK_DIR      (prints "bad values ok")
set -u
bin=$1 root=$2 work=$3
g=$root/data/diamond.txt
mkdir -p "$work"
failures=0
covered=" "

# case NAME STATUS STDERR_RE -- command...: NAME is the setting or parser the case covers.
case_of() {
  local name=$1 status=$2 re=$3
  shift 4
  covered+="$name "
  local t0=$(date +%s.%N)
  "$@" >"$work/out" 2>"$work/err" </dev/null
  local rc=$?
  [ -n "${BAD_VALUES_TIMES:-}" ] && echo "$(echo "$(date +%s.%N) - $t0" | bc) $name" >&2
  if [ "$rc" -ne "$status" ] || { [ -n "$re" ] && ! grep -Eq -- "$re" "$work/err"; } ||
    grep -q "internal error" "$work/err"; then
    echo "FAILED ($name): exit $rc, expected $status with stderr /$re/: $*"
    head -c 600 "$work/err"
    failures=$((failures + 1))
  fi
}

# The parsers of values (library parse_* functions and the CLI's checks).
case_of parse_method 2 "^closure: --method: fastest" -- "$bin" "$g" -m fastest
case_of parse_input_format 2 "^closure: --input-format: " -- "$bin" "$g" -f nosuch
case_of parse_input_format 2 "^closure: --input-format: " -- "$bin" bench read "$g" --input-format nosuch
case_of parse_delimiter 2 "delimiter" -- "$bin" "$g" --delimiter ab
case_of parse_output_format 2 "xml" -- "$bin" "$g" --output-format xml -o "$work/o.txt"
case_of parse_output_format 2 "xml" -- "$bin" batch "$g" --out "$work/b1" --output-format xml
case_of parse_byte_size 2 "^closure: --max-output: '10x' is not a byte count" -- "$bin" "$g" -o "$work/o.txt" --max-output 10x
case_of parse_byte_size 2 "^closure: --max-output: '1.5G' is not a byte count" -- "$bin" batch "$g" --out "$work/b2" --max-output 1.5G
case_of parse_byte_size 2 "^closure: --verify-memory: '-5' is not a byte count" -- "$bin" "$g" --verify --verify-memory -5
case_of parse_boolean_params 2 "^closure: --kernel-params: " -- "$bin" "$g" -m square --kernel-params nonsense
case_of parse_boolean_params 2 "^closure: --params: " -- "$bin" bench bool --params tile_n=x --sizes 64
case_of parse_mma_params 2 "^closure: --mma-params: " -- "$bin" bench bool --mma-params tile=x --sizes 64
case_of parse_params 2 "^closure: --gemm-params: " -- "$bin" bench gemm --gemm-params ts=x
case_of parse_float_gemm_params 2 "^closure: --gemm-params: " -- "$bin" bench gemm --gemm-params nosuch=1
case_of parse_book_mmul_params 2 "^closure: --book-params: " -- "$bin" bench gemm --book-params row_group=x
case_of parse_sgemm_tuned_params 2 "--tuned-params" -- "$bin" bench gemm --tuned-params nosuch=1
case_of parse_serve_mix 2 "MIX|mix" -- "$bin" bench serve --mix nonsense
case_of parse_engine 2 "^closure: --engine: nosuch" -- "$bin" query "$g" --engine nosuch a b
case_of check_serve_mix 2 "MIX|mix" -- "$bin" bench serve --mix reach=x
case_of check_generated_spec 2 "power-law" -- "$bin" bench closure --generated power-law:0:5
case_of check_index_bench_spec 2 "nosuch" -- "$bin" bench index --generated nosuch:5
case_of repeat 2 "^closure: --repeat: " -- "$bin" bench gemm --repeat 0 --no-host
# Values CLI11 converts: a number that is not one, a choice that is not offered.
case_of threads 2 "--threads" -- "$bin" "$g" --threads abc
case_of verify_sources 2 "--verify-sources" -- "$bin" "$g" --verify --verify-sources abc
case_of verify_sources 2 "^closure: --verify-sources: must be at least 1" -- "$bin" "$g" --verify --verify-sources 0
case_of engine 2 "--engine" -- "$bin" query "$g" 1 2 --engine bogus
case_of supportive 2 "supportive" -- "$bin" index "$g" -o "$work/d.idx" --supportive 99
case_of jobs 2 "--jobs|-j" -- "$bin" batch "$g" --out "$work/b3" --jobs abc
case_of file_time_limit 2 "--file-time-limit" -- "$bin" batch "$g" --out "$work/b4" --file-time-limit nan
case_of port 2 "--port" -- "$bin" serve "$work/none.idx" --port abc
case_of device 2 "no OpenCL device matches 'nosuch'" -- "$bin" "$g" -m propagate --device nosuch
# Inputs that are not there: the input kind.
case_of graph 3 "cannot open" -- "$bin" "$work/no-such-graph.txt"
case_of pairs 3 "no-such-pairs" -- "$bin" query "$g" --pairs "$work/no-such-pairs.txt"

# The settings.
printf 'bool nonsense\n' >"$work/tuning.txt"
case_of CLOSURE_DEVICE 2 "no OpenCL device matches 'nosuch'" -- env CLOSURE_DEVICE=nosuch "$bin" "$g" -m propagate
case_of CLOSURE_TUNING 2 "CLOSURE_TUNING" -- env CLOSURE_TUNING="$work/tuning.txt" "$bin" -q "$g" -m square --device cpu
case_of CLOSURE_BOOL_PARAMS 2 "^closure: CLOSURE_BOOL_PARAMS: " -- env CLOSURE_BOOL_PARAMS=garbage "$bin" -q "$g" -m square --device cpu
case_of CLOSURE_MMA_PARAMS 2 "CLOSURE_MMA_PARAMS" -- env CLOSURE_MMA_PARAMS=garbage "$bin" bench bool --kernels mma --sizes 64 --mma-emulate
case_of CLOSURE_KERNEL_PATH 4 "CLOSURE_KERNEL_PATH=.*cannot read" -- env CLOSURE_KERNEL_PATH="$work/no-kernels" "$bin" -q "$g" -m square --device cpu
# Settings that fall back to their default on a value they do not know: the run succeeds.
case_of CLOSURE_CACHE_DIR 0 "" -- env CLOSURE_CACHE_DIR=/dev/null/cache "$bin" -q "$g" -m square --device cpu
case_of CLOSURE_MMA 0 "" -- env CLOSURE_MMA=bogus "$bin" -q "$g" -m square --device cpu
case_of CLOSURE_PROGRESS_DELAY 0 "" -- env CLOSURE_PROGRESS_DELAY=abc "$bin" -q "$g" --progress
case_of CLOSURE_MPI_ALL_OUTPUT 0 "" -- env CLOSURE_MPI_ALL_OUTPUT=bogus "$bin" -q "$g"
case_of CLOSURE_TRACE 0 "" -- env CLOSURE_TRACE=bogus "$bin" -q "$g"
case_of CLOSURE_EXIT_WATCHER 0 "" -- env CLOSURE_EXIT_WATCHER=bogus "$bin" -q "$g"
case_of CLOSURE_HEAP_REUSE 0 "" -- env CLOSURE_HEAP_REUSE=bogus "$bin" -q "$g"
# A loader that cannot be opened (here a graph file, not a library): no OpenCL, the host runs.
case_of CLOSURE_OPENCL_LIBRARY 0 "" -- env CLOSURE_OPENCL_LIBRARY="$g" "$bin" -q "$g" -m propagate

# Every setting and every parser has a case.
for name in $(grep -oE '"CLOSURE_[A-Z_]+"' "$root/src/closure/config.hpp" | tr -d '"' | sort -u) \
  $(grep -rhoE '\bparse_[a-z_]+\(' "$root/src/cli" | tr -d '(' | sort -u) \
  $(grep -rhoE 'usage_checked\(check_[a-z_]+' "$root/src/cli" | sed 's/usage_checked(//' | sort -u); do
  case "$covered" in
    *" $name "*) ;;
    *) echo "FAILED: no bad-value case for $name"; failures=$((failures + 1)) ;;
  esac
done
[ "$failures" -eq 0 ] && echo "bad values ok"
