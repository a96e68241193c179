from agent import Agent


def run(env, memory):
    agent = Agent()
    for episode in range(1000):
        state = env.reset()
        done = False
        while not done:
            action = agent.act(state)
            state, reward, done, _ = env.step(action)
            memory.add(state, action, reward)
            agent.learn(*memory.sample())
        agent.sync()
