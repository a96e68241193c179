# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A model made by a factory that looks its class up in a registry (`{"fcn": FCN, "unet":
# UNet}[name]`), in a helper defined below the factory, and constructs it in every branch
# of an `if` chain, is a model: its forward in an inference loop with no backward records
# autograd's graph for nothing (HARP303). Near miss: a registry of plain classes makes no
# model, so a loop calling what it makes is not reported.
import torch
from torch import nn


def get_model(cfg, n_classes):
    name = cfg["arch"]
    model = _model_class(name)
    if name == "fcn":
        model = model(n_classes)
    elif name == "unet":
        model = model(n_classes=n_classes)
    else:
        model = model(n_classes=n_classes)
    return model


def get_scorer(name):
    scorer = _scorer_class(name)
    return scorer()


class FCN(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.head = nn.Conv2d(3, n_classes, 1)

    def forward(self, x):
        return self.head(x)


class UNet(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.head = nn.Conv2d(3, n_classes, 3, padding=1)

    def forward(self, x):
        return self.head(x)


class MeanScore:
    def __call__(self, x):
        return x.mean()


class MaxScore:
    def __call__(self, x):
        return x.max()


def _model_class(name):
    return {"fcn": FCN, "unet": UNet}[name]


def _scorer_class(name):
    return {"mean": MeanScore, "max": MaxScore}[name]


def predict(cfg, loader):
    device = torch.device("cuda")
    model = get_model(cfg, 21).to(device)
    model.eval()
    labels = []
    for images, _ in loader:  # expected-hint HARP303
        outputs = model(images.to(device))
        labels.append(outputs.argmax(1))
    scorer = get_scorer("mean")
    scores = []
    for images, _ in loader:  # near miss: a registry of plain classes
        scores.append(scorer(images))
    return labels, scores


if __name__ == "__main__":
    data = [(torch.randn(2, 3, 8, 8), torch.zeros(2)) for _ in range(4)]
    predict({"arch": "fcn"}, data)
