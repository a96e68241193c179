from pkg import *

if __name__ == "__main__":
    select_device(-1)
    run_steps(Agent())
    run_steps(OtherAgent())
