
5
xs_0Placeholder*
dtype0*
shape
:
S
'sequential_91_1/leaky_re_lu_1/LeakyRelu	LeakyReluxs_0*
T0*
alpha%ÍÌL>
F
IdentityIdentity'sequential_91_1/leaky_re_lu_1/LeakyRelu*
T0"ª