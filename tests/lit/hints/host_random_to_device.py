# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# Random numbers drawn on the host (numpy, or torch without device=) and copied to the
# device every step, as GAN training loops do it.
import numpy as np
import tensorflow as tf
import torch
from torch.autograd import Variable

cuda = True if torch.cuda.is_available() else False
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
LongTensor = torch.cuda.LongTensor if cuda else torch.LongTensor
device = torch.device("cuda" if cuda else "cpu")
generator = torch.nn.Linear(100, 784).to(device)
discriminator = torch.nn.Linear(784, 1).to(device)
optimizer = torch.optim.Adam(generator.parameters())
dataloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 784)),  # expected-hint@aggressive HARP501
                                         batch_size=8)


def gradient_penalty(D, real):
    alpha = Tensor(np.random.random((real.size(0), 1)))  # expected-hint@aggressive HARP205
    return D(alpha * real).pow(2).mean()


@torch.no_grad()
def sample_images(n):
    # only called every 400 batches: the loop here is cold
    for row in range(n):
        z = Variable(Tensor(np.random.normal(0, 1, (10, 100))))  # expected-hint@aggressive HARP205
        generator(z)


for epoch in range(200):
    for i, (imgs,) in enumerate(dataloader):
        z = Variable(Tensor(np.random.normal(0, 1, (imgs.shape[0], 100))))  # expected-hint@aggressive HARP205
        labels = np.random.randint(0, 10, imgs.shape[0])
        gen_labels = Variable(LongTensor(labels))  # expected-hint@aggressive HARP205
        w = torch.randn(imgs.shape[0], 100).to(device)  # expected-hint@aggressive HARP205
        u = torch.from_numpy(np.random.rand(8, 100)).float().cuda()  # expected-hint@aggressive HARP205
        # a large draw (64 x 3 x 128 x 128 numbers, 12 MB) is a real share of a step
        big = torch.randn(64, 3, 128, 128).to(device)  # expected-hint HARP205
        loss = discriminator(generator(z + w + u)).mean() + gradient_penalty(discriminator, imgs)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        # Near misses: drawn on the device; not moved to a device; a dtype, not a device.
        d = torch.randn(imgs.shape[0], 100, device=device)
        cpu_noise = torch.from_numpy(np.random.rand(8, 100))
        halves = torch.randn(8, 100).to(torch.float16)
        # Only every 400 batches (hidden at the default level).
        if i % 400 == 0:
            fixed = torch.randn(8, 100).to(device)  # expected-hint@aggressive HARP205
            sample_images(10)
    # Once per epoch, beside the batch loop (hidden at the default level).
    epoch_noise = torch.randn(100).cuda()  # expected-hint@aggressive HARP205


# TensorFlow: a numpy batch of noise turned into a tensor every step.
gen = tf.keras.Sequential([tf.keras.layers.Dense(4)])
opt = tf.keras.optimizers.Adam()
for step in range(1000):
    noise = tf.constant(np.random.normal(size=(8, 100)).astype("float32"))  # expected-hint@aggressive HARP205
    with tf.GradientTape() as tape:  # expected-hint HARP103
        loss = tf.reduce_mean(gen(noise + tf.random.normal((8, 100))))
    opt.apply_gradients(zip(tape.gradient(loss, gen.trainable_variables),
                            gen.trainable_variables))

# Synthetic batches from a generator: a loop over `range(NUM_BATCHES)` with the module
# constant 6 runs a handful of times, not a training run's worth (not reported); with
# `STEPS_PER_EPOCH`, which `configure` rebinds through `global`, nothing is known.
NUM_BATCHES = 6
STEPS_PER_EPOCH = 6


def configure(steps):
    global STEPS_PER_EPOCH
    STEPS_PER_EPOCH = steps


def synthetic_batches():
    for _ in range(NUM_BATCHES):
        yield torch.randn(8, 3, 32, 32).cuda()


def synthetic_epoch():
    for _ in range(STEPS_PER_EPOCH):
        yield torch.randn(8, 3, 32, 32).cuda()  # expected-hint@aggressive HARP205


net = torch.nn.Conv2d(3, 8, 3).cuda()
for batch in synthetic_batches():
    net(batch).sum().backward()
for batch in synthetic_epoch():
    net(batch).sum().backward()

# Draws written as a CPU tensor type filled in place, or converted by `torch.Tensor`: one
# small copy a step (the aggressive level's, as latent noise is).
G = torch.nn.Linear(100, 10).cuda()
for step in range(10000):
    z = torch.FloatTensor(64, 100).normal_(0, 1).cuda()  # expected-hint@aggressive HARP205
    w = torch.Tensor(np.random.normal(0, 1, (64, 100))).cuda()  # expected-hint@aggressive HARP205
    G(z).mean().backward()
    G(w).mean().backward()

# TD3's target-policy noise: a host copy of the action batch, through `.data`, filled in
# place and moved; near miss: the same batch filled on the device.
for step in range(10000):
    action = np.zeros((100, 4), dtype=np.float32)
    noise = torch.FloatTensor(action).data.normal_(0, 0.2).to(device)  # expected-hint@aggressive HARP205
    kept = torch.as_tensor(action, device=device).normal_(0, 0.2)
    G(noise.repeat(1, 25) + kept.repeat(1, 25)).mean().backward()
