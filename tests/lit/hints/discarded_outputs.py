# RUN: %check-hints %s
# RUN: not %harp analyze --select HARP305 %s | FileCheck %s
# A VAE run on every training step of another model only for its encoder's mean and
# variance: its decoder computes the first output, which the caller throws away (an
# unpacking into `_`, or `[1:]` in a helper the loop calls); a classifier trained
# without its auxiliary reconstruction branch (`net(x)[0]`). Near misses: every output
# used; the discarded output is a linear head (one layer beside the network), or an
# actor-critic's two-layer actor (a few weighted layers are a small share of a step); a
# call once an update, beside the rollout's acting steps (the aggressive level's); the
# discarded output needs nothing the kept ones do not (`h.mean()` beside `h`); a call
# outside any training loop.
# CHECK: discarded_outputs.py:77:18: HARP305 {{.*}} `net(...)` runs `WithReconstruction.forward`, and the caller discards its second output, which `self.reconstruct(...)` (line 71) computes for nothing else
# CHECK: discarded_outputs.py:86:24: HARP305 discarded-model-outputs: `vae(...)` runs `VAE.forward`, and the caller discards its first output (`recon`), which `self.decoder(...)` (line 43) computes for nothing else; it runs on every iteration of the `for frames, target` loop (line 92) through `to_latent`
# CHECK: discarded_outputs.py:94:24: HARP305 {{.*}} discards its first and third outputs (`recon`, `logsigma`), which `self.decoder(...)` (line 43)
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 32, 4, 2), nn.ReLU(), nn.Flatten())
        self.mu = nn.LazyLinear(16)
        self.logsigma = nn.LazyLinear(16)

    def forward(self, x):
        h = self.conv(x)
        return self.mu(h), self.logsigma(h)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = nn.Sequential(nn.Linear(16, 1024), nn.ReLU(),
                                     nn.Unflatten(1, (64, 4, 4)),
                                     nn.ConvTranspose2d(64, 32, 5, 2), nn.ReLU(),
                                     nn.ConvTranspose2d(32, 3, 6, 2))

    def forward(self, x):
        mu, logsigma = self.encoder(x)
        z = mu + logsigma.exp() * torch.randn_like(mu)
        recon = self.decoder(z)
        return recon, mu, logsigma


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 4, 2), nn.ReLU(), nn.Flatten())
        self.head = nn.LazyLinear(10)

    def forward(self, x):
        h = self.body(x)
        return self.head(h), h, h.mean(dim=1)


class WithReconstruction(nn.Module):
    """A classifier with an auxiliary reconstruction branch, trained without it."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 32, 4, 2), nn.ReLU(), nn.Flatten())
        self.head = nn.LazyLinear(10)
        self.reconstruct = nn.Sequential(nn.LazyLinear(1024), nn.Unflatten(1, (64, 4, 4)),
                                         nn.ConvTranspose2d(64, 32, 5, 2), nn.ReLU(),
                                         nn.ConvTranspose2d(32, 3, 6, 2), nn.Sigmoid())

    def forward(self, x):
        h = self.body(x)
        return self.head(h), self.reconstruct(h)


def train_classifier(loader, net):
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for frames, target in loader:
        logits = net(frames)[0]  # expected-hint HARP305
        loss = nn.functional.cross_entropy(logits, target.long())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def to_latent(frames):
    with torch.no_grad():
        mu, logsigma = vae(frames)[1:]  # expected-hint HARP305
    return mu + logsigma.exp() * torch.randn_like(mu)


def train(loader, vae, rnn, classifier):
    optimizer = torch.optim.Adam(list(rnn.parameters()) + list(classifier.parameters()))
    for frames, target in loader:
        with torch.no_grad():
            _, mu, _ = vae(frames)  # expected-hint HARP305
        latent = to_latent(frames)
        out, _ = rnn(torch.stack([mu, latent], dim=1))
        _, features, _ = classifier(frames)  # near miss: a linear head is discarded
        pooled = classifier(frames)[2]  # near miss: h.mean() needs only what h does
        loss = out.pow(2).mean() + features.pow(2).mean() + pooled.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2),
                                   nn.Softmax(dim=-1))
        self.critic = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return torch.distributions.Categorical(self.actor(x)), self.critic(x)


def train_agent(envs, model):
    optimizer = torch.optim.Adam(model.parameters())
    state = envs.reset()
    for frame in range(100000):
        dist, value = model(state)
        state, reward, done = envs.step(dist.sample())
        _, next_value = model(state)  # near miss: an actor of two layers, a small share
        loss = (reward + next_value.detach() - value).pow(2).mean() - dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_on_rollouts(env, policy):
    optimizer = torch.optim.Adam(policy.parameters())
    for update in range(1000):
        frames, state = [], env.reset()
        for step in range(128):
            state, reward, done = env.step(policy(state).argmax())
            frames.append(state)
        batch = torch.stack(frames)
        _, mu, _ = vae(batch)  # near miss: once an update, beside 128 acting steps
        loss = policy(mu).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_vae(loader, vae):
    optimizer = torch.optim.Adam(vae.parameters())
    for frames, _ in loader:
        recon, mu, logsigma = vae(frames)  # near miss: every output used
        loss = (recon - frames).pow(2).mean() - (1 + logsigma - mu.pow(2)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def encode_once(vae, frames):
    _, mu, _ = vae(frames)  # near miss: no loop runs it
    return mu


if __name__ == "__main__":
    data = torch.utils.data.TensorDataset(torch.randn(64, 3, 64, 64), torch.zeros(64))
    loader = torch.utils.data.DataLoader(data, batch_size=8, num_workers=2, pin_memory=True)
    vae = VAE()
    train_vae(loader, vae)
    train(loader, vae, nn.LSTM(16, 8, batch_first=True), Classifier())
    encode_once(vae, torch.randn(1, 3, 64, 64))
    train_classifier(loader, WithReconstruction())
    train_agent(None, ActorCritic())
    train_on_rollouts(None, nn.Linear(16, 4))
