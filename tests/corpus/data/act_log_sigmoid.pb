
5
xs_0Placeholder*
dtype0*
shape
:
D
.sequential_79_1/activation_21_1/LogSigmoid/NegNegxs_0*
T0
x
3sequential_79_1/activation_21_1/LogSigmoid/SoftplusSoftplus.sequential_79_1/activation_21_1/LogSigmoid/Neg*
T0
o
*sequential_79_1/activation_21_1/LogSigmoidNeg3sequential_79_1/activation_21_1/LogSigmoid/Softplus*
T0
I
IdentityIdentity*sequential_79_1/activation_21_1/LogSigmoid*
T0"ª