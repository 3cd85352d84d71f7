// The two resource failures that carry no size of their own, an allocation that failed and a
// thread that could not start, said with the memory left to the process. One text for every
// front end (the CLI's report_failure, Python's exception translator), each in its terms.
#pragma once

#include <cstddef>
#include <exception>

#include "closure/errors.hpp"

namespace closure {

enum class ResourceFailure { kNone, kAllocation, kThreadStart };

// std::bad_alloc; std::system_error EAGAIN (std::thread) or TBB's "pthread_create has
// failed" (its own std::runtime_error); else kNone.
ResourceFailure resource_failure_of(const std::exception& e);

// The message of failure `f` (not kNone), without a "closure: " prefix, written into `buf`:
// memory may have run out, so nothing here allocates. Returns `buf`.
const char* resource_failure_text(const std::exception& e, ResourceFailure f, Audience audience,
                                  char* buf, size_t size);

}  // namespace closure
