// The closure library in one include: #include <closure/closure.hpp> (docs/cpp.md).
// Graph and its readers; the Session that chooses the device and the threads as the CLI does,
// and closes graphs as Options ask; the Closure it returns, with its queries; the
// reachability index (build, save, load, query); the errors the library throws; the version.
// What users install is this header and the headers it includes, directly or not
// (cmake/public_headers.cmake asks the compiler for the set and checks it against the list
// cmake/public_headers.txt allows), so every include added here or below is installed, and
// nothing else is: no OpenCL header, no engine inside.
#pragma once

#include "closure/algorithms/closure.hpp"
#include "closure/errors.hpp"
#include "closure/graph/graph.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/options.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/reach_index.hpp"
#include "closure/session/session.hpp"
#include "closure/version.hpp"
