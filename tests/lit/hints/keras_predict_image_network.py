# RUN: %check-hints %s
# RUN: %check-hints --level aggressive %s
# `predict`'s set-up costs a millisecond or a few: most of a step for a small network (an
# agent's MLP on one state), a few percent beside a deep image network on a full image
# (`keras.applications`' MobileNet or Inception-ResNet, alone or as the base of a model
# with a new head, also a global a helper function reads): blind readers judged those
# FALSE (the aggressive level's).
import glob

import numpy as np
from tensorflow import keras
from tensorflow.keras.applications.mobilenet import MobileNet
from tensorflow.keras.layers import Dense, Dropout
from tensorflow.keras.models import Model

base_model = MobileNet((None, None, 3), include_top=False, pooling="avg", weights=None)
head = Dropout(0.75)(base_model.output)
head = Dense(10, activation="softmax")(head)
scorer = Model(base_model.input, head)
classifier = keras.applications.InceptionResNetV2(weights=None)



def embed(batch):
    return classifier.predict(batch)  # expected-hint@aggressive HARP404


scores = []
for path in sorted(glob.glob("images/*.jpg")):
    scores.append(embed(np.zeros((10, 299, 299, 3))))
    image = keras.utils.img_to_array(keras.utils.load_img(path))[None]
    scores.append(scorer.predict(image, batch_size=1, verbose=0)[0])  # expected-hint@aggressive HARP404
    scores.append(classifier.predict(image, verbose=0)[0])  # expected-hint@aggressive HARP404

policy = keras.Sequential([keras.Input((4,)), Dense(32, activation="relu"), Dense(2)])
state = np.zeros(4)
for step in range(10000):
    q = policy.predict(state.reshape(1, -1), verbose=0)  # expected-hint HARP404
    state = state + q[0, 0] * 0.01
print(np.mean(scores), state)
