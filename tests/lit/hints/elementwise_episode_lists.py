# RUN: %check-hints %s
# An episode's per-step tensors (a log-probability, a value) kept in a list the acting loop
# appends to, then walked one at a time to build the loss: several tensor ops and autograd
# nodes per step of the episode, where one `torch.stack` and vectorized ops give the same
# loss. Three spellings: a list passed to the update, a model's attribute, a method that
# stores each step's tuple. Near misses: the rewards (host numbers), a loop with one op per
# element, batches appended by a loop that runs no model, samples shown one by one (no loss).
import gym
import torch
import torch.nn.functional as F
from torch import nn
from torch.distributions import Categorical

env = gym.make("CartPole-v1")
device = torch.device("cuda")


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 128)
        self.action_head = nn.Linear(128, 2)
        self.value_head = nn.Linear(128, 1)
        self.saved_actions = []
        self.data = []

    def forward(self, x):
        h = F.relu(self.body(x))
        return F.softmax(self.action_head(h), dim=-1), self.value_head(h)

    def put_data(self, item):
        self.data.append(item)

    def train_net(self, optimizer, gamma=0.99):
        R = 0
        optimizer.zero_grad()
        for r, prob in self.data[::-1]:  # expected-hint HARP401
            R = r + gamma * R
            loss = -torch.log(prob) * R
            loss.backward()
        optimizer.step()
        self.data = []


model = Policy().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-2)


def select_action(state):
    probs, value = model(torch.from_numpy(state).float().to(device))
    m = Categorical(probs)
    action = m.sample()
    model.saved_actions.append((m.log_prob(action), value))
    return action.item()


def finish_episode(rewards, gamma=0.99):
    R, returns = 0, []
    for r in rewards[::-1]:  # host numbers: no tensor per element
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns, device=device)
    saved_actions = model.saved_actions
    policy_losses, value_losses = [], []
    for (log_prob, value), R in zip(saved_actions, returns):  # expected-hint HARP401
        advantage = R - value.detach()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value, R.reshape(1)))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()
    del model.saved_actions[:]


def update_parameters(rewards, log_probs, entropies, gamma=0.99):
    R = torch.zeros(1, 1)
    loss = 0
    for i in reversed(range(len(rewards))):  # expected-hint HARP401
        R = gamma * R + rewards[i]
        loss = loss - (log_probs[i] * R.expand_as(log_probs[i]).to(device)).sum() - \
            (0.0001 * entropies[i]).sum()
    optimizer.zero_grad()
    (loss / len(rewards)).backward()
    optimizer.step()


def total(log_probs):
    whole = 0
    for lp in log_probs:  # one op per element: near miss
        whole = whole + lp
    return whole


for episode in range(1000):
    state, rewards, log_probs, entropies = env.reset(), [], [], []
    for t in range(500):
        action = select_action(state)
        probs, _ = model(torch.from_numpy(state).float().to(device))
        dist = Categorical(probs)
        log_probs.append(dist.log_prob(torch.tensor(action, device=device)))
        entropies.append(dist.entropy())
        model.put_data((1.0, probs[action]))
        state, reward, done, _ = env.step(action)
        rewards.append(reward)
        if done:
            break
    finish_episode(rewards)
    update_parameters(rewards, log_probs, entropies)
    model.train_net(optimizer)
    print(total(log_probs))

# Near miss: batches a loading loop appends (it runs no model), walked with several ops.
batches = []
for _ in range(100):
    batches.append(torch.randn(64, 4))
for b in batches:
    print((b * 2 + 1).sum().item())

# Near miss: samples kept once per epoch and shown one by one: no loss is built from them.
samples = []
for epoch in range(100):
    samples.append(model(torch.randn(16, 4, device=device))[0])
for s in samples:
    print(s.detach().sum() * 2 + 1)
