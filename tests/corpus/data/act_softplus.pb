
5
xs_0Placeholder*
dtype0*
shape
:
B
'sequential_65_1/activation_7_1/SoftplusSoftplusxs_0*
T0
F
IdentityIdentity'sequential_65_1/activation_7_1/Softplus*
T0"ª