

CPU