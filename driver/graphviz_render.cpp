#include "driver/graphviz_render.hpp"

#include <graphviz/gvc.h>

#include <mutex>

#include "driver/program_loader.hpp"
#include "lang/diagnostics.hpp"
#include "support/exit_codes.hpp"

namespace adlang {
namespace {

// The process's one Graphviz context, never freed. Graphviz 2.42's pango plugin remembers the
// last font it measured by a pointer into the context's font dictionary, so laying out a graph
// in a second context of the same process would read freed memory (AddressSanitizer:
// heap-use-after-free in textspan_size).
GVC_t* graphviz_context() {
  static GVC_t* const gvc = gvContext();
  return gvc;
}

}  // namespace

void render_graphviz(const std::string& dot, const std::string& format, const std::string& path,
                     std::ostream& out) {
  static std::mutex graphviz;  // the context and the plugin's static state are not thread-safe
  std::lock_guard<std::mutex> lock(graphviz);
  GVC_t* gvc = graphviz_context();
  Agraph_t* g = agmemread(dot.c_str());
  if (!g) throw InternalError("internal error: Graphviz could not read the graph");
  int rc = gvLayout(gvc, g, "dot");
  if (rc == 0 && !path.empty()) {
    rc = gvRenderFilename(gvc, g, format.c_str(), path.c_str());
  } else if (rc == 0) {
    char* data = nullptr;
    unsigned int length = 0;
    rc = gvRenderData(gvc, g, format.c_str(), &data, &length);
    if (rc == 0) out.write(data, static_cast<std::streamsize>(length));
    gvFreeRenderData(data);
  }
  gvFreeLayout(gvc, g);
  agclose(g);
  if (rc != 0) {
    throw CommandFailure(kExitUsage, "adlang: error: Graphviz could not write " +
                                         (path.empty() ? "the picture" : "'" + path + "'") + "\n");
  }
}

}  // namespace adlang
