"""The CLI's outputs for the cells of an adlang notebook (docs/kernel.md), to compare with
what the kernel sends: each cell's program is the definitions of the cells before it and its
own, followed by its term, written to a file and run by `adlang run|trace|diff|den|check`
with the inputs and settings the cells gave (%env, %set). The cells this understands: magic
lines first (%env, %set precision|predicates|ad|fuel, then at most one of %trace, %diff NAME,
%den, %check N, %check, %plot NAME FROM TO [table]), then definitions (each from `def` to its
`;`) and at most one term.
"""

import os
import re
import subprocess

TERM_MAGICS = ("%trace", "%diff", "%den", "%check", "%plot")
# The settings each command takes as flags.
FLAGS = {"run": ("precision", "predicates", "ad", "fuel"),
         "trace": ("precision", "predicates", "ad", "fuel"),
         "diff": ("precision", "predicates", "ad", "fuel"),
         "den": ("precision", "predicates", "fuel"),
         "check": ("precision", "predicates"),
         "plot": ("predicates", "fuel")}


# The CLI's hints in the notebook's words (support/setting_hint.hpp, FrontEnd::Notebook): a
# setting the cells have is %set, an input %env, the input of a derivative %diff; any other flag
# is named as the command line's, with a note that the notebook has no setting for it.
SESSION_SETTINGS = ("fuel", "precision", "predicates", "ad")


def in_notebook_words(text):
    def hint(m):
        flag, value, after = m.group(1), m.group(2), m.group(3)  # after: the sentence's stop
        if flag in SESSION_SETTINGS:
            return "%%set %s %s%s" % (flag, value, after)
        if flag == "env":
            return "%env " + value + after
        if flag == "wrt":
            return "%diff " + value + after
        return "adlang run --%s %s (the notebook has no setting for it)%s" % (flag, value, after)
    return re.sub(r"--([a-z][a-z-]*) (\S+?)([.,;:)]?)(?=\s|$)", hint, text)


def comparable(text):
    """`text` without what differs between two runs of the same program: the speed column
    (prog/s) of `adlang check`'s table."""
    lines = text.split("\n")
    if any(line.startswith("property ") and line.rstrip().endswith("prog/s") for line in lines):
        lines = [re.sub(r"\s+(prog/s|\d+)$", "", line) for line in lines]
    return "\n".join(lines)


class CliReference:
    def __init__(self, adlang, workdir):
        self.adlang = adlang
        self.workdir = workdir
        self.defs = []  # definition texts, in order (a later def of a name replaces it)
        # where each definition was typed: (cell count, line in the cell), which the kernel's
        # diagnostics name
        self.origins = []
        self.env = {}
        self.settings = {}  # precision, predicates, ad, fuel

    def _def_name(self, text):
        m = re.match(r"\s*def\s+([A-Za-z_][A-Za-z0-9_']*)", text)
        return m.group(1) if m else None

    def _add_def(self, text, origin):
        name = self._def_name(text)
        for i, d in enumerate(self.defs):
            if self._def_name(d) == name:
                self.defs[i] = text
                self.origins[i] = origin
                return
        self.defs.append(text)
        self.origins.append(origin)

    def _located(self, err, count, term_line):
        """`err` with the CLI's locations in cell.ad (In[count]:LINE:COL) turned into the
        kernel's: the cell and line each definition was typed on, and the term's own line."""
        starts = []  # (first line in cell.ad, (cell, line))
        line = 1
        for d, origin in zip(self.defs, self.origins):
            starts.append((line, origin))
            line += d.count("\n") + 1
        starts.append((line, (count, term_line)))

        def mapped(m):
            at = int(m.group(1))
            first, (cell, cell_line) = [s for s in starts if s[0] <= at][-1]
            return "In[%d]:%d:" % (cell, cell_line + at - first)

        return re.sub(r"In\[%d\]:(\d+):" % count, mapped, err)

    def expected(self, cell, count):
        """(stdout, stderr, failed, svg) the CLI gives for `cell`; stderr names the program
        In[count], as the kernel does. svg: the picture the cell should display (the trace
        `adlang trace --format svg` draws for %trace and %diff, the chart of `adlang plot` for
        %plot), or None."""
        lines = cell.split("\n")
        magic = None
        body = []
        magic_lines = 0  # the body starts on the cell's line magic_lines + 1
        for line in lines:
            s = line.strip()
            if not body and s.startswith("%"):
                magic_lines += 1
                words = s.split()
                if words[0] == "%env":
                    name, value = s[len("%env"):].strip().split("=", 1)
                    self.env[name.strip()] = value.strip()
                elif words[0] == "%set":
                    self.settings[words[1]] = words[2]
                elif words[0] in TERM_MAGICS:
                    magic = words
                else:
                    raise ValueError("cli_reference: no CLI counterpart for " + s)
            else:
                body.append(line)
        # Definitions, then the term.
        text = "\n".join(body)
        offset = 0
        while True:
            stripped = text[offset:].lstrip()
            start = len(text) - len(stripped)
            cell_line = magic_lines + 1 + text[:start].count("\n")
            if stripped.startswith("def ") or stripped.startswith("def\t"):
                end = stripped.index(";") + 1
                self._add_def(stripped[:end], (count, cell_line))
                offset = start + end
            else:
                term_line = cell_line
                break
        term = text[offset:].strip()
        if magic and magic[0] == "%check" and len(magic) == 2 and magic[1].isdigit():
            argv = ["check", "--count", magic[1]]
            for key in ("precision", "predicates"):
                if key in self.settings:
                    argv += ["--" + key, self.settings[key]]
            if self.settings.get("ad") == "linear":
                argv += ["--ad", "linear"]
            return self._run(argv, count, None)
        if not term:
            return ("", "", False, None)
        path = os.path.join(self.workdir, "cell.ad")
        with open(path, "w") as f:
            f.write("\n".join(self.defs) + ("\n" if self.defs else "") + term)
        command = {None: "run", "%trace": "trace", "%diff": "diff", "%den": "den",
                   "%check": "check", "%plot": "plot"}[magic[0] if magic else None]
        argv = [command, "cell.ad"]
        if command == "diff":
            argv += ["--wrt", magic[1]]
        if command == "plot":
            argv += ["--wrt", magic[1], "--from", magic[2], "--to", magic[3], "-o", "cell.svg"]
        # The inputs the program uses (definitions have no free variables, Fig. 1): those
        # named in the term, less those the CLI says the program does not use.
        used = [n for n in self.env if n != (magic[1] if command == "plot" else None) and re.search(r"(?<![\w'])%s(?![\w'])" % re.escape(n), term)]
        while True:
            probe = self._run(["fmt", "cell.ad", "--after", "resolve"] + sum(
                (["--env", "%s=%s" % (n, self.env[n])] for n in used), []), count, None)
            unused = [n for n in used if "--env gives '%s'" % n in probe[1]]
            if not unused:
                break
            used = [n for n in used if n not in unused]
        for name in used:
            argv += ["--env", "%s=%s" % (name, self.env[name])]
        for key in FLAGS[command]:
            if key in self.settings:
                argv += ["--" + key, self.settings[key]]
        if command == "check" and self.settings.get("ad", "tape") != "paper":
            argv += ["--ad", "linear"]  # the REPL's :check, unless :set ad paper
        out, err, failed, _ = self._run(argv, count, None)
        if command == "plot" and magic[4:] != ["table"]:
            # %plot shows the samples only with `table`; the reasons for undefined points always.
            out = "".join(line + "\n" for line in out.split("\n")
                          if line.startswith("-- undefined: "))
        err = in_notebook_words(self._located(err, count, term_line))
        svg = None
        if command in ("trace", "diff") and not failed:
            # The picture: `adlang trace` with the same flags (and --wrt for %diff).
            self._run(["trace", "cell.ad"] + argv[2:] + ["--format", "svg", "-o", "cell.svg"],
                      count, None)
            svg = self._read("cell.svg", count)
        elif command == "plot" and not failed:
            svg = self._read("cell.svg", count)
        return (out, err, failed, svg)

    def _read(self, name, count):
        path = os.path.join(self.workdir, name)
        with open(path) as f:
            text = f.read().replace("cell.ad", "In[%d]" % count)  # a plot's title
        os.remove(path)
        return text

    def _run(self, argv, count, svg):
        r = subprocess.run([self.adlang] + argv, cwd=self.workdir, capture_output=True, text=True,
                           timeout=120)
        err = r.stderr.replace("cell.ad", "In[%d]" % count)
        return (r.stdout, err, r.returncode != 0, svg)
