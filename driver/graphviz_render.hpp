// SVG and PNG pictures of DOT graphs by Graphviz's library (libgraphviz-dev), for
// `adlang graph --format svg|png`. The lean adlang (docs/performance.md, "Start-up") does not
// link Graphviz: it hands such commands over to adlang-full.
#pragma once

#include <ostream>
#include <string>

namespace adlang {

// Lays out `dot` with Graphviz's dot layout and renders it as `format` into `path`, or onto
// `out` when there is no path (as Graphviz's dot writes to standard output). CommandFailure
// (usage) when Graphviz cannot write it.
void render_graphviz(const std::string& dot, const std::string& format, const std::string& path,
                     std::ostream& out);

}  // namespace adlang
