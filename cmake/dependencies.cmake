# Dependencies, all from Debian's packages (tools/setup.sh installs them).
find_package(OpenCL REQUIRED)
find_package(Boost 1.74 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
find_package(TBB REQUIRED)  # oneTBB: the one executor of host parallelism (closure/executor.hpp)
