#!/usr/bin/env bash
# CTest: the README's pip command in a fresh virtual environment, offline
# (--no-index: nothing may come from a package index), from a copy of the source tree;
# then the installed package closes a graph from outside the source tree. First, a venv
# without Debian's packages gets setup.py's advice instead of a bare setuptools error.
# Usage: pip_install.sh PYTHON SOURCE_DIR
set -euo pipefail
python=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A copy without build outputs, as a fresh checkout would be.
mkdir "$work/src"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$src" ls-files -z --cached --others --exclude-standard |
    (cd "$src" && xargs -0 cp --parents -t "$work/src" 2>/dev/null || true)
else
  tar -C "$src" --exclude='./build*' -cf - . | tar -C "$work/src" -xf -
fi

# A venv that sees no system packages has no `wheel` (Debian's venv seeds pip and setuptools
# only; so has a pyenv interpreter's): the build must stop with the way out (setup.py's
# require_wheel), not setuptools' "invalid command 'bdist_wheel'".
"$python" -m venv "$work/bare"
if "$work/bare/bin/python" -c 'import wheel' 2>/dev/null; then
  echo "note: this venv has wheel; the missing-wheel message is not checked"
elif PIP_DISABLE_PIP_VERSION_CHECK=1 "$work/bare/bin/pip" install --no-build-isolation --no-index \
  "$work/src" >"$work/bare.log" 2>&1; then
  echo "a venv without wheel installed the package?"; exit 1
else
  grep -q "venv --system-site-packages v && v/bin/pip install --no-build-isolation" "$work/bare.log" ||
    { cat "$work/bare.log"; echo "no advice for a venv without wheel"; exit 1; }
fi
rm -rf "$work/bare" "$work/src/build-pip"

"$python" -m venv --system-site-packages "$work/v"
# ccache (when CMake finds it) hashes paths relative to the copy, so that a later run of
# this test, in another temporary folder, reuses the objects.
export CCACHE_BASEDIR="$work/src" CCACHE_NOHASHDIR=1
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
"$work/v/bin/pip" install --no-build-isolation --no-index "$work/src" >"$work/pip.log" 2>&1 ||
  { cat "$work/pip.log"; exit 1; }
cd "$work"
"$work/v/bin/python" - <<'PY'
import closure, numpy as np
assert "/v/" in closure.__file__, closure.__file__
c = closure.transitive_closure(np.array([[0, 1], [1, 2], [2, 1]]))
assert c.pair_count == 6, c.pair_count  # 0 -> 1, 2; 1 and 2 -> 1, 2
assert c.reaches(0, 2) and not c.reaches(2, 0)
print("pip-installed closure", closure.__version__, "from", closure.__file__)
PY
