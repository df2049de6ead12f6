"""adlang's PyTorch adapter: runs programs exported with `adlang export --to torch`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import torch
except ImportError as e:
    sys.stderr.write("the torch adapter needs PyTorch for /usr/bin/python3: install the Debian "
                     "package python3-torch (scripts/install-deps.sh does): %s\n" % e)
    sys.exit(1)
import adapter_protocol

torch.set_num_threads(1)
adapter_protocol.serve("torch " + torch.__version__, "torch")
