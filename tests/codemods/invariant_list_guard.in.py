import torch

torch.manual_seed(0)
table = torch.randn(50, 8)


def neighbours(ids):
    words = ids.tolist()
    found = []
    for word in words:
        unit = table / table.norm(dim=1, keepdim=True)
        scores = unit @ unit[word]
        scores[word] = -1.0
        found.append(int(scores.argmax()))
    return found


# a list, empty or not: the normalisation runs only when the loop does
print(neighbours(torch.tensor([3, 7, 11])), neighbours(torch.tensor([], dtype=torch.long)))
