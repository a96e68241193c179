from helpers import *


def generate(decoder, prime="A", length=100):
    prime_input = char_tensor(prime)
    for _ in range(length):
        output = decoder(prime_input[None])
        prime_input = torch.cat([prime_input, output[0, -1:].argmax(-1)])
    return prime_input
