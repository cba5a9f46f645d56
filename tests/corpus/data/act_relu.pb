
5
xs_0Placeholder*
dtype0*
shape
:
8
!sequential_58_1/activation_1/ReluReluxs_0*
T0
@
IdentityIdentity!sequential_58_1/activation_1/Relu*
T0"ª