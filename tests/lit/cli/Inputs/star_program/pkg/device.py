import torch


class Config:
    DEVICE = torch.device("cpu")


def select_device(gpu_id):
    if gpu_id >= 0:
        Config.DEVICE = torch.device("cuda:%d" % gpu_id)


def tensor(x):
    return torch.as_tensor(x, dtype=torch.float32).to(Config.DEVICE)
