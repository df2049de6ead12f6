"""The example notebook executed by nbclient on the adlang kernel (docs/kernel.md): every code
cell's outputs equal the CLI's for the same program (cli_reference.py), and the cells with
%trace or %diff show the picture `adlang trace --format svg` draws.

usage: notebook_test.py ADLANG_BINARY NOTEBOOK
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_reference import CliReference, comparable  # noqa: E402
from kernel_setup import Mismatches, install_kernelspec, require  # noqa: E402

nbformat = require("nbformat", "python3-nbformat")
nbclient = require("nbclient", "python3-nbclient")


def outputs_of(cell):
    got = {"stdout": "", "stderr": "", "display": [], "error": None}
    for o in cell.outputs:
        if o.output_type == "stream":
            got[o.name] += o.text
        elif o.output_type == "display_data":
            got["display"].append(o.data)
        elif o.output_type == "error":
            got["error"] = o
    return got


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    adlang, notebook = os.path.abspath(sys.argv[1]), sys.argv[2]
    m = Mismatches()
    with tempfile.TemporaryDirectory() as tmp:
        install_kernelspec(adlang, os.path.join(tmp, "prefix"))
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        nb = nbformat.read(notebook, as_version=4)
        m.equal("the notebook's kernel", nb.metadata.get("kernelspec", {}).get("name"), "adlang")
        # Cells that fail on purpose carry the tag raises-exception, as nbclient expects.
        client = nbclient.NotebookClient(nb, kernel_name="adlang", timeout=120,
                                         resources={"metadata": {"path": work}})
        client.execute()
        cli = CliReference(adlang, work)
        code_cells = [c for c in nb.cells if c.cell_type == "code"]
        m.check("the notebook has code cells", len(code_cells) >= 10, str(len(code_cells)))
        for n, cell in enumerate(code_cells, 1):
            got = outputs_of(cell)
            m.equal("cell %d: execution count" % n, cell.execution_count, n)
            out, err, failed, svg = cli.expected(cell.source, n)
            what = "cell In[%d] %r" % (n, cell.source)
            m.equal(what + ": stdout", comparable(got["stdout"]), comparable(out))
            tagged = "raises-exception" in cell.metadata.get("tags", [])
            m.equal(what + ": fails (tagged raises-exception)", tagged, failed)
            if failed:
                tb = got["error"].traceback if got["error"] else []
                m.equal(what + ": error", "\n".join(tb) + "\n", err)
            else:
                m.equal(what + ": stderr", got["stderr"], err)
            pictures = [d for d in got["display"] if "image/svg+xml" in d]
            if svg is not None:
                m.equal(what + ": pictures", len(pictures), 1)
                if pictures:
                    m.equal(what + ": the picture", pictures[0]["image/svg+xml"], svg)
            else:
                m.equal(what + ": pictures", len(pictures), 0)
    m.finish("notebook_test " + os.path.basename(notebook))


if __name__ == "__main__":
    main()
