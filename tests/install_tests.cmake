# Tests of what users install: the C++ package (cmake --install + find_package/pkg-config
# on examples/) and the pip install of the Python package in a fresh venv (offline). Not in
# sanitizer builds: tools/sanitize builds only the CLI and the tests, and an install needs
# every target.
if(CLOSURE_SANITIZE)
  return()
endif()
set(closure_installed_python)
if(CLOSURE_PYTHON)
  set(closure_installed_python ${Python3_EXECUTABLE})
endif()
add_test(NAME install.find_package
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install_example.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR} ${closure_installed_python})
set_tests_properties(install.find_package PROPERTIES TIMEOUT 600)
if(CLOSURE_PYTHON)
  add_test(NAME install.pip
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/pip_install.sh ${Python3_EXECUTABLE}
                   ${CMAKE_SOURCE_DIR})
  # Builds the library again (about 3 minutes on 2 idle cores; ccache makes reruns quick).
  set_tests_properties(install.pip PROPERTIES TIMEOUT 3600)
endif()
