# Dependencies, all from Debian's packages (tools/setup.sh installs them).
find_package(OpenCL REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
# nlohmann-json (Debian: nlohmann-json3-dev), header only: every JSON read and write.
# A machine without the package can point CLOSURE_JSON_INCLUDE at a folder holding
# nlohmann/json.hpp.
find_package(nlohmann_json 3 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(CLOSURE_JSON_INCLUDE nlohmann/json.hpp)
  if(NOT CLOSURE_JSON_INCLUDE)
    message(FATAL_ERROR "nlohmann/json.hpp not found: install nlohmann-json3-dev "
                        "(tools/setup.sh) or pass -DCLOSURE_JSON_INCLUDE=DIR")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${CLOSURE_JSON_INCLUDE})
endif()
