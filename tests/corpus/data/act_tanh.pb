
5
xs_0Placeholder*
dtype0*
shape
:
:
#sequential_67_1/activation_9_1/TanhTanhxs_0*
T0
B
IdentityIdentity#sequential_67_1/activation_9_1/Tanh*
T0"ª