import sys

import numpy as np
from keras.layers import Dense
from keras.models import Sequential

sys.path.append("game/")
import wrapped_game as game  # noqa: E402

model = Sequential([Dense(2, input_dim=4)])
model.compile(loss="mse", optimizer="adam")
game_state = game.GameState()
state = np.zeros((1, 4))
while True:
    q = model.predict(state)
    state, reward, terminal = game_state.frame_step(int(np.argmax(q)))
