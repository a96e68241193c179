import torch
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)


class ActorCritic(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = torch.nn.Linear(4, 2)
        self.v = torch.nn.Linear(4, 1)

    def forward(self, x):
        return self.pi(x), self.v(x)


def rollout_and_update(model, optimizer, updates=3, steps=20):
    state = torch.zeros(4)
    for update in range(updates):
        states, actions, values, log_probs, rewards = [], [], [], [], []
        for t in range(steps):
            states.append(state)
            with torch.no_grad():
                logits, value = model(state)
            dist = Categorical(F.softmax(logits, dim=-1))
            action = dist.sample()
            actions.append(action)
            values.append(value.squeeze())
            log_probs.append(dist.log_prob(action))
            rewards.append(float(action) - 0.5)
            state = torch.sin(state + float(action) + t)
        values = torch.stack(values).detach()
        old_log_probs = torch.stack(log_probs).detach()
        returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
        advantages = returns - values
        states, actions = torch.stack(states), torch.stack(actions)
        for epoch in range(2):
            logits, value = model(states)
            dist = Categorical(F.softmax(logits, dim=-1))
            ratio = torch.exp(dist.log_prob(actions) - old_log_probs)
            loss = -(ratio * advantages).mean() + F.mse_loss(value.squeeze(-1), returns)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return loss.item()


model = ActorCritic()
print(round(rollout_and_update(model, torch.optim.SGD(model.parameters(), lr=0.01)), 6))
print([round(p.sum().item(), 6) for p in model.parameters()])
