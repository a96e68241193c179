class BaseAgent:
    """The episode loop lives in the base class; subclasses give `learn`."""

    def __init__(self, env):
        self.env = env

    def run_n_episodes(self, n):
        for episode in range(n):
            state, done = self.env.reset(), False
            while not done:
                state, reward, done = self.step(state)

    def step(self, state):
        action = self.pick_action(state)
        next_state, reward, done, _ = self.env.step(action)
        self.learn()
        return next_state, reward, done
