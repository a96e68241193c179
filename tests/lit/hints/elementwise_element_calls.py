# RUN: %check-hints %s
# A loop that calls a method of the program on one element of a tensor per iteration,
# independently, runs that method's framework ops once per element: an attention that
# scores each encoder output alone (spro/practical-pytorch, graykode/nlp-tutorial), where
# one batched computation over all the outputs does the same. A model of the program
# called on one example per iteration is HARP403's.
import torch
import torch.nn.functional as F
from torch import nn


class Attn(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.attn = nn.Linear(hidden_size, hidden_size)
        self.log = []

    def forward(self, hidden, encoder_outputs):
        seq_len, batch_size = encoder_outputs.size(0), encoder_outputs.size(1)
        energies = torch.zeros(batch_size, seq_len, device=hidden.device)
        for b in range(batch_size):
            for i in range(seq_len):  # expected-hint HARP401
                energies[b, i] = self.score(hidden[:, b], encoder_outputs[i, b].unsqueeze(0))
        return F.softmax(energies, dim=1)

    def score(self, hidden, encoder_output):
        energy = self.attn(encoder_output)
        return hidden.view(-1).dot(energy.view(-1))

    def scores_logged(self, hidden, encoder_outputs):
        out = torch.zeros(encoder_outputs.size(0))
        # near miss: the method keeps what it saw (a list of the module's): not independent
        for i in range(encoder_outputs.size(0)):
            out[i] = self.score_and_log(hidden, encoder_outputs[i])
        return out

    def score_and_log(self, hidden, encoder_output):
        energy = self.attn(encoder_output)
        self.log.append(energy.detach())
        return hidden.view(-1).dot(energy.view(-1))

    def carried(self, hidden, encoder_outputs):
        # near miss: each call reads what the one before computed (a recurrence)
        for i in range(encoder_outputs.size(0)):
            hidden = self.step(hidden, encoder_outputs[i])
        return hidden

    def step(self, hidden, encoder_output):
        return torch.tanh(self.attn(encoder_output) + hidden)


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(8, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


device = "cuda" if torch.cuda.is_available() else "cpu"
attn = Attn(8).to(device)
policy = Policy().to(device)
opt = torch.optim.Adam([*attn.parameters(), *policy.parameters()])
for step in range(1000):
    hidden = torch.randn(1, 4, 8, device=device)
    outputs = torch.randn(10, 4, 8, device=device)
    weights = attn(hidden, outputs)
    loss = weights.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

with torch.no_grad():
    for step in range(1000):
        hidden = torch.randn(1, 4, 8, device=device)
        outputs = torch.randn(10, 4, 8, device=device)
        logged = attn.scores_logged(hidden[:, 0], outputs[:, 0])
        last = attn.carried(hidden[0, 0], outputs[:, 0])

for episode in range(100):
    states = torch.randn(5, 4, 8, device=device)
    with torch.no_grad():
        # a model of the program on one time step each: HARP403
        values = [policy(states[t]) for t in range(states.size(0))]  # expected-hint HARP403
