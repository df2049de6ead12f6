#include "cli/derivation_format.hpp"

#include <algorithm>
#include <sstream>

#include "cli/json.hpp"
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

class LatexWriter : Walker {
 public:
  using Walker::Walker;
  std::string run(const Derivation& root) {
    std::string body = write(root, 0, 0);
    // The tree is set in a box as wide as it needs (premises are never wrapped), and the
    // page is made the size of the box.
    std::ostringstream out;
    out << "% A derivation of an evaluation judgement (Abadi & Plotkin, POPL 2020, Figs. 2-5),\n"
        << "% written by adlang. Compile with pdflatex (Debian: texlive-latex-base and\n"
        << "% texlive-science, for mathpartir).\n"
        << "\\documentclass{article}\n"
        << "\\usepackage{amsmath,amssymb}\n"
        << "\\usepackage{mathpartir}\n"
        << "\\pagestyle{empty}\n"
        << "\\newsavebox{\\derivation}\n";
    for (std::size_t i = 0; i < boxes_.size(); ++i)
      out << "\\newsavebox{" << box_name(i) << "}\n";
    out << "\\begin{document}\n"
        << "\\setlength{\\textwidth}{500cm}\\setlength{\\linewidth}{500cm}"
           "\\setlength{\\hsize}{500cm}\n";
    // The subtrees cut off by write(), deepest first: each box is set before the boxes that
    // use it.
    for (std::size_t i = 0; i < boxes_.size(); ++i)
      out << "\\sbox{" << box_name(i) << "}{\\small$\\displaystyle\n" << boxes_[i] << "\n$}\n";
    out << "\\begin{lrbox}{\\derivation}\\small$\\displaystyle\n" << body << "\n$\\end{lrbox}\n";
    if (shown() < total()) {
      out << "\\setbox\\derivation=\\vbox{\\box\\derivation\\par\\vskip 4mm\\hbox{\\small "
          << shown() << " of " << total()
          << " judgements shown (raise --derivation-depth or --derivation-size).}}\n";
    }
    out << "\\pdfpagewidth=\\dimexpr\\wd\\derivation+2cm\\relax\n"
        << "\\pdfpageheight=\\dimexpr\\ht\\derivation+\\dp\\derivation+2cm\\relax\n"
        << "\\hoffset=-1in\\voffset=-1in\n"
        << "\\shipout\\vbox{\\vskip 1cm\\hbox{\\hskip 1cm\\box\\derivation}}\n";
    out << "\\end{document}\n";
    return out.str();
  }

 private:
  static std::string judgement(const Derivation& d) {
    std::string phi = "\\{";
    for (std::size_t i = 0; i < d.phi.size(); ++i)
      phi += (i ? "," : "") + tex_text(d.phi[i]);
    std::string rho = "\\{";
    auto env = judgement_rho(d);
    for (std::size_t i = 0; i < env.size(); ++i)
      rho += (i ? ",\\ " : "") + tex_text(env[i].first) + " \\mapsto " + tex_text(env[i].second);
    std::string arrow = d.judgement == Judgement::Sym ? " \\rightsquigarrow " : " \\Rightarrow ";
    return phi + "\\} \\mid " + rho + "\\} \\vdash " + tex_text(subject_text(d)) + arrow +
           tex_text(result_text(d));
  }

  // The rule's name as the paper sets it: contexts in math, the others in small capitals.
  static std::string label(const Derivation& d) {
    std::string name = d.rule == "E[R]"        ? "\\ensuremath{E[R]}"
                       : d.rule == "E[R_bool]" ? "\\ensuremath{E[R_{\\mathrm{bool}}]}"
                                               : "\\textsc{" + tex_side(d.rule) + "}";
    return name +
           (d.figure ? "\\ \\text{\\tiny(" + std::to_string(d.figure) + ")}" : std::string());
  }

  // TeX allows 255 levels of grouping and mathpartir's \inferrule takes about ten per level
  // of the tree (pdflatex stops at 25 levels): a subtree whose root is this many levels below
  // the root of its box is set in a box of its own, and the tree uses the box.
  static constexpr std::size_t kLevelsPerBox = 12;

  // The subtrees set in their own boxes, in the order they were written.
  std::vector<std::string> boxes_;

  // \adlangboxa, \adlangboxb, ..., \adlangboxz, \adlangboxba, ...: control sequences
  // are letters only.
  static std::string box_name(std::size_t i) {
    std::string letters;
    do {
      letters.insert(letters.begin(), static_cast<char>('a' + i % 26));
      i /= 26;
    } while (i > 0);
    return "\\adlangbox" + letters;
  }

  std::string write(const Derivation& d, std::size_t depth, std::size_t level) {
    if (level == kLevelsPerBox && !d.premises.empty()) {
      std::string tree = write(d, depth, 0);
      boxes_.push_back(tree);
      return "\\usebox{" + box_name(boxes_.size() - 1) + "}";
    }
    switch (visit(d, depth)) {
      case Visit::ElideSize:
      case Visit::ElideDepth:
        return "\\vdots";
      case Visit::Fold:
        return "\\inferrule*[right=" + label(d) + "]{\\vdots\\ \\text{(recursive call folded)}}{" +
               judgement(d) + "}";
      case Visit::Show:
        break;
    }
    std::string premises;
    if (!d.function.empty()) calls_.push_back(d.function);
    for (std::size_t i = 0; i < d.premises.size(); ++i)
      premises += (i ? " \\\\ " : "") + write(d.premises[i], depth + 1, level + 1);
    if (!d.function.empty()) calls_.pop_back();
    std::string side =
        d.side.empty() ? "" : "\\quad \\text{\\scriptsize(" + tex_side(d.side) + ")}";
    return "\\inferrule*[right=" + label(d) + "]{" + premises + "}{" + judgement(d) + side + "}";
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
