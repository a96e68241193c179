# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An on-policy agent's rollout: the policy's forward on every environment step, its
# values and log-probabilities kept in lists for the update after the rollout. Followed
# through the lists (`append`, then `torch.cat(...)`), every output ends detached, and
# the action a distribution's `sample()` draws carries no gradient: the forward never
# reaches backward, but autograd keeps every step's graph alive in the lists until the
# rollout ends. Near miss: a rollout whose kept log-probabilities the update
# backpropagates through (REINFORCE) needs its graphs.
import gym
import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 64)
        self.pi = nn.Linear(64, 2)
        self.v = nn.Linear(64, 1)

    def forward(self, x):
        h = torch.relu(self.body(x))
        return self.pi(h), self.v(h)


def ppo(env, model, optimizer, device, updates=1000, steps=512):
    state = torch.as_tensor(env.reset(), dtype=torch.float32, device=device)
    for update in range(updates):
        states, actions, values, log_probs, rewards = [], [], [], [], []
        for t in range(steps):
            states.append(state)
            logits, value = model(state)  # expected-hint HARP303
            dist = Categorical(F.softmax(logits, dim=-1))
            action = dist.sample()
            actions.append(action)
            values.append(value.squeeze())
            log_probs.append(dist.log_prob(action))
            obs, reward, done, _ = env.step(action.item())  # expected-hint@aggressive HARP201
            rewards.append(reward)
            state = torch.as_tensor(env.reset() if done else obs, dtype=torch.float32,
                                    device=device)
        values = torch.stack(values).detach()
        old_log_probs = torch.stack(log_probs).detach()
        returns = torch.tensor(rewards, device=device).flip(0).cumsum(0).flip(0)
        advantages = returns - values
        states, actions = torch.stack(states), torch.stack(actions)
        for epoch in range(4):
            logits, value = model(states)
            dist = Categorical(F.softmax(logits, dim=-1))
            ratio = torch.exp(dist.log_prob(actions) - old_log_probs)
            loss = -(ratio * advantages).mean() + F.mse_loss(value.squeeze(-1), returns)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def reinforce(env, model, optimizer, device, episodes=1000):
    for episode in range(episodes):
        state, done = env.reset(), False
        log_probs, rewards = [], []
        while not done:
            logits, _ = model(torch.as_tensor(state, dtype=torch.float32, device=device))
            dist = Categorical(logits=logits)
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            state, reward, done, _ = env.step(action.item())  # expected-hint@aggressive HARP201
            rewards.append(reward)
        returns = torch.tensor(rewards, device=device).flip(0).cumsum(0).flip(0)
        loss = -(torch.stack(log_probs) * returns).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    device = torch.device("cuda")
    model = ActorCritic().to(device)
    optimizer = torch.optim.Adam(model.parameters())
    ppo(gym.make("CartPole-v1"), model, optimizer, device)
    reinforce(gym.make("CartPole-v1"), model, optimizer, device)
