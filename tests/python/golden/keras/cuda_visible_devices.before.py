import os
import tensorflow as tf

os.environ["CUDA_VISIBLE_DEVICES"] = "0"  # first GPU only
os.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'
