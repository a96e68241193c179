import torch
from network import DeepQNetwork, SelfTrained


class Agent:
    def __init__(self):
        self.q_eval = DeepQNetwork(1e-4)
        self.q_next = DeepQNetwork(1e-4)
        self.online = SelfTrained()
        self.target = SelfTrained()
        self.steps = 0

    def learn(self, states, rewards, states_):
        self.q_eval.optimizer.zero_grad()
        if self.steps % 1000 == 0:
            self.q_next.load_state_dict(self.q_eval.state_dict())
            self.target.load_state_dict(self.online.state_dict())
        q_pred = self.q_eval.forward(states)
        q_next = self.q_next.forward(states_)
        loss = self.q_eval.loss(rewards + 0.99 * q_next.max(dim=1)[0], q_pred.max(dim=1)[0])
        loss.backward()
        self.q_eval.optimizer.step()
        # near miss: the class steps its own optimizer, so any instance may train
        t = self.target(states_)
        self.online.learn((self.online(states).max(dim=1)[0] - t.max(dim=1)[0]).pow(2).mean())
        self.steps += 1
