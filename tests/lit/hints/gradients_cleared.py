# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# RUN: not %harp analyze --select HARP304 %s | FileCheck %s
# A trained module's forward whose output reaches one backward, when every path after
# that backward clears the module's gradients before anything uses them: a GAN's
# discriminator step backpropagates through the generator, and the generator's own
# `zero_grad()` then throws those gradients away. Positives: a trainer class, a script
# whose `reset_grad()` helper clears both optimizers. Near misses: the generated batch
# reused for the generator's loss (it reaches two backwards), already detached, the
# generator's optimizer stepping first, its gradients read or clipped first, or the
# generator handed to code harp cannot see first, a clear on
# one path only, a latent that is itself optimised (its input carries a gradient), an
# input from code harp does not prove gradient-free, a DDPG critic fed the actor's
# action, a forward outside any loop. The message names where the discriminator takes
# the output (where `.detach()` fits as well).
# CHECK: gradients_cleared.py:35:18: HARP304 {{.*}}; `.detach()` its output here (or where `self.D(...)` takes it, line 36)
import torch
from torch import nn, optim

BCE = nn.BCEWithLogitsLoss()


class Trainer:
    def __init__(self):
        self.G = nn.Linear(4, 8)
        self.D = nn.Linear(8, 1)
        self.G_optimizer = optim.Adam(self.G.parameters())
        self.D_optimizer = optim.Adam(self.D.parameters())

    def train(self, loader):
        for x_ in loader:
            z_ = torch.rand((x_.shape[0], 4))
            self.D_optimizer.zero_grad()
            D_real = self.D(x_)
            G_ = self.G(z_)  # expected-hint HARP304
            D_fake = self.D(G_)
            D_loss = BCE(D_real, torch.ones_like(D_real)) + BCE(D_fake, torch.zeros_like(D_fake))
            D_loss.backward()
            self.D_optimizer.step()

            self.G_optimizer.zero_grad()
            G_ = self.G(z_)  # expected-hint HARP302
            G_loss = BCE(self.D(G_), torch.ones_like(D_real))
            G_loss.backward()
            self.G_optimizer.step()


Trainer().train([torch.randn(16, 8) for _ in range(100)])

G = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
D = nn.Linear(8, 1)
g_optimizer = optim.Adam(G.parameters())
d_optimizer = optim.Adam(D.parameters())


def reset_grad():
    d_optimizer.zero_grad()
    g_optimizer.zero_grad()


def train_script(loader):
    for x in loader:
        z = torch.randn(16, 4)
        fake = G(z)  # expected-hint HARP304
        d_loss = BCE(D(x), torch.ones(16, 1)) + BCE(D(fake), torch.zeros(16, 1))
        reset_grad()
        d_loss.backward()
        d_optimizer.step()
        if len(x) < 16:  # a branch that does not touch the generator's gradients
            print("a short batch")
        z = torch.randn(16, 4)
        g_loss = BCE(D(G(z)), torch.ones(16, 1))
        reset_grad()
        g_loss.backward()
        g_optimizer.step()


train_script([torch.randn(16, 8) for _ in range(100)])


def reused(loader):
    for x in loader:
        fake = G(torch.randn(16, 4))  # reaches the generator's backward too: near miss
        d_optimizer.zero_grad()
        BCE(D(fake), torch.zeros(16, 1)).backward(retain_graph=True)
        d_optimizer.step()
        g_optimizer.zero_grad()
        BCE(D(fake), torch.ones(16, 1)).backward()
        g_optimizer.step()


def detached(loader):  # already detached: a near miss here (HARP303 asks for no_grad)
    for x in loader:
        fake = G(torch.randn(16, 4)).detach()  # expected-hint@aggressive HARP303
        d_optimizer.zero_grad()
        BCE(D(fake), torch.zeros(16, 1)).backward()
        d_optimizer.step()
        g_optimizer.zero_grad()


def stepped_first(loader):
    for x in loader:
        fake = G(torch.randn(16, 4))  # the generator's step uses them: near miss
        loss = BCE(D(fake), torch.zeros(16, 1))
        loss.backward()
        g_optimizer.step()
        g_optimizer.zero_grad()


def read_first(loader):
    for x in loader:
        fake = G(torch.randn(16, 4))  # the gradients are clipped (read) first: near miss
        loss = BCE(D(fake), torch.zeros(16, 1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(G.parameters(), 1.0)
        g_optimizer.zero_grad()


def handed_away(loader, logger):
    for x in loader:
        fake = G(torch.randn(16, 4))  # code harp cannot see is handed the generator: near miss
        loss = BCE(D(fake), torch.zeros(16, 1))
        d_optimizer.zero_grad()
        loss.backward()
        d_optimizer.step()
        logger.log_gradients(G)
        g_optimizer.zero_grad()


def one_path(loader, n_critic):
    for i, x in enumerate(loader):
        fake = G(torch.randn(16, 4))  # cleared on one path only: near miss
        loss = BCE(D(fake), torch.zeros(16, 1))
        loss.backward()
        d_optimizer.step()
        if i % n_critic == 0:
            g_optimizer.zero_grad()


latent = torch.randn(16, 4, requires_grad=True)
latent_optimizer = optim.SGD([latent], lr=0.1)


def latent_search(loader):
    for x in loader:
        image = G(latent)  # its input is optimised: near miss
        loss = BCE(D(image), torch.ones(16, 1))
        latent_optimizer.zero_grad()
        loss.backward()
        latent_optimizer.step()
        g_optimizer.zero_grad()


SAMPLERS = {"uniform": torch.rand, "normal": torch.randn}


def sampled(loader, kind):
    for x in loader:
        fake = G(SAMPLERS[kind](16, 4))  # an input harp does not prove free of gradients
        d_optimizer.zero_grad()
        BCE(D(fake), torch.zeros(16, 1)).backward()
        d_optimizer.step()
        g_optimizer.zero_grad()


critic = nn.Linear(6, 1)
actor = nn.Linear(4, 2)
critic_optimizer = optim.Adam(critic.parameters())
actor_optimizer = optim.Adam(actor.parameters())


def ddpg_update(state, action):
    # the critic's weight gradients from the actor's loss are cleared, but its input
    # carries the actor's gradient: detaching would stop the actor learning (near miss)
    actor_loss = critic(torch.cat([state, actor(state)], 1))
    actor_loss = -actor_loss.mean()
    critic_loss = (critic(torch.cat([state, action], 1)) - 1).pow(2).mean()
    actor_optimizer.zero_grad()
    actor_loss.backward()
    actor_optimizer.step()
    critic_optimizer.zero_grad()
    critic_loss.backward()
    critic_optimizer.step()


for i in range(100):
    ddpg_update(torch.randn(8, 4), torch.randn(8, 2))
sampled([torch.randn(16, 8) for _ in range(100)], "normal")
for f in (reused, detached, stepped_first, read_first, latent_search):
    f([torch.randn(16, 8) for _ in range(100)])
one_path([torch.randn(16, 8) for _ in range(100)], 5)
handed_away([torch.randn(16, 8) for _ in range(100)], print)

once = G(torch.randn(16, 4))  # no loop: near miss
BCE(D(once), torch.zeros(16, 1)).backward()
g_optimizer.zero_grad()
