// Preloaded by a CLI test (cli.promises.thread_start_failure_is_a_resource_error): every
// pthread_create fails as it does under ulimit -u or when no stack can be mapped, so the
// message of a run that cannot start its threads is tested without exhausting the machine.
// (<pthread.h> is not included: its declaration is noexcept, and only the symbol matters.)
#include <cerrno>

extern "C" int pthread_create(void* /*thread*/, const void* /*attr*/, void* (*)(void*),
                              void* /*arg*/) {
  return EAGAIN;
}
