
5
xs_0Placeholder*
dtype0*
shape
:
9
#sequential_68_1/activation_10_1/ExpExpxs_0*
T0
B
IdentityIdentity#sequential_68_1/activation_10_1/Exp*
T0"ª