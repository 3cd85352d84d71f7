# Python and pybind11 for the `closure` Python module (python/). CLOSURE_PYTHON defaults to
# ON when both are found. The interpreter must be able to import NumPy (the module needs it
# at run time): when the first python3 on PATH cannot (a pyenv or other private build next
# to Debian's), Debian's /usr/bin/python3 is preferred. -DPython3_EXECUTABLE=... overrides.
if(NOT Python3_EXECUTABLE)
  find_program(CLOSURE_PATH_PYTHON NAMES python3 NO_CACHE)
  foreach(candidate ${CLOSURE_PATH_PYTHON} /usr/bin/python3)
    if(EXISTS "${candidate}")
      execute_process(COMMAND "${candidate}" -c "import numpy" RESULT_VARIABLE numpy_missing
                      OUTPUT_QUIET ERROR_QUIET)
      if(NOT numpy_missing)
        set(Python3_EXECUTABLE "${candidate}" CACHE FILEPATH "Python interpreter for the module")
        break()
      endif()
    endif()
  endforeach()
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module)
if(Python3_FOUND)
  find_package(pybind11 CONFIG QUIET)
endif()
# Not in sanitizer builds (tools/sanitize): an ASan-instrumented extension cannot load
# into a plain Python interpreter.
if(Python3_FOUND AND pybind11_FOUND AND NOT CLOSURE_SANITIZE)
  set(closure_python_default ON)
else()
  set(closure_python_default OFF)
endif()
option(CLOSURE_PYTHON "Build the Python module (needs Python 3 and pybind11)"
       ${closure_python_default})

# Where `cmake --install` puts the package: the prefix's site-packages as Python's own
# posix_prefix scheme names it (lib/python3.11/site-packages).
if(CLOSURE_PYTHON AND NOT CLOSURE_PYTHON_INSTALL_DIR)
  execute_process(
    COMMAND "${Python3_EXECUTABLE}" -c
            "import sysconfig; print(sysconfig.get_path('platlib', 'posix_prefix', vars={'platbase': '.', 'base': '.'}))"
    OUTPUT_VARIABLE site OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX REPLACE "^\\./" "" site "${site}")
  set(CLOSURE_PYTHON_INSTALL_DIR "${site}" CACHE STRING
      "Python package destination, relative to the install prefix")
endif()
