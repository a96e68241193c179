import torch
import torch.nn as nn

from .device import *

__all__ = ["torch", "nn", "run_steps", "tensor", "Config", "select_device"]


def run_steps(agent):
    while agent.total_steps < 100000:
        agent.step()


def not_exported():
    return 0
