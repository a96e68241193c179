# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Library runners call the program's step once per batch, in a loop inside the library:
# torchnet's `engine.train(processor, iterator)`, ignite's `Engine(update).run(loader)`,
# Lightning's `trainer.fit(model, loader)` (`training_step` per batch, `validation_step`
# under `no_grad`). harp models each as the loop it runs (`harp_ir.library_loops`), so the
# step's per-batch costs are found as in a hand-written loop: a large buffer filled on the
# host in a processor, a per-parameter moving average in ignite's update and in Lightning's
# `training_step`. Near misses: the same forward in `validation_step` (the runner turns
# autograd off there), and the processor's loss (the runner backpropagates it), and what
# torchnet's `engine.test` runs once per epoch.
import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from ignite.engine import Engine
from torch import nn
from torchnet.engine import Engine as TorchnetEngine

device = torch.device("cuda")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(784, 1000)

    def forward(self, x):
        return self.fc(x)


def torchnet_main(train_iterator, test_iterator):
    model = Net().to(device)
    optimizer = torch.optim.Adam(model.parameters())
    engine = TorchnetEngine()

    def processor(sample):
        data, labels = sample
        scores = torch.zeros(64, 512, 1000).to(device)  # expected-hint HARP202
        output = model(data.to(device)) + scores.mean()
        return F.cross_entropy(output, labels.to(device)), output

    def on_end_epoch(state):
        engine.test(processor, test_iterator)

    engine.hooks["on_end_epoch"] = on_end_epoch
    engine.train(processor, train_iterator, maxepoch=100, optimizer=optimizer)


def ignite_main(loader):
    model = Net().to(device)
    average = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def update(engine, batch):
        x, y = batch
        loss = F.cross_entropy(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            for p, q in zip(model.parameters(), average.parameters()):  # expected-hint HARP405
                q.mul_(0.99)
                q.add_(p * 0.01)
        return loss

    trainer = Engine(update)
    trainer.run(loader, max_epochs=100)


class Lit(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.average = Net()

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self.net(x), y)
        with torch.no_grad():
            for p, q in zip(self.net.parameters(), self.average.parameters()):  # expected-hint HARP405
                q.mul_(0.99)
                q.add_(p * 0.01)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.net(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.net.parameters())


def lightning_main(train_loader, val_loader):
    trainer = pl.Trainer(max_epochs=100, accelerator="gpu")
    trainer.fit(Lit(), train_loader, val_loader)
