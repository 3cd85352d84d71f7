// The per-thread cancellation token behind CancelScope.
#include "closure/util/cancel.hpp"

namespace closure {
namespace {
thread_local const CancelToken* current_token = nullptr;
}  // namespace

const CancelToken* current_cancel_token() {
  return current_token;
}

CancelScope::CancelScope(const CancelToken& token) : previous_(current_token) {
  current_token = &token;
}

CancelScope::~CancelScope() {
  current_token = previous_;
}

}  // namespace closure
