# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A test of the call that ends the episode (`is_terminated = game.is_episode_finished()`
# in `while not game.is_episode_finished():`), alone or in a conjunction, holds on the
# episode's last step only: a fit on the whole episode there runs once per episode, not
# per step, also seen from the loop over episodes around it.
import numpy as np
from keras.layers import Dense
from keras.models import Sequential

model = Sequential([Dense(3, input_dim=4)])
model.compile(loss="mse", optimizer="adam")
t = 0
for episode in range(100000):
    game.new_episode()
    states = []
    while not game.is_episode_finished():
        state = np.random.rand(1, 4)
        action = np.argmax(model.predict(state))  # expected-hint HARP404
        game.make_action(action)
        states.append(state[0])
        is_terminated = game.is_episode_finished()
        t += 1
        if is_terminated and t > 1000:
            targets = np.random.rand(len(states), 3)
            model.fit(np.array(states), targets, epochs=1, verbose=0)  # expected-hint@aggressive HARP404
        running = game.is_running()
        if running and t > 1000:  # near miss: not the call the loop ends on
            model.fit(np.array(states), targets, epochs=1, verbose=0)  # expected-hint HARP404
