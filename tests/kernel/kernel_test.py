"""The adlang Jupyter kernel driven by jupyter_client (docs/kernel.md): started from the
kernelspec `adlang kernel install --prefix` writes, it runs cells whose every output equals
the CLI's for the same program (cli_reference.py), shows the trace picture of %trace and %diff
as the SVG `adlang trace --format svg` draws and the chart of %plot as `adlang plot` draws it, reports errors as Jupyter errors with the CLI's
diagnostic and caret, keeps definitions across cells, and survives an interrupt of an endless
recursion.

usage: kernel_test.py ADLANG_BINARY
"""

import os
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_reference import CliReference, comparable  # noqa: E402
from kernel_setup import Mismatches, install_kernelspec, require  # noqa: E402

manager = require("jupyter_client.manager", "python3-jupyter-client")

TIMEOUT = 60


def execute(kc, code):
    """Runs `code`; returns its reply content and its outputs: the stdout and stderr text,
    the display data bundles, and the error content (or None)."""
    msg_id = kc.execute(code)
    out = {"stdout": "", "stderr": "", "display": [], "error": None}
    while True:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out[content["name"]] += content["text"]
        elif kind == "display_data":
            out["display"].append(content["data"])
        elif kind == "error":
            out["error"] = content
        elif kind == "status" and content["execution_state"] == "idle":
            break
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    return reply["content"], out


# Cells and, for each, whether the CLI fails on it.
CELLS = [
    "def sq(x: real): real = x * x;\nsq(3) + 1",
    "sq(sq(2))",  # sq persists
    "%env x=0.5\ndef cube(x: real): real = x * sq(x);\ncube(x)",
    "%trace\ncube(x) + x",
    "%diff x\ncube(x) + x",
    "%den\nsq(x) + 1",
    "%check 5",
    "%check\nsq(x) * x",
    "%set precision 50\n1 / 3",
    "%set precision double\n"
    "def relu(x: real): real = if (x < 0) then 0 else x;\n(relu(x), grad[x](y: real. relu(y)))",
    "%env x=0\n(relu(x), grad[x](y: real. relu(y)))",  # undefined at the kink: an error
    "sq((1, 2))",  # a type error, with its caret
    "let y: real = 2 in\n  y * sq(y)",  # a term over two lines
    "%plot x -2 2\ncube(x) - x",
    "%plot x -1 1 table\nrelu(x)",  # the samples on request; undefined at 0
    # Out of fuel: the hint names the notebook's setting (the reference turns the CLI's flag
    # into it), then the default again.
    "%set fuel 50\ndef down(n: real): real = down(n - 1);\ndown(3)",
    "%set fuel 10000000",
]


def children(pid):
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue  # it has ended
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(entry))
    return found


