
5
xs_0Placeholder*
dtype0*
shape
:
C
(sequential_70_1/activation_12_1/SoftplusSoftplusxs_0*
T0
_
$sequential_70_1/activation_12_1/TanhTanh(sequential_70_1/activation_12_1/Softplus*
T0
_
#sequential_70_1/activation_12_1/mulMulxs_0$sequential_70_1/activation_12_1/Tanh*
T0
B
IdentityIdentity#sequential_70_1/activation_12_1/mul*
T0"ª