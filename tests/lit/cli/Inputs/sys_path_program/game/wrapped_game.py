import numpy as np
import pygame

FPSCLOCK = pygame.time.Clock()


class GameState:
    def frame_step(self, action):
        pygame.display.update()
        FPSCLOCK.tick(30)
        return np.random.rand(1, 4), 0.1, False
