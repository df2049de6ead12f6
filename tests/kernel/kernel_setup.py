"""What both kernel tests need: the packages (a missing one fails the test and names its
Debian package, never skips it), and the kernelspec written by `adlang kernel install --prefix`
into a temporary directory that Jupyter is pointed at (JUPYTER_PATH)."""

import importlib
import json
import os
import subprocess
import sys


def require(module, package):
    try:
        return importlib.import_module(module)
    except ImportError as e:
        print("FAIL: the Python module %s is missing (%s): install the Debian package %s "
              "(./scripts/install-deps.sh --kernel)" % (module, e, package))
        sys.exit(1)


def install_kernelspec(adlang, prefix):
    """Runs `adlang kernel install --prefix PREFIX`, checks kernel.json and makes Jupyter
    find it. Returns the kernelspec's directory."""
    r = subprocess.run([adlang, "kernel", "install", "--prefix", prefix], capture_output=True,
                       text=True, timeout=60)
    if r.returncode != 0:
        raise AssertionError("adlang kernel install failed (%d): %s" % (r.returncode, r.stderr))
    spec_dir = os.path.join(prefix, "share", "jupyter", "kernels", "adlang")
    with open(os.path.join(spec_dir, "kernel.json")) as f:
        spec = json.load(f)
    expect = {"argv": [os.path.realpath(adlang), "kernel", "-f", "{connection_file}"],
              "display_name": "adlang", "language": "adlang", "interrupt_mode": "signal",
              "metadata": {}}
    if spec != expect:
        raise AssertionError("kernel.json is %r, expected %r" % (spec, expect))
    if r.stdout != "Installed kernelspec adlang in %s\n" % spec_dir:
        raise AssertionError("adlang kernel install printed %r" % r.stdout)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
    return spec_dir


class Mismatches:
    """Collects differences between the kernel's outputs and the CLI's; the test fails at the
    end with all of them."""

    def __init__(self):
        self.items = []

    def equal(self, what, got, expected):
        if got != expected:
            self.items.append("%s:\n--- kernel:\n%s\n--- CLI:\n%s" % (what, got, expected))

    def check(self, what, ok, detail=""):
        if not ok:
            self.items.append("%s %s" % (what, detail))

    def finish(self, name):
        if self.items:
            print("FAIL: %s: %d mismatch(es)\n\n%s" % (name, len(self.items),
                                                        "\n\n".join(self.items)))
            sys.exit(1)
        print("ok: " + name)
