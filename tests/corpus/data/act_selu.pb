
5
xs_0Placeholder*
dtype0*
shape
:
:
#sequential_61_1/activation_3_1/SeluSeluxs_0*
T0
B
IdentityIdentity#sequential_61_1/activation_3_1/Selu*
T0"ª