#include "driver/derivation_format.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "driver/json.hpp"
#include "lang/printer.hpp"

namespace adlang {

namespace {

// A term on one line (the printer puts one let per line).
std::string one_line(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == ' ' || c == '\t') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string subject_text(const Derivation& d) {
  if (d.judgement == Judgement::EvalBool) return one_line(print_bool(d.bool_term));
  return one_line(print_term(d.term));
}

std::string result_text(const Derivation& d) {
  return d.judgement == Judgement::Sym ? one_line(print_term(d.trace)) : d.value;
}

const char* arrow(const Derivation& d) {
  return d.judgement == Judgement::Sym ? "~>" : "=>";
}

std::string rule_label(const Derivation& d) {
  if (d.figure == 0) return d.rule;
  return d.rule + ", Fig. " + std::to_string(d.figure);
}

// Walks the tree within the view's bounds; the three formats differ only in how they write a
// node, an elision and a fold.
class Walker {
 public:
  Walker(const Derivation& root, const DerivationView& v) : view_(v), total_(root.size()) {}

  std::size_t shown() const { return shown_; }
  std::size_t total() const { return total_; }

 protected:
  const DerivationView& view_;
  std::size_t total_;
  std::size_t shown_ = 0;
  std::vector<std::string> calls_;  // the functions whose call rules are on the path

  enum class Visit { Show, Fold, ElideDepth, ElideSize };
  Visit visit(const Derivation& d, std::size_t depth) {
    if (shown_ >= view_.max_judgements) return Visit::ElideSize;
    if (depth > view_.max_depth) return Visit::ElideDepth;
    ++shown_;
    if (view_.fold_recursion && !d.function.empty() &&
        std::find(calls_.begin(), calls_.end(), d.function) != calls_.end())
      return Visit::Fold;
    return Visit::Show;
  }
};

class TextWriter : Walker {
 public:
  using Walker::Walker;
  std::string run(const Derivation& root) {
    write(root, 0);
    if (shown() < total()) {
      out_ << "-- " << shown() << " of " << total()
           << " judgements shown; raise --derivation-depth or --derivation-size to see more\n";
    }
    return out_.str();
  }

 private:
  std::ostringstream out_;

  static std::string judgement_text(const Derivation& d) {
    std::string phi = "{";
    for (std::size_t i = 0; i < d.phi.size(); ++i)
      phi += (i ? ", " : "") + d.phi[i];
    std::string rho = "{";
    auto env = judgement_rho(d);
    for (std::size_t i = 0; i < env.size(); ++i)
      rho += (i ? ", " : "") + env[i].first + " = " + env[i].second;
    return phi + "} | " + rho + "} |- " + subject_text(d) + " " + arrow(d) + " " + result_text(d);
  }

  void write(const Derivation& d, std::size_t depth) {
    std::string indent(2 * depth, ' ');
    switch (visit(d, depth)) {
      case Visit::ElideSize:
      case Visit::ElideDepth:
        out_ << indent << "... (" << d.size() << " judgements elided)\n";
        return;
      case Visit::Fold:
        out_ << indent << "[" << rule_label(d) << "] " << judgement_text(d)
             << "   (recursive call of " << d.function << " folded: " << d.size() - 1
             << " judgements)\n";
        return;
      case Visit::Show:
        break;
    }
    out_ << indent << "[" << rule_label(d) << "] " << judgement_text(d);
    if (!d.side.empty()) out_ << "   (where " << d.side << ")";
    out_ << "\n";
    if (!d.function.empty()) calls_.push_back(d.function);
    for (const Derivation& p : d.premises)
      write(p, depth + 1);
    if (!d.function.empty()) calls_.pop_back();
  }
};

class JsonWriter : Walker {
 public:
  using Walker::Walker;
  std::string run(const Derivation& root) {
    out_ << "{\"judgements\": " << total() << ", \"derivation\": ";
    write(root, 0);
    out_ << ", \"shown\": " << shown() << "}\n";
    return out_.str();
  }

 private:
  std::ostringstream out_;

