from .agents import *
from .utils import *
