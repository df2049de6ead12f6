import tensorflow as tf
import numpy as np
