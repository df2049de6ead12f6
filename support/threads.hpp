// Whether this build of adlang can start threads. The playground's WebAssembly module
// (docs/playground.md) is built without emscripten's pthreads, which would need the page to be
// served cross-origin isolated: there the graph engines run at one thread only.
#pragma once

namespace adlang {

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
inline constexpr bool kThreadsAvailable = false;
#else
inline constexpr bool kThreadsAvailable = true;
#endif

}  // namespace adlang
