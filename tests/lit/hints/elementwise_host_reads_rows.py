# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# A greedy CTC decoder, as speech recognisers write it: the model's best class per frame
# (`torch.max(probs, 2)`) is handed on whole, one row per utterance (`sequences[x]`, a
# row of a tensor is a tensor), and a helper reads the row's frames on the host one at a
# time (`sequence[i].item()`): a wait on the device per frame of every utterance of the
# evaluation the program runs. Near miss: a decoder that copies the best classes to the
# host first (`max_probs.cpu()`) reads host memory.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

LABELS = "_'abcdefghijklmnopqrstuvwxyz "


class GreedyDecoder:
    def __init__(self, labels, blank_index=0):
        self.int_to_char = dict(enumerate(labels))
        self.blank_index = blank_index

    def convert_to_strings(self, sequences, sizes):
        strings = []
        for x in range(len(sequences)):
            strings.append(self.process_string(sequences[x], sizes[x]))
        return strings

    def process_string(self, sequence, size):
        string = ""
        for i in range(size):  # expected-hint HARP401
            char = self.int_to_char[sequence[i].item()]
            if char != self.int_to_char[self.blank_index]:
                string = string + char
        return string

    def decode(self, probs, sizes):
        _, max_probs = torch.max(probs, 2)
        return self.convert_to_strings(max_probs.view(max_probs.size(0), max_probs.size(1)),
                                       sizes)


class HostDecoder(GreedyDecoder):
    def decode(self, probs, sizes):
        _, max_probs = torch.max(probs, 2)
        return self.read_rows(max_probs.cpu(), sizes)

    def read_rows(self, rows, sizes):
        found = []
        for x in range(len(rows)):
            row = rows[x]
            text = ""
            for i in range(sizes[x]):
                text = text + self.int_to_char[row[i].item()]
            found.append(text)
        return found


device = torch.device("cuda")
model = nn.Linear(40, len(LABELS)).to(device)
model.eval()
decoder, host_decoder = GreedyDecoder(LABELS), HostDecoder(LABELS)
loader = DataLoader(TensorDataset(torch.randn(2000, 300, 40), torch.full((2000,), 300)),
                    batch_size=16)
transcripts = []
with torch.no_grad():
    for inputs, lengths in loader:
        probs = model(inputs.to(device)).softmax(-1)
        transcripts += decoder.decode(probs, lengths.tolist())
        transcripts += host_decoder.decode(probs, lengths.tolist())
print(len(transcripts))
