// Whether this build runs under AddressSanitizer: GCC defines __SANITIZE_ADDRESS__, clang 14
// only answers __has_feature(address_sanitizer). The one place that asks; everything else
// reads kAddressSanitizer.
#pragma once

namespace adlang {

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

}  // namespace adlang
