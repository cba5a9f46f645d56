
5
xs_0Placeholder*
dtype0*
shape
:
;
$sequential_82_1/activation_24_1/TanhTanhxs_0*
T0
_
#sequential_82_1/activation_24_1/subSubxs_0$sequential_82_1/activation_24_1/Tanh*
T0
B
IdentityIdentity#sequential_82_1/activation_24_1/sub*
T0"ª