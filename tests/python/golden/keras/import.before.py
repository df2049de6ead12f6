"""Module docstring."""
import sys
import tensorflow as tf  # the framework

print(tf.__version__, file=sys.stderr)
