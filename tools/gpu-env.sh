# Sourced by the tools/gpu-*.sh scripts on the GPU machine (../shared/DEVICE.md): NVIDIA's
# OpenCL driver is installed there but no vendor file names it, so the loader is pointed
# at a folder that does; programs are cached under /tmp between runs of one lease.
if [[ -z "${OCL_ICD_VENDORS:-}" ]]; then
  mkdir -p /tmp/icd
  echo libnvidia-opencl.so.1 >/tmp/icd/nvidia.icd
  cp /etc/OpenCL/vendors/*.icd /tmp/icd/ 2>/dev/null || true
  export OCL_ICD_VENDORS=/tmp/icd
fi
export CLOSURE_CACHE_DIR=${CLOSURE_CACHE_DIR:-/tmp/closure-cache}
