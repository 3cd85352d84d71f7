// Whether this build runs under AddressSanitizer (gcc's __SANITIZE_ADDRESS__, clang's
// __has_feature): its malloc takes no mallopt, and its leak check and thread handling ask
// some process tricks to stay off.
#pragma once

namespace closure::detail {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

}  // namespace closure::detail