  void write(const Derivation& d, std::size_t depth) {
    Visit v = visit(d, depth);
    if (v == Visit::ElideSize || v == Visit::ElideDepth) {
      out_ << "{\"elided\": " << d.size() << "}";
      return;
    }
    out_ << "{\"rule\": " << json::quote(d.rule) << ", \"figure\": " << d.figure
         << ", \"judgement\": " << json::quote(arrow(d)) << ", \"phi\": [";
    for (std::size_t i = 0; i < d.phi.size(); ++i)
      out_ << (i ? ", " : "") << json::quote(d.phi[i]);
    out_ << "], \"rho\": {";
    auto env = judgement_rho(d);
    for (std::size_t i = 0; i < env.size(); ++i)
      out_ << (i ? ", " : "") << json::quote(env[i].first) << ": " << json::quote(env[i].second);
    out_ << "}, \"subject\": " << json::quote(subject_text(d))
         << ", \"result\": " << json::quote(result_text(d));
    if (!d.side.empty()) out_ << ", \"side\": " << json::quote(d.side);
    if (v == Visit::Fold) {
      out_ << ", \"folded\": " << d.size() - 1 << "}";
      return;
    }
    out_ << ", \"premises\": [";
    if (!d.function.empty()) calls_.push_back(d.function);
    for (std::size_t i = 0; i < d.premises.size(); ++i) {
      if (i) out_ << ", ";
      write(d.premises[i], depth + 1);
    }
    if (!d.function.empty()) calls_.pop_back();
    out_ << "]}";
  }
};

// LaTeX: \texttt for terms and values (Computer Modern typewriter has every ASCII character,
// so only TeX's special characters are escaped), the paper's symbols for the judgements.
std::string tex_text(const std::string& s) {
  std::string out = "\\texttt{";
  for (char c : s) {
    switch (c) {
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '{':
      case '}':
      case '_':
      case '#':
      case '%':
      case '&':
      case '$':
        out += '\\';
        out += c;
        break;
      case '^':
        out += "\\^{}";
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      default:
        out += c;
    }
  }
  return out + "}";
}

// A side condition in mathematics, as the paper sets it. The conditions are those
// semantics/derivation.cpp writes; program names stay in typewriter type, as in the judgements,
// and a condition of another form is set as text.
std::string tex_math_side(const std::string& side) {
  auto ends_with = [&](const std::string& suffix) {
    return side.size() >= suffix.size() &&
           side.compare(side.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  auto between = [&](const std::string& open, const std::string& close) {
    std::size_t a = side.find(open);
    std::size_t b = side.find(close, a == std::string::npos ? 0 : a + open.size());
    if (a != 0 || b == std::string::npos) return std::string();
    return side.substr(open.size(), b - open.size());
  };
  // x_1 not in Dom(rho)   (Fig. 4's let, Fig. 5's E[R])
  if (ends_with(" not in Dom(rho)")) {
    return tex_text(side.substr(0, side.size() - 16)) + " \\notin \\mathrm{Dom}(\\rho)";
  }
  // phi(f) = clo_phi'(f(x:T):U. M)   (the call rules)
  if (std::string f = between("phi(", ")"); !f.empty() && side.find("clo_phi'") != side.npos) {
    return "\\varphi(" + tex_text(f) + ") = \\mathrm{clo}_{\\varphi'}(" + tex_text(f) +
           "(x{:}T){:}U.\\,M)";
  }
  // bev(pred, V') = true, ev(op, V') = V   (Figs. 3 and 4: a predicate's, an operator's value)
  for (const char* fn : {"bev", "ev"}) {
    std::string name = between(std::string(fn) + "(", ", V') = ");
    if (!name.empty()) {
      std::size_t eq = side.find(", V') = ");
      return "\\mathrm{" + std::string(fn) + "}(" + tex_text(name) +
             ", V') = " + tex_text(side.substr(eq + 8));
    }
  }
  if (side == "t = r + s") return "t = r + s";
  if (side == "the trace is W.R_V(x:T. C) (Fig. 6)")
    return "\\text{the trace is } W.\\mathcal{R}_V(x{:}T.\\,C)\\ \\text{(Fig. 6)}";
  if (side == "V computed alongside C (Prop. 3.5)")
    return "V \\text{ computed alongside } C\\ \\text{(Prop. 3.5)}";
  return "\\text{" + tex_text(side) + "}";
}

// LaTeX: each tree fits the width of an A4 page's text (16 cm): a premise too wide for the
// room its conclusion leaves becomes a sub-derivation of its own, named D_1, D_2, ... and set
// after the tree that uses it, as textbooks do; a judgement too long for a line is broken over
// lines; mathpartir wraps a row of premises that is too wide. The widths are estimated from
// the fonts' sizes (typewriter text at \small is 4.725 pt a character), and the document
// reports on the terminal any tree that comes out wider than the page all the same.
class LatexWriter : Walker {
 public:
  using Walker::Walker;
  std::string run(const Derivation& root) {
    std::ostringstream out;
    out << "% A derivation of an evaluation judgement (Abadi & Plotkin, POPL 2020, Figs. 2-5),\n"
        << "% written by adlang. Compile with pdflatex (Debian: texlive-latex-base and\n"
        << "% texlive-science, for mathpartir). Trees too wide for the page are cut into\n"
        << "% sub-derivations D_1, D_2, ..., each set after the tree that uses it.\n"
        << "\\documentclass{article}\n"
        << "\\usepackage{amsmath,amssymb}\n"
        << "\\usepackage{mathpartir}\n"
        << "\\pagestyle{empty}\n"
        << "\\pdfpagewidth=210mm\\pdfpageheight=297mm\n"
        << "\\setlength{\\textwidth}{160mm}\\setlength{\\textheight}{250mm}\n"
        << "\\setlength{\\oddsidemargin}{-0.4mm}\\setlength{\\topmargin}{-20mm}\n"
        << "\\setlength{\\parindent}{0pt}\n"
        << "\\newsavebox{\\adlangtree}\n"
        << "% #1 is set as the tree named #2 (empty: the whole derivation), and reported when it\n"
        << "% comes out wider than the page.\n"
        << "% mathpartir wraps a row of premises at \\hsize: a little less than the page, for the\n"
        << "% rule names beside the bars.\n"
        << "\\newcommand{\\derivationtree}[2]{\\sbox{\\adlangtree}{\\small"
           "\\hsize=\\dimexpr\\textwidth-20pt\\relax$\\displaystyle #1$}%\n"
        << "  \\ifdim\\wd\\adlangtree>\\textwidth\\typeout{adlang: derivation tree #2 is "
           "\\the\\wd\\adlangtree\\space wide, wider than the page}\\fi\n"
        << "  \\par\\medskip\\noindent\\hfil\\usebox{\\adlangtree}\\hfil\\par\\medskip}\n"
        << "\\begin{document}\n";
    out << "\\derivationtree{" << write_tree(root, 0) << "}{}\n";
    for (std::size_t k = 0; k < pending_.size(); ++k) {
      // pending_ grows while its entries are written: a sub-derivation may cut its own.
      Pending p = pending_[k];
      calls_ = p.calls;
      std::string tree = write_tree(*p.d, p.depth);
      out << "\\noindent where $" << sub_name(k) << "$ is\n"
          << "\\derivationtree{" << tree << "}{" << sub_name(k) << "}\n";
    }
    if (shown() < total()) {
      out << "\\noindent{\\small " << shown() << " of " << total()
          << " judgements shown (raise --derivation-depth or --derivation-size).}\n";
    }
    out << "\\end{document}\n";
    return out.str();
  }

 private:
  // The text width (160 mm) in points, less a margin for the estimates' errors.
  static constexpr double kPageWidth = 455.2 - 30;
  static constexpr double kCharWidth = 4.725;  // cmtt at 9 pt (\small)
  static constexpr double kSymbolWidth = 15;   // a relation with its spaces: \vdash, \mapsto
  static constexpr double kPremiseSep = 18;    // mathpartir's 2em between premises
  // The narrowest a broken judgement is made: its lines, and the room left for premises.
  static constexpr double kMinLine = 160;

  // TeX allows 255 levels of grouping and mathpartir's \inferrule takes about ten per level
  // of the tree (pdflatex stops at 25 levels): a subtree this many levels below the root of
  // its tree is a sub-derivation of its own.
  static constexpr std::size_t kLevelsPerTree = 12;

  struct Pending {
    const Derivation* d;
    std::size_t depth;
    std::vector<std::string> calls;
  };
  std::vector<Pending> pending_;
  std::unordered_map<const Derivation*, double> min_width_;

  static std::string sub_name(std::size_t k) {
    return "\\mathcal{D}_{" + std::to_string(k + 1) + "}";
  }

  // A judgement as pieces a line may break between: its text and estimated width.
  struct Piece {
    std::string tex;
    double width;
  };

  static double text_width(const std::string& s) { return kCharWidth * double(s.size()); }

  // Typewriter text, cut at its spaces into pieces of at most `room` (a word longer than that
  // is a piece of its own).
  static void text_pieces(const std::string& text, double room, std::vector<Piece>& out) {
    std::string line;
    std::istringstream words(text);
    std::string w;
    while (words >> w) {
      std::string longer = line.empty() ? w : line + " " + w;
      if (!line.empty() && text_width(longer) > room) {
        out.push_back({tex_text(line), text_width(line)});
        line = w;
      } else {
        line = longer;
      }
    }
    if (!line.empty()) out.push_back({tex_text(line), text_width(line)});
  }

  static std::vector<Piece> judgement_pieces(const Derivation& d, double room) {
    std::vector<Piece> pieces;
    std::string phi = "\\{";
    double phi_width = 10;
    for (std::size_t i = 0; i < d.phi.size(); ++i) {
      phi += (i ? "," : "") + tex_text(d.phi[i]);
      phi_width += text_width(d.phi[i]) + 3;
    }
    pieces.push_back({phi + "\\} \\mid \\{", phi_width + kSymbolWidth + 5});
    auto env = judgement_rho(d);
    for (std::size_t i = 0; i < env.size(); ++i) {
      std::string entry = tex_text(env[i].first) + " \\mapsto " + tex_text(env[i].second) +
                          (i + 1 < env.size() ? ",\\ " : "\\}");
      pieces.push_back(
          {entry, text_width(env[i].first) + kSymbolWidth + text_width(env[i].second) + 6});
    }
    if (env.empty()) pieces.back().tex += "\\}";
    pieces.push_back({"\\vdash", kSymbolWidth});
    text_pieces(subject_text(d), room, pieces);
    pieces.push_back(
        {d.judgement == Judgement::Sym ? "\\rightsquigarrow" : "\\Rightarrow", kSymbolWidth});
    text_pieces(result_text(d), room, pieces);
    return pieces;
  }

  static double single_line_width(const Derivation& d) {
    double w = 0;
    for (const Piece& p : judgement_pieces(d, 1e9))
      w += p.width + 3;
    return w + side_width(d);
  }

  static double side_width(const Derivation& d) {
    return d.side.empty() ? 0 : 20 + 0.85 * text_width(d.side);
  }

  // The judgement (with its side condition) on lines at most `room` wide, the later lines
  // indented; its width.
  static Piece judgement(const Derivation& d, double room) {
    room = std::max(room, kMinLine);
    std::vector<Piece> pieces = judgement_pieces(d, room - 20);
    std::string side = d.side.empty() ? "" : "\\quad (" + tex_math_side(d.side) + ")";
    if (!side.empty()) pieces.push_back({side, side_width(d)});
    std::vector<std::string> lines{""};
    double width = 0, line = 0;
    bool line_start = true;
    for (const Piece& p : pieces) {
      if (!line_start && line + p.width > room) {
        lines.push_back("\\quad ");
        line = 20;
        line_start = true;
      }
      lines.back() += (line_start ? "" : "\\ ") + p.tex;  // a space between typewriter pieces
      line_start = false;
      line += p.width + 3;
      width = std::max(width, line);
    }
    if (lines.size() == 1) return {lines[0], width};
    // Lines stacked in a \vtop of \hbox-es: mathpartir reads \\ in its arguments itself, so
    // an array's line breaks would split the premises.
    std::string tex = "\\vtop{";
    for (const std::string& l : lines)
      tex += "\\hbox{$\\displaystyle " + l + "$}";
    return {tex + "}", width};
  }

  // The rule's name as the paper sets it: contexts in math, the others in small capitals.
  static std::string label(const Derivation& d) {
    std::string name = d.rule == "E[R]"        ? "\\ensuremath{E[R]}"
                       : d.rule == "E[R_bool]" ? "\\ensuremath{E[R_{\\mathrm{bool}}]}"
                                               : "\\textsc{" + tex_side(d.rule) + "}";
    return name +
           (d.figure ? "\\ \\text{\\tiny(" + std::to_string(d.figure) + ")}" : std::string());
  }
  static double label_width(const Derivation& d) { return 6.5 * double(d.rule.size()) + 22; }

  // The narrowest the tree of d can be set without cutting it: its conclusion (broken down to
  // kMinLine) and its widest premise, beside its label. Premises deeper than the view shows
  // count as the \vdots they become.
  double min_width(const Derivation& d, std::size_t depth) {
    if (depth > view_.max_depth) return 10;
    auto it = min_width_.find(&d);
    if (it != min_width_.end()) return it->second;
    double w = std::min(single_line_width(d), kMinLine);
    for (const Derivation& p : d.premises)
      w = std::max(w, min_width(p, depth + 1));
    return min_width_[&d] = w + label_width(d);
  }

  // The tree of d, the root of a tree on the page (the whole derivation or a sub-derivation).
  std::string write_tree(const Derivation& d, std::size_t depth) {
    return write(d, depth, 0, kPageWidth);
  }

  // d's tree in `room` points; `level` is its depth in the tree on the page.
  std::string write(const Derivation& d, std::size_t depth, std::size_t level, double room) {
    switch (visit(d, depth)) {
      case Visit::ElideSize:
      case Visit::ElideDepth:
        return "\\vdots";
      case Visit::Fold:
        return "\\inferrule*[right=" + label(d) + "]{\\vdots\\ \\text{(recursive call folded)}}{" +
               judgement(d, room - label_width(d)).tex + "}";
      case Visit::Show:
        break;
    }
    const double inner = room - label_width(d);
    std::string premises;
    if (!d.function.empty()) calls_.push_back(d.function);
    for (std::size_t i = 0; i < d.premises.size(); ++i) {
      const Derivation& p = d.premises[i];
      std::string tree;
      if (!p.premises.empty() && depth + 1 <= view_.max_depth &&
          (level + 1 == kLevelsPerTree || min_width(p, depth + 1) > inner)) {
        pending_.push_back(Pending{&p, depth + 1, calls_});
        tree = sub_name(pending_.size() - 1);
      } else {
        tree = write(p, depth + 1, level + 1, inner);
      }
      premises += (i ? " \\\\ " : "") + tree;
    }
    if (!d.function.empty()) calls_.pop_back();
    return "\\inferrule*[right=" + label(d) + "]{" + premises + "}{" + judgement(d, inner).tex +
           "}";
  }

  static std::string tex_side(const std::string& s) {
    std::string t = tex_text(s);
    return t.substr(8, t.size() - 9);  // without \texttt{...}
  }
};

}  // namespace

std::string render_derivation(const Derivation& d, const DerivationView& view) {
  switch (view.format) {
    case DerivationFormat::Json:
      return JsonWriter(d, view).run(d);
    case DerivationFormat::Latex:
      return LatexWriter(d, view).run(d);
    case DerivationFormat::Text:
      break;
  }
  return TextWriter(d, view).run(d);
}

}  // namespace adlang
