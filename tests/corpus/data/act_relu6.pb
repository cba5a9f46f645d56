
5
xs_0Placeholder*
dtype0*
shape
:
<
$sequential_59_1/activation_1_1/Relu6Relu6xs_0*
T0
C
IdentityIdentity$sequential_59_1/activation_1_1/Relu6*
T0"ª