import os, tensorflow as tf
