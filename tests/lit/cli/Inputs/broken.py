def ok():
    return 1

x = (1,
