
5
xs_0Placeholder*
dtype0*
shape
:
U
)sequential_73_1/activation_15_1/LeakyRelu	LeakyReluxs_0*
T0*
alpha%ÍÌL>
H
IdentityIdentity)sequential_73_1/activation_15_1/LeakyRelu*
T0"ª