# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An episode collected step by step in `train()`, which then updates on it: the rollout's
# outputs reach the program's helpers (`advantages_of`, `update`) as arguments, and are
# followed into them from the parameters they bind: there, every one ends detached. The
# rollout loop is training work because the function that runs it trains after it.
# Near misses: a helper that backpropagates through the values it is given (an
# actor-critic's value loss), and one that stores them on an object (where they go next
# is not followed).
import gym
import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Linear(4, 2)
        self.v = nn.Linear(4, 1)

    def forward(self, x):
        return self.pi(x), self.v(x)


def advantages_of(returns, values):
    advantages = returns - values
    return (advantages - advantages.mean()) / advantages.std()


def update(policy, optimizer, states, actions, old_log_probs, advantages, returns):
    advantages = advantages.detach()
    old_log_probs = old_log_probs.detach()
    for _ in range(5):
        logits, value = policy(states)
        dist = Categorical(F.softmax(logits, dim=-1))
        ratio = (dist.log_prob(actions) - old_log_probs).exp()
        loss = -(ratio * advantages).sum() + F.smooth_l1_loss(returns, value.squeeze(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train(env, policy, optimizer):
    states, actions, log_probs, values, rewards = [], [], [], [], []
    state, done = env.reset(), False
    while not done:
        state = torch.FloatTensor(state).unsqueeze(0)
        states.append(state)
        logits, value = policy(state)  # expected-hint HARP303
        dist = Categorical(F.softmax(logits, dim=-1))
        action = dist.sample()
        state, reward, done, _ = env.step(action.item())  # expected-hint@aggressive HARP201
        actions.append(action)
        log_probs.append(dist.log_prob(action))
        values.append(value)
        rewards.append(reward)
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    advantages = advantages_of(returns, torch.cat(values).squeeze(-1))
    update(policy, optimizer, torch.cat(states), torch.cat(actions), torch.cat(log_probs),
           advantages, returns)


def critic_loss(values, returns):
    return F.mse_loss(values, returns)


def train_actor_critic(env, policy, optimizer):
    log_probs, values, rewards = [], [], []
    state, done = env.reset(), False
    while not done:
        logits, value = policy(torch.FloatTensor(state))
        dist = Categorical(logits=logits)
        action = dist.sample()
        state, reward, done, _ = env.step(action.item())  # expected-hint@aggressive HARP201
        log_probs.append(dist.log_prob(action))
        values.append(value)
        rewards.append(reward)
    returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
    values = torch.cat(values)
    loss = -(torch.stack(log_probs) * (returns - values.detach())).sum() + \
        critic_loss(values, returns)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


class Recorder:
    def keep(self, values):
        self.values = values


def train_recorded(env, policy, optimizer, recorder):
    values, rewards = [], []
    state, done = env.reset(), False
    while not done:
        logits, value = policy(torch.FloatTensor(state))
        action = Categorical(logits=logits).sample()
        state, reward, done, _ = env.step(action.item())  # expected-hint@aggressive HARP201
        values.append(value)
        rewards.append(reward)
    recorder.keep(torch.cat(values))
    loss = recorder.values.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


if __name__ == "__main__":
    env = gym.make("CartPole-v1")
    policy = ActorCritic()
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    recorder = Recorder()
    for episode in range(500):
        train(env, policy, optimizer)
        train_actor_critic(env, policy, optimizer)
        train_recorded(env, policy, optimizer, recorder)
