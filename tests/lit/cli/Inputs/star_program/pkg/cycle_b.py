from .cycle_a import *

B = 2
