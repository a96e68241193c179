# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# An optimizer or a model built on every training step; near misses: a loss module, a
# periodic restart, a sweep that trains each new model with an inner loop.
import tensorflow as tf
import torch
from torch import nn, optim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(x)


device = torch.device("cuda")
model = Net().to(device)
step_count = 0
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 4)))  # expected-hint@aggressive HARP501
for epoch in range(100):
    for (x,) in loader:
        opt = optim.Adam(model.parameters(), lr=1e-3)  # expected-hint HARP503
        head = nn.Linear(1, 1)  # expected-hint HARP503
        fresh = Net()  # expected-hint HARP503
        crit = nn.MSELoss()  # near miss: no parameters, nothing to forget
        loss = crit(head(fresh(x) + model(x)), x[:, :1])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step_count % 500 == 0:  # near miss: a periodic restart is on purpose
            restart = optim.SGD(model.parameters(), lr=0.1)
        step_count += 1
# near miss: a sweep that trains each new model with an inner loop
for lr in [0.1, 0.01, 0.001, 0.0001, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4]:
    m = Net()
    o = optim.SGD(m.parameters(), lr=lr)
    for (x,) in loader:
        o.zero_grad()
        m(x).sum().backward()
        o.step()
kmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])
for step in range(1000):
    kopt = tf.keras.optimizers.Adam()  # expected-hint HARP503
    with tf.GradientTape() as tape:  # expected-hint HARP103
        l = tf.reduce_mean(kmodel(tf.ones((2, 3))))
    kopt.apply_gradients(zip(tape.gradient(l, kmodel.trainable_variables), kmodel.trainable_variables))


# A Keras functional model built layer by layer in a loop, by a function called once: the
# loop builds, it runs no step (the aggressive level's).
def discriminator(n_down=4):
    inputs = tf.keras.Input(shape=(64, 64, 3))
    h = inputs
    for i in range(n_down):
        h = tf.keras.layers.Conv2D(8 * 2 ** i, 4, strides=2)(h)  # expected-hint@aggressive HARP503
        h = tf.nn.leaky_relu(h)
    return tf.keras.Model(inputs, h)


disc = discriminator()


# near misses: an optimizer over what the iteration itself makes (an adversarial example per
# batch, an image optimised step by step and re-quantised) must be built each iteration
def adversarial(model, loader):
    for x, y in loader:
        z = x.clone().requires_grad_()
        attack = optim.Adam([z], lr=0.01)
        attack.zero_grad()
        torch.nn.functional.mse_loss(model(z), y).backward()
        attack.step()


class Visualiser:
    def __init__(self, model):
        self.model = model

    def generate(self, image):
        for i in range(150):
            self.processed = torch.tensor(image, requires_grad=True)
            step = optim.SGD([self.processed], lr=6)
            loss = -self.model(self.processed)[0, 3]
            self.model.zero_grad()
            loss.backward()
            step.step()
            image = self.processed.detach().round()

    def fit(self, loader):
        for (x,) in loader:
            self.opt = optim.Adam(self.model.parameters())  # expected-hint HARP503
            self.opt.zero_grad()
            self.model(x).sum().backward()
            self.opt.step()


adversarial(model, loader)
Visualiser(model).generate(torch.ones(1, 4))
Visualiser(model).fit(loader)
