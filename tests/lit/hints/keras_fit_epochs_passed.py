# RUN: %check-hints %s
# Near miss: a `fit` whose `epochs` parameter defaults to 1, but a call passes 20: the
# program's calls do not agree that each runs one epoch (a real training run).
import numpy
from keras.layers import Dense
from keras.models import Sequential


class Brain:
    def __init__(self):
        self.model = Sequential([Dense(2, input_dim=4)])
        self.model.compile(loss="mse", optimizer="rmsprop")

    def train(self, x, y, epochs=1):
        self.model.fit(x, y, epochs=epochs, verbose=0)


brain = Brain()
brain.train(numpy.zeros((512, 4)), numpy.zeros((512, 2)), epochs=20)
for step in range(1000):
    x = numpy.random.rand(64, 4)
    brain.train(x, numpy.zeros((64, 2)))