def threads(pid):
    """The number of threads of process `pid`."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    adlang = os.path.abspath(sys.argv[1])
    m = Mismatches()
    with tempfile.TemporaryDirectory() as tmp:
        install_kernelspec(adlang, os.path.join(tmp, "prefix"))
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        # The kernel's TMPDIR: every cell's directory in it (pictures, the interrupted cell)
        # must be gone at the end.
        cells_tmp = os.path.join(tmp, "cells")
        os.mkdir(cells_tmp)
        km, kc = manager.start_new_kernel(kernel_name="adlang", startup_timeout=TIMEOUT,
                                          env=dict(os.environ, TMPDIR=cells_tmp))
        try:
            info = kc.kernel_info(reply=True, timeout=TIMEOUT)["content"]
            m.equal("language_info.name", info["language_info"]["name"], "adlang")
            cli = CliReference(adlang, work)
            count = 0
            for cell in CELLS:
                count += 1
                reply, got = execute(kc, cell)
                out, err, failed, svg = cli.expected(cell, count)
                what = "cell In[%d] %r" % (count, cell)
                m.equal(what + ": stdout", comparable(got["stdout"]), comparable(out))
                m.equal(what + ": status", reply["status"], "error" if failed else "ok")
                if failed:
                    e = got["error"] or {}
                    m.equal(what + ": error traceback", "\n".join(e.get("traceback", [])) + "\n",
                            err)
                    m.equal(what + ": reply traceback", reply.get("traceback"),
                            e.get("traceback"))
                else:
                    m.equal(what + ": stderr", got["stderr"], err)
                if svg is not None:
                    pictures = [d for d in got["display"] if "image/svg+xml" in d]
                    m.equal(what + ": pictures", len(pictures), 1)
                    if pictures:
                        m.equal(what + ": the picture", pictures[0]["image/svg+xml"], svg)
                else:
                    m.equal(what + ": display data", got["display"], [])
            # The type error's diagnostic: where, and the caret under it.
            reply, got = execute(kc, "sq((1, 2))")
            count += 1
            e = got["error"] or {}
            m.equal("a type error's ename", e.get("ename"), "CompileError")
            m.check("a type error's evalue", e.get("evalue", "").startswith("In[%d]:" % count) and
                    e.get("evalue") == (e.get("traceback") or [""])[0], repr(e))
            m.check("a type error's caret", any(line.strip().startswith("^")
                                               for line in e.get("traceback", [])),
                    repr(e.get("traceback")))
            # Hints in the notebook's words, not the command line's flags.
            _, got = execute(kc, "%set fuel 50\ndown(3)")
            hint = "\n".join((got["error"] or {}).get("traceback", []))
            m.check("the fuel hint names %set fuel", "%set fuel" in hint and "--fuel" not in hint,
                    hint)
            execute(kc, "%set fuel 10000000")
            count += 2
            _, got = execute(kc, "1 / 0")
            m.equal("an undefined value's ename", (got["error"] or {}).get("ename"), "Undefined")
            # A source that is not UTF-8 (Latin-1): its diagnostic echoes the line, whose byte
            # the kernel shows as \xE9 (Jupyter's JSON holds UTF-8 only), and the kernel answers.
            with tempfile.NamedTemporaryFile(suffix=".ad", delete=False) as latin1:
                latin1.write(b"let \xe9: real = 1 in 2\n")
            try:
                reply, got = execute(kc, "%load " + latin1.name)
            finally:
                os.unlink(latin1.name)
            e = got["error"] or {}
            m.equal("a Latin-1 source's reply", reply["status"], "error")
            m.equal("a Latin-1 source's ename", e.get("ename"), "CompileError")
            m.check("a Latin-1 source's byte", "\\xE9" in "\n".join(e.get("traceback", [])),
                    repr(e))
            _, got = execute(kc, "sq(5)")
            m.equal("a cell after a Latin-1 source", got["stdout"], "25\n")
            # Interrupt: an endless recursion with a fuel that lasts hours.
            _, got = execute(kc, "%set fuel 1000000000000000")
            m.equal("%set fuel", got["error"], None)
            msg_id = kc.execute("def spin(x: real): real = spin(x);\nspin(1)")
            time.sleep(1.5)
            # The cell's process is forked by the zygote, which the kernel forked before its
            # threads started: the zygote has one thread, and the cell a process group of its own.
            kernel_pid = km.provisioner.pid
            zygotes = children(kernel_pid)
            m.equal("the kernel's child processes (the zygote)", len(zygotes), 1)
            if zygotes:
                m.equal("the zygote's threads", threads(zygotes[0]), 1)
                cells = children(zygotes[0])
                m.equal("the zygote's child processes (the running cell)", len(cells), 1)
                if cells:
                    m.equal("the cell's process group", os.getpgid(cells[0]), cells[0])
            started = time.time()
            km.interrupt_kernel()
            error = None
            while True:
                msg = kc.get_iopub_msg(timeout=TIMEOUT)
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if msg["msg_type"] == "error":
                    error = msg["content"]
                if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                    break
            reply = kc.get_shell_msg(timeout=TIMEOUT)["content"]
            m.check("the interrupt took", time.time() - started < 10,
                    "%.1f s" % (time.time() - started))
            m.equal("the interrupted cell's reply", reply["status"], "error")
            m.equal("the interrupted cell's ename", (error or {}).get("ename"), "Interrupted")
            m.check("the kernel is alive after the interrupt", km.is_alive())
            m.equal("the zygote after the interrupt: its cell's process is reaped",
                    [children(z) for z in zygotes], [[]] * len(zygotes))
            _, got = execute(kc, "sq(7)")
            m.equal("a cell after the interrupt", got["stdout"], "49\n")
            _, got = execute(kc, "spin(1)")  # the interrupted cell's definition is not kept
            m.equal("the interrupted cell's definition", (got["error"] or {}).get("ename"),
                    "CompileError")
            m.equal("the cells' temporary directories left in TMPDIR", os.listdir(cells_tmp), [])
            # The zygote killed from outside: the next cell is an InternalError saying so, and
            # the kernel reaps the zygote (no zombie left) and stays up.
            for z in zygotes:
                os.kill(z, signal.SIGKILL)
            reply, got = execute(kc, "sq(2)")
            e = got["error"] or {}
            m.equal("a cell after the zygote was killed: ename", e.get("ename"), "InternalError")
            m.check("a cell after the zygote was killed: evalue", "zygote" in e.get("evalue", ""),
                    repr(e))
            m.equal("the killed zygote, reaped", children(kernel_pid), [])
            m.check("the kernel is alive after its zygote was killed", km.is_alive())
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=False)
    m.finish("kernel_test")


if __name__ == "__main__":
    main()
