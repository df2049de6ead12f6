#include "pyrewrite/unified_diff.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace adlang::py {

namespace {

std::vector<std::string_view> split_lines(const std::string& s) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t nl = s.find('\n', pos);
    std::size_t end = nl == std::string::npos ? s.size() : nl + 1;
    out.emplace_back(s.data() + pos, end - pos);
    pos = end;
  }
  return out;
}

enum class Op { Keep, Del, Add };
struct Step {
  Op op;
  std::size_t a, b;  // line indices in before / after
};

// Myers' O((N+M)D) shortest edit script.
std::vector<Step> myers(const std::vector<std::string_view>& a,
                        const std::vector<std::string_view>& b) {
  const long n = static_cast<long>(a.size()), m = static_cast<long>(b.size());
  const long max = n + m;
  std::vector<long> v(2 * static_cast<std::size_t>(max) + 2, 0);
  std::vector<std::vector<long>> trace;
  long off = max + 1;
  for (long d = 0; d <= max; ++d) {
    trace.push_back(v);
    bool done = false;
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[k - 1 + off] < v[k + 1 + off])) ? v[k + 1 + off]
                                                                        : v[k - 1 + off] + 1;
      long y = x - k;
      while (x < n && y < m && a[x] == b[y])
        ++x, ++y;
      v[k + off] = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
    if (done) break;
  }
  std::vector<Step> steps;
  long x = n, y = m;
  for (long d = static_cast<long>(trace.size()) - 1; d >= 0; --d) {
    const std::vector<long>& vd = trace[d];
    long k = x - y;
    long prev_k = (k == -d || (k != d && vd[k - 1 + off] < vd[k + 1 + off])) ? k + 1 : k - 1;
    long prev_x = vd[prev_k + off];
    long prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x, --y;
      steps.push_back({Op::Keep, static_cast<std::size_t>(x), static_cast<std::size_t>(y)});
    }
    if (d > 0) {
      if (x == prev_x)
        steps.push_back({Op::Add, static_cast<std::size_t>(x), static_cast<std::size_t>(prev_y)});
      else
        steps.push_back({Op::Del, static_cast<std::size_t>(prev_x), static_cast<std::size_t>(y)});
    }
    x = prev_x;
    y = prev_y;
  }
  std::reverse(steps.begin(), steps.end());
  return steps;
}

// Patience diff: lines that occur once in each range are matched in order (longest increasing
// subsequence) and become anchors; the gaps between anchors go to Myers. A rewrite inserts and
// changes few lines among many unique ones, so the gaps are small and time and memory stay
// near-linear where plain Myers needs O((N+M)·D) memory.
void diff_range(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1,
                std::vector<Step>& steps) {
  // Common prefix and suffix.
  while (a0 < a1 && b0 < b1 && a[a0] == b[b0])
    steps.push_back({Op::Keep, a0++, b0++});
  std::vector<Step> tail;
  while (a1 > a0 && b1 > b0 && a[a1 - 1] == b[b1 - 1])
    tail.push_back({Op::Keep, --a1, --b1});
  if (a0 < a1 || b0 < b1) {
    std::unordered_map<std::string_view, std::pair<int, std::size_t>> ca, cb;
    for (std::size_t i = a0; i < a1; ++i) {
      auto& e = ca[a[i]];
      ++e.first;
      e.second = i;
    }
    for (std::size_t j = b0; j < b1; ++j) {
      auto& e = cb[b[j]];
      ++e.first;
      e.second = j;
    }
    std::vector<std::pair<std::size_t, std::size_t>> pairs;  // unique in both, by position in a
    for (std::size_t i = a0; i < a1; ++i) {
      auto ia = ca.find(a[i]);
      auto ib = cb.find(a[i]);
      if (ia->second.first == 1 && ib != cb.end() && ib->second.first == 1)
        pairs.push_back({i, ib->second.second});
    }
    // Longest increasing subsequence of the b positions (patience sorting).
    std::vector<std::size_t> piles, prev(pairs.size(), SIZE_MAX), top;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      auto it = std::lower_bound(piles.begin(), piles.end(), pairs[k].second);
      std::size_t pile = static_cast<std::size_t>(it - piles.begin());
      if (it == piles.end()) {
        piles.push_back(pairs[k].second);
        top.push_back(k);
      } else {
        *it = pairs[k].second;
        top[pile] = k;
      }
      if (pile > 0) prev[k] = top[pile - 1];
    }
    std::vector<std::pair<std::size_t, std::size_t>> anchors;
    for (std::size_t k = top.empty() ? SIZE_MAX : top.back(); k != SIZE_MAX; k = prev[k])
      anchors.push_back(pairs[k]);
    std::reverse(anchors.begin(), anchors.end());
    if (anchors.empty()) {
      std::vector<std::string_view> ma(a.begin() + static_cast<long>(a0),
                                       a.begin() + static_cast<long>(a1));
      std::vector<std::string_view> mb(b.begin() + static_cast<long>(b0),
                                       b.begin() + static_cast<long>(b1));
      for (Step s : myers(ma, mb))
        steps.push_back({s.op, s.a + a0, s.b + b0});
    } else {
      std::size_t pa = a0, pb = b0;
      for (const auto& [ia, ib] : anchors) {
        diff_range(a, b, pa, ia, pb, ib, steps);
        steps.push_back({Op::Keep, ia, ib});
        pa = ia + 1;
        pb = ib + 1;
      }
      diff_range(a, b, pa, a1, pb, b1, steps);
    }
  }
  steps.insert(steps.end(), tail.rbegin(), tail.rend());
}

void put_line(std::string& out, char tag, std::string_view line) {
  out += tag;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(const std::string& before, const std::string& after,
                         const std::string& from_label, const std::string& to_label) {
  if (before == after) return {};
  auto a = split_lines(before), b = split_lines(after);
  std::vector<Step> steps;
  diff_range(a, b, 0, a.size(), 0, b.size(), steps);

  std::string out = "--- " + from_label + "\n+++ " + to_label + "\n";
  const std::size_t ctx = 3;
  std::size_t i = 0;
  while (i < steps.size()) {
    if (steps[i].op == Op::Keep) {
      ++i;
      continue;
    }
    // A hunk: from ctx keeps before this change to ctx keeps after the last change within 2*ctx.
    std::size_t start = i >= ctx ? i - ctx : 0;
    std::size_t end = i;
    std::size_t last_change = i;
    while (end < steps.size()) {
      if (steps[end].op != Op::Keep) last_change = end;
      if (end - last_change > 2 * ctx) break;
      ++end;
    }
    end = std::min(steps.size(), last_change + ctx + 1);
    std::size_t a_start = 0, b_start = 0, a_len = 0, b_len = 0;
    bool first = true;
    for (std::size_t j = start; j < end; ++j) {
      const Step& s = steps[j];
      if (first) {
        a_start = s.a;
        b_start = s.b;
        first = false;
      }
      if (s.op != Op::Add) ++a_len;
      if (s.op != Op::Del) ++b_len;
    }
    out += "@@ -" + std::to_string(a_len ? a_start + 1 : a_start) + "," + std::to_string(a_len) +
           " +" + std::to_string(b_len ? b_start + 1 : b_start) + "," + std::to_string(b_len) +
           " @@\n";
    for (std::size_t j = start; j < end; ++j) {
      const Step& s = steps[j];
      if (s.op == Op::Keep) put_line(out, ' ', a[s.a]);
      if (s.op == Op::Del) put_line(out, '-', a[s.a]);
      if (s.op == Op::Add) put_line(out, '+', b[s.b]);
    }
    i = end;
  }
  return out;
}

}  // namespace adlang::py
