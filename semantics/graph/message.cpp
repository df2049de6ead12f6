#include "semantics/graph/message.hpp"

#include <cstring>

#include "lang/diagnostics.hpp"

namespace adlang::graph {
namespace {

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void put_string(std::string& out, const std::string& s) {
  put<std::uint32_t>(out, static_cast<std::uint32_t>(s.size()));
  out += s;
}

void put_list(std::string& out, const std::vector<std::uint32_t>& v) {
  put<std::uint32_t>(out, static_cast<std::uint32_t>(v.size()));
  for (std::uint32_t x : v)
    put(out, x);
}

struct Reader {
  std::string_view in;
  std::size_t at = 0;
  template <class T>
  T get() {
    if (in.size() - at < sizeof(T)) throw InternalError("internal error: a truncated message");
    T v;
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string get_string() {
    std::uint32_t n = get<std::uint32_t>();
    if (in.size() - at < n) throw InternalError("internal error: a truncated message");
    std::string s(in.substr(at, n));
    at += n;
    return s;
  }
  std::vector<std::uint32_t> get_list() {
    std::uint32_t n = get<std::uint32_t>();
    if ((in.size() - at) / sizeof(std::uint32_t) < n)
      throw InternalError("internal error: a truncated message");
    std::vector<std::uint32_t> v(n);
    for (std::uint32_t& x : v)
      x = get<std::uint32_t>();
    return v;
  }
};

}  // namespace

std::string encode(const Message& m) {
  std::string out;
  put(out, m.channel);
  put(out, m.state);
  put(out, m.value);
  put(out, m.frame);
  put(out, m.child);
  if (m.state == kMessageBottom) {
    internal_check(m.error.has_value(), "a bottom message without its undefinedness");
    put<std::uint8_t>(out, static_cast<std::uint8_t>(m.error->kind()));
    put(out, m.error->loc().line);
    put(out, m.error->loc().col);
    put_string(out, m.error->what());
    put<std::uint32_t>(out, static_cast<std::uint32_t>(m.error->notes().size()));
    for (const std::string& n : m.error->notes())
      put_string(out, n);
    put_list(out, m.key);
  }
  return out;
}

Message decode(std::string_view bytes) {
  Reader r{bytes};
  Message m;
  m.channel = r.get<std::uint32_t>();
  m.state = r.get<std::uint8_t>();
  m.value = r.get<double>();
  m.frame = r.get<FrameName>();
  m.child = r.get<FrameName>();
  if (m.state == kMessageBottom) {
    auto kind = static_cast<UndefinedKind>(r.get<std::uint8_t>());
    SourceLoc loc;
    loc.line = r.get<std::uint32_t>();
    loc.col = r.get<std::uint32_t>();
    std::string reason = r.get_string();
    std::vector<std::string> notes(r.get<std::uint32_t>());
    for (std::string& n : notes)
      n = r.get_string();
    m.error = Undefined(kind, loc, std::move(reason), std::move(notes));
    m.key = r.get_list();
  } else if (m.state > kMessageBottom) {
    throw InternalError("internal error: a message in an unknown state");
  }
  if (r.at != bytes.size()) throw InternalError("internal error: a message with trailing bytes");
  return m;
}

}  // namespace adlang::graph
