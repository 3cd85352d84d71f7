#!/usr/bin/env bash
# Where a GPU process's floor goes on the H200 machine (issue 26): the OpenCL start-up
# probe's phases (tools/opencl_startup_probe.cpp) with every driver and with NVIDIA's
# alone, the process seen from outside under its three endings (return from main, _exit,
# _exit with the teardown handed to a child), and a 2-vertex closure on the GPU, before
# (build-dev/closure-before) and after.
#   device tool, carry ["build-dev"]: bash tools/gpu-startup-phases.sh
source tools/gpu-env.sh
export LD_LIBRARY_PATH=$PWD/build-dev:${LD_LIBRARY_PATH:-}
g++ -O2 -std=c++20 -Isrc tools/opencl_startup_probe.cpp src/app/process/teardown_handoff.cpp \
  -o /tmp/probe -lOpenCL || exit 1
/tmp/probe source > /dev/null
echo "== probe phases, all drivers"; /tmp/probe binary kernels/propagate.cl 0 return
mkdir -p /tmp/icd-nv && echo libnvidia-opencl.so.1 > /tmp/icd-nv/nvidia.icd
echo "== probe phases, NVIDIA's driver alone"
OCL_ICD_VENDORS=/tmp/icd-nv /tmp/probe binary kernels/propagate.cl 0 return
echo "== the probe seen from outside, median of 7: exec to main, main, end of main to reaped"
python3 - <<'PY'
import os, re, statistics, subprocess, time
def once(ending, env):
    t0 = time.time()
    p = subprocess.Popen(["/tmp/probe", "binary", "kernels/propagate.cl", "0", ending],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    out = p.stdout.read()  # to the end of file: every holder of the pipe closed it
    t_eof = time.time()
    p.wait()
    t1 = time.time()
    start = float(re.search(r"start abs ([0-9.]+)", out).group(1))
    end = float(re.search(r"end of main.*abs ([0-9.]+)", out).group(1))
    return start - t0, end - start, t_eof - end, t1 - end, t1 - t0
nv = dict(os.environ, OCL_ICD_VENDORS="/tmp/icd-nv")
print("%-28s %8s %8s %8s %8s %8s" % ("drivers, ending", "exec", "main", "to EOF", "to reap", "whole"))
for name, env in (("all", dict(os.environ)), ("NVIDIA alone", nv)):
    for ending in ("return", "_exit", "handoff"):
        runs = [once(ending, env) for _ in range(7)]
        med = [statistics.median(r[i] for r in runs) for i in range(5)]
        print("%-28s %8.3f %8.3f %8.3f %8.3f %8.3f" % (name + ", " + ending, *med))
PY
w() { local a b; a=$(date +%s%N); "$@" > /tmp/last.log 2>&1; b=$(date +%s%N); awk -v a=$a -v b=$b 'BEGIN{printf "%.3f ", (b-a)/1e9}'; }
printf '0 1\n' > /tmp/t.txt
for b in build-dev/closure build-dev/closure-before; do $b /tmp/t.txt -m propagate --device gpu -q; done
echo "== 2-vertex graph on the GPU (s), 7 rounds: before after | after, NVIDIA alone"
for i in 1 2 3 4 5 6 7; do
  w build-dev/closure-before /tmp/t.txt -m propagate --device gpu -q
  w build-dev/closure /tmp/t.txt -m propagate --device gpu -q
  echo -n "| "; OCL_ICD_VENDORS=/tmp/icd-nv w build-dev/closure /tmp/t.txt -m propagate --device gpu -q
  echo
done
build-dev/closure /tmp/t.txt -m propagate --device gpu
