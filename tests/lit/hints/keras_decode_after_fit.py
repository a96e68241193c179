# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A Keras `fit` is a training loop of its own: a program that calls it trains, and a loop
# that only predicts (decoding a few test sentences after training) is an evaluation pass
# of it, run once: its per-call overhead is the aggressive level's. An agent that predicts
# and fits on every step of its own loop is reported.
import numpy as np
from tensorflow import keras

model = keras.Sequential([keras.layers.Embedding(100, 8), keras.layers.LSTM(8),
                          keras.layers.Dense(100)])
model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy")
model.fit(np.zeros((64, 10)), np.zeros((64,)), epochs=15)


def decode(start):
    decoded = [start]
    for i in range(20):
        predictions = model.predict(np.array([decoded]))  # expected-hint@aggressive HARP404
        decoded.append(int(np.argmax(predictions[0])))
    return decoded


for _ in range(20):
    print(decode(1))

agent = keras.Sequential([keras.layers.Dense(2)])
agent.compile(optimizer="adam", loss="mse")
for episode in range(500):
    state = np.random.rand(4)
    for t in range(200):
        q = agent.predict(state.reshape(1, 4))  # expected-hint HARP404
        state = np.random.rand(4)
        agent.fit(state.reshape(1, 4), q, epochs=1, verbose=0)  # expected-hint HARP404
