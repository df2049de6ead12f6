import tensorflow as tf
import config
from tqdm import tqdm

for step in range(config.iterations_per_epoch):
    pass
for step in tqdm(range(config.iterations_per_epoch)):
    pass
for step in range(config.epochs):
    pass
