"""adlang's plain-Python adapter: runs programs exported with `adlang export --to python`
(floats and the math module; each derivative is the program's own code, no AD library)."""
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter_protocol

adapter_protocol.serve("python " + platform.python_version(), "python")
