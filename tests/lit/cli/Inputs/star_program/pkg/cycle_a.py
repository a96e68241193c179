from .cycle_b import *

A = 1
