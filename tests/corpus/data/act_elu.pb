
5
xs_0Placeholder*
dtype0*
shape
:
8
"sequential_60_1/activation_2_1/EluEluxs_0*
T0
A
IdentityIdentity"sequential_60_1/activation_2_1/Elu*
T0"ª