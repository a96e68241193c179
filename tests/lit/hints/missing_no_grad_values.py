# RUN: %check-hints %s
# HARP303 per value: forwards whose outputs never reach backward(), and target networks,
# in programs that train; with the near misses that must stay silent.
import random

import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)

    def sample_action(self, obs, epsilon):
        out = self.forward(obs)  # aggressive level: missing_no_grad_acting.py
        if random.random() < epsilon:
            return random.randint(0, 1)
        return out.argmax().item()


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)

    def pi(self, x):
        return F.softmax(self.fc(x), dim=-1)

    def train_net(self, states, actions, returns):
        probs = self.pi(states)  # reaches backward: no hint here
        loss = -(torch.log(probs.gather(1, actions)) * returns).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


def train(q, q_target, memory, optimizer):
    for _ in range(10):
        s, a, r, s_prime = memory.sample(32)
        q_a = q(s).gather(1, a)
        best_next = q_target(s_prime).max(1)[0].unsqueeze(1)  # expected-hint HARP303
        loss = F.smooth_l1_loss(q_a, r + 0.99 * best_next)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def dqn(env, memory):
    q = QNet()
    q_target = QNet()
    q_target.load_state_dict(q.state_dict())
    optimizer = torch.optim.Adam(q.parameters(), lr=5e-4)
    for episode in range(1000):
        s, done = env.reset(), False
        while not done:
            a = q.sample_action(torch.from_numpy(s).float(), 0.1)
            s, r, done, _ = env.step(a)
            memory.put((s, a, r))
        train(q, q_target, memory, optimizer)


def ppo(env, model):
    for episode in range(1000):
        s, done = env.reset(), False
        states, actions, rewards = [], [], []
        while not done:
            prob = model.pi(torch.from_numpy(s).float())  # aggressive level only
            a = Categorical(prob).sample().item()
            states.append(s)
            actions.append(a)
            s, r, done, _ = env.step(a)
            rewards.append(r)
        model.train_net(torch.tensor(states), torch.tensor(actions), torch.tensor(rewards))


def main(env):
    ppo(env, Policy())


def reinforce(env):
    # near miss: the log-probabilities go into a list that the loss backpropagates through
    policy = QNet()
    optimizer = torch.optim.Adam(policy.parameters())
    for episode in range(1000):
        s, done, log_probs = env.reset(), False, []
        while not done:
            m = Categorical(policy(torch.from_numpy(s).float()))
            a = m.sample()
            log_probs.append(m.log_prob(a))
            s, r, done, _ = env.step(a.item())
        loss = -torch.stack(log_probs).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def through_a_container(batches):
    # near miss: the output reaches backward through a list and an index
    model = QNet()
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in batches:
        pair = [model(x), y]
        loss = F.mse_loss(pair[0], pair[1])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def acting_without_autograd(env, memory):
    q = QNet()
    optimizer = torch.optim.Adam(q.parameters())
    for episode in range(1000):
        s, done = env.reset(), False
        while not done:
            with torch.no_grad():  # near miss: already without autograd
                a = q(torch.from_numpy(s).float()).argmax().item()
            s, r, done, _ = env.step(a)
        loss = q(memory.sample()).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def log_values(model, batch):
    return model(batch).mean().item()


def report(model, batch):
    return log_values(model, batch)


def guarded(batches):
    # near miss: the wasted forward runs two calls below a periodic guard
    model = QNet()
    optimizer = torch.optim.Adam(model.parameters())
    for step, (x, y) in enumerate(batches):
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            print(report(model, x))


class Recurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 4)
        self.hidden = None

    def forward(self, x):
        self.hidden = self.cell(x, self.hidden)  # state kept for a later backward
        return self.hidden


def stateful(env, optimizer):
    rnn = Recurrent()
    for episode in range(1000):
        s, done = env.reset(), False
        while not done:
            a = rnn(torch.from_numpy(s).float()).argmax().item()  # near miss: stateful
            s, r, done, _ = env.step(a)
        loss = rnn.hidden.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def gan(batches):
    # near misses: the discriminator trains (an optimizer holds it), so it is no target
    # network; the generator's output carries a gradient, and nothing sets its weights (so
    # backward computes its weight gradients for nothing: HARP304's)
    g = QNet()
    d = QNet()
    opt_d = torch.optim.Adam(d.parameters())
    for x, _ in batches:
        fake = g(x)  # expected-hint HARP304
        loss = F.softplus(-d(fake)).mean()
        opt_d.zero_grad()
        loss.backward()
        opt_d.step()


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 1)

    def forward(self, s, a):
        return self.fc(torch.cat([s, a], 1))


def ddpg(memory):
    # A target actor's output feeds the target critic (a model's output is computed from its
    # inputs): detached at the end, only autograd's recording is wasted (aggressive level);
    # not detached, backward runs through both target networks for nothing (default level).
    actor, critic = QNet(), Critic()
    actor_target, critic_target = QNet(), Critic()
    actor_target.load_state_dict(actor.state_dict())
    critic_target.load_state_dict(critic.state_dict())
    critic_opt = torch.optim.Adam(critic.parameters())
    for it in range(1000):
        s, a, r, s2 = memory.sample(64)
        target_q = critic_target(s2, actor_target(s2))  # aggressive level only
        target_q = (r + 0.99 * target_q).detach()
        loss = F.mse_loss(critic(s, a), target_q)
        critic_opt.zero_grad()
        loss.backward()
        critic_opt.step()
    for it in range(1000):
        s, a, r, s2 = memory.sample(64)
        target_q = r + 0.99 * critic_target(s2, actor_target(s2))  # expected-hint HARP303
        loss = F.mse_loss(critic(s, a), target_q)
        critic_opt.zero_grad()
        loss.backward()
        critic_opt.step()
