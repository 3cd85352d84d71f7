// random_u64 (see random_bits.hpp).
#include "closure/util/random_bits.hpp"

#include <sys/random.h>

#include <random>

namespace closure {

uint64_t random_u64() {
  uint64_t x = 0;
  if (getrandom(&x, sizeof x, GRND_NONBLOCK) == ssize_t(sizeof x)) return x;
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

}  // namespace closure
