# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A decoder run one target element at a time. Teacher-forced, each input is an element of
# the target and only the recurrent state is carried (stored straight from the call): a
# sequence op runs the whole loop at once. Free-running, each input is decoded from the
# output before (`decoder_in = output.max(1)[1]`): the iterations depend on each other,
# and batching them would change what the program computes. (A decoder known to be a
# module is HARP403's question, not this one's.)
import torch
import torch.nn as nn
from seq_models import Decoder  # a module the program does not hold: its kinds are unknown


def teacher_forced(line):
    target = torch.tensor(line, device="cuda")
    hidden = torch.zeros(1, 16, device="cuda")
    loss = 0
    for c in range(len(target)):  # expected-hint HARP401
        token = target[c - 1] if c else target[0]
        output, hidden = decoder(token, hidden)
        loss += criterion(output, target[c])
    opt.zero_grad()
    loss.backward()
    opt.step()


def free_running(line):  # near miss: each input is the last output's argmax
    target = torch.tensor(line, device="cuda")
    hidden = torch.zeros(1, 16, device="cuda")
    decoder_in = target[0]
    loss = 0
    for c in range(len(target)):
        output, hidden = decoder(decoder_in, hidden)
        loss += criterion(output, target[c])
        decoder_in = output.max(1)[1]
    opt.zero_grad()
    loss.backward()
    opt.step()


decoder = Decoder()
if torch.cuda.is_available():
    decoder.cuda()
criterion = nn.CrossEntropyLoss()
opt = torch.optim.Adam(decoder.parameters())

for step in range(1000):
    line = [[step % 32] for _ in range(40)]
    teacher_forced(line)
    free_running(line)
