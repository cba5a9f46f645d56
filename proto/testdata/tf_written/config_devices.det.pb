

CPU

GPU8@