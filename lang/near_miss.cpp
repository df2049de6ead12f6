#include "lang/near_miss.hpp"

#include <algorithm>
#include <cctype>

namespace adlang {

namespace {

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // d[i][j]: the distance between the first i letters of a and the first j of b.
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> nearest_name(const std::string& wrong,
                                        const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(1, wrong.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    if (c == wrong) continue;
    std::size_t d = lower(c) == lower(wrong) ? 0 : edit_distance(wrong, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::optional<std::string> did_you_mean(const std::string& wrong,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> near = nearest_name(wrong, candidates);
  if (!near) return std::nullopt;
  return "did you mean '" + *near + "'?";
}

}  // namespace adlang
