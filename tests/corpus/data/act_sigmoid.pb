
5
xs_0Placeholder*
dtype0*
shape
:
@
&sequential_63_1/activation_5_1/SigmoidSigmoidxs_0*
T0
E
IdentityIdentity&sequential_63_1/activation_5_1/Sigmoid*
T0"ª