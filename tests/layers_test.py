#!/usr/bin/env python3
"""The layers of docs/design.md Sec. 2, checked against every #include of the tree.

Reads the table between the markers "<!-- layers" and "<!-- end of layers -->" of
docs/design.md: each row names a folder and the folders it may include. Every C++ file of a
folder of the table may include its own folder's headers and those of its row, nothing else of
the repository. A file belongs to the deepest folder of the table that contains it.

Also checks the rule of the independent witness: the denotational evaluator, with everything it
includes followed transitively, reaches no file of ad/ and none of the other evaluators.

Usage: layers_test.py SOURCE_DIR. Prints every violation with its file, line and rule, and exits
1 if there is one; prints the number of includes checked otherwise.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")
# The denotational evaluator's own files, and what it must never reach.
WITNESS = ["semantics/denotational_eval.cpp", "semantics/denotational_eval.hpp"]
WITNESS_FORBIDDEN = ["ad/", "semantics/symbolic_eval", "semantics/ordinary_eval",
                     "semantics/compiled_eval", "semantics/compiled/"]
SKIPPED_DIRS = {"node_modules", ".git"}


def read_table(design_md):
    rows = {}
    inside = False
    with open(design_md, encoding="utf-8") as f:
        for line in f:
            if line.startswith("<!-- layers"):
                inside = True
                continue
            if line.startswith("<!-- end of layers"):
                break
            if not inside or not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) != 3 or not cells[0].startswith("`"):
                continue  # the header and its rule
            folder = cells[0].strip("`")
            allowed = re.findall(r"`([^`]+)`", cells[2])
            rows[folder] = set(allowed)
    if not rows:
        sys.exit("layers_test: no layer table found in " + design_md)
    for folder, allowed in rows.items():
        for a in allowed:
            if a not in rows:
                sys.exit("layers_test: the row of %s names %s, which has no row" % (folder, a))
    return rows


def folder_of(path, folders):
    """The deepest folder of the table that contains path, or None."""
    best = None
    for folder in folders:
        if path.startswith(folder + "/") and (best is None or len(folder) > len(best)):
            best = folder
    return best


def source_files(root, folders):
    for folder in sorted(folders):
        top = os.path.join(root, folder)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if d not in SKIPPED_DIRS and
                           not d.startswith("build")]
            for name in filenames:
                if name.endswith(SOURCE_SUFFIXES):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    rows = read_table(os.path.join(root, "docs", "design.md"))
    folders = set(rows)
    violations = []
    checked = 0
    for path in sorted(set(source_files(root, folders))):
        own = folder_of(path, folders)
        if own is None:
            continue
        for number, target in includes(root, path):
            if not os.path.exists(os.path.join(root, target)):
                continue  # a system or generated header, or one relative to the file
            theirs = folder_of(target, folders)
            if theirs is None:
                continue
            checked += 1
            if theirs != own and theirs not in rows[own]:
                violations.append("%s:%d: includes %s: %s may include %s, not %s "
                                  "(docs/design.md Sec. 2)" %
                                  (path, number, target, own,
                                   " ".join(sorted(rows[own])) or "nothing of ours", theirs))
    # The independent witness, followed transitively.
    seen = set()
    todo = [(w, [w]) for w in WITNESS]
    while todo:
        path, chain = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for number, target in includes(root, path):
            if not os.path.exists(os.path.join(root, target)):
                continue
            if any(target.startswith(f) for f in WITNESS_FORBIDDEN):
                violations.append("%s:%d: includes %s, so the denotational evaluator reaches it "
                                  "(%s); it must stay independent of the tracer, R and the "
                                  "other evaluators (docs/design.md Sec. 2)" %
                                  (path, number, target, " -> ".join(chain + [target])))
            todo.append((target, chain + [target]))
    for v in violations:
        print(v)
    if violations:
        print("%d includes cross a layer the wrong way" % len(violations))
        return 1
    print("%d includes of %d layers follow docs/design.md Sec. 2; the denotational evaluator "
          "reaches %d files, none of the tracer, R or the other evaluators" %
          (checked, len(rows), len(seen)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
