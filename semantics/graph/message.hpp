// A token as it crosses partitions of the tagged graph (thesis Sec. 5.4.4: the rendezvous key
// is the channel and the tag; docs/graph-partition.md), and its encoding on the wire (MPI).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "semantics/undefined.hpp"

namespace adlang::graph {

// Frames have one name on every partition (docs/graph-partition.md): the main frame is 0, and
// the partition holding a call site names each activation it enters ((rank + 1) << 40 | n,
// never reused), and tells the partitions that copied the site's control Call in the admission.
using FrameName = std::uint64_t;

struct Message {
  std::uint32_t channel = 0;
  FrameName frame = 0;     // the frame of the token at its destination
  std::uint8_t state = 0;  // 0 live, 1 dead, 2 bottom
  double value = 0;
  FrameName child = 0;  // an admission: the callee's frame (when the call was entered)
  // Bottom: the undefinedness and its place in evaluation order (docs/graph.md).
  std::optional<Undefined> error;
  std::vector<std::uint32_t> key;
};

inline constexpr std::uint8_t kMessageLive = 0, kMessageDead = 1, kMessageBottom = 2;

// The bytes of `m` on the wire, and back. decode throws InternalError on a malformed buffer.
std::string encode(const Message& m);
Message decode(std::string_view bytes);

}  // namespace adlang::graph
