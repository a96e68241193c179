# noisy layers, imported by train.py
