import gym

from agents.ddpg import DDPG

agent = DDPG(gym.make("Pendulum-v1"))
agent.run_n_episodes(1000)
