
5
xs_0Placeholder*
dtype0*
shape
:
A
'sequential_72_1/activation_14_1/SoftmaxSoftmaxxs_0*
T0
F
IdentityIdentity'sequential_72_1/activation_14_1/Softmax*
T0"ª