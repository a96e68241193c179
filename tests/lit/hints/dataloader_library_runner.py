# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Loaders handed to a library's runners (ignite's engines, poutyne's Model, Lightning's
# Trainer): the catalogue says in which role each runner iterates them. A loader only an
# evaluator runs (a validation pass once per epoch) costs little per training step; the
# one the trainer runs is loaded serially with every step. The trainer's run is what makes
# this program one that trains (it calls no backward itself).
import torch
from ignite.engine import Events, create_supervised_evaluator, create_supervised_trainer
from poutyne import Model
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def get_data_loaders(train_batch_size, val_batch_size):
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    train_loader = DataLoader(datasets.MNIST(".", train=True, transform=tf),  # expected-hint HARP501
                              batch_size=train_batch_size, shuffle=True)
    val_loader = DataLoader(datasets.MNIST(".", train=False, transform=tf),  # expected-hint@aggressive HARP501
                            batch_size=val_batch_size)
    return train_loader, val_loader


def run(epochs):
    train_loader, val_loader = get_data_loaders(64, 1000)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = torch.nn.Linear(784, 10).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    trainer = create_supervised_trainer(model, optimizer, torch.nn.functional.nll_loss,
                                        device=device)
    evaluator = create_supervised_evaluator(model, device=device)

    @trainer.on(Events.EPOCH_COMPLETED)
    def log_validation_results(engine):
        evaluator.run(val_loader)
        evaluator.run(train_loader)

    trainer.run(train_loader, max_epochs=epochs)


def with_poutyne(network):
    tf = transforms.ToTensor()
    train = DataLoader(datasets.MNIST(".", transform=tf), batch_size=32, shuffle=True)  # expected-hint HARP501
    valid = DataLoader(datasets.MNIST(".", transform=tf), batch_size=32)  # expected-hint@aggressive HARP501
    test = DataLoader(datasets.MNIST(".", train=False, transform=tf), batch_size=1)  # expected-hint@aggressive HARP501
    model = Model(network, "sgd", "cross_entropy", device=torch.device("cuda"))
    model.fit_generator(train, valid, epochs=5)
    return model.evaluate_generator(test)


run(10)
with_poutyne(torch.nn.Linear(784, 10))
