"""The pip build: setuptools with one extension, closure._closure, built by the project's
CMake (only the library and the module: no tests, no CLI), then copied where setuptools
expects it. Needs cmake, a C++20 compiler, pybind11 and the library's dependencies
(tools/setup.sh installs them on Debian); nothing from a package index."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version() -> str:
    """One version for C++ and Python: CMakeLists.txt's project(closure VERSION x.y.z)."""
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(closure VERSION ([0-9.]+)", text).group(1)


def require_wheel() -> None:
    """setuptools before 70 builds wheels (and pip's metadata step) through the `wheel`
    package; without it the failure is setuptools' bare "invalid command 'bdist_wheel'".
    Say what is missing and the offline command that has it instead."""
    if not {"bdist_wheel", "dist_info"} & set(sys.argv[1:]):
        return
    try:
        import wheel  # noqa: F401
    except ImportError:
        sys.exit(
            f"closure: building a wheel needs the 'wheel' package, which {sys.executable} "
            "cannot import. Offline on Debian (tools/setup.sh installs python3-wheel, "
            "python3-setuptools and python3-numpy), make the environment with Debian's "
            "interpreter so that it sees them:\n"
            "  /usr/bin/python3 -m venv --system-site-packages v && "
            "v/bin/pip install --no-build-isolation .\n"
            "With access to PyPI, plain `pip install .` (build isolation) fetches wheel itself."
        )


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        build = Path(self.build_temp).resolve() / "cmake"
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DCLOSURE_BUILD_TESTS=OFF", "-DCLOSURE_PYTHON=ON",
                        f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "_closure", "-j", jobs],
                       check=True)
        built = next((build / "python" / "closure").glob("_closure*.so"))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


require_wheel()
setup(
    version=project_version(),
    ext_modules=[Extension("closure._closure", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
