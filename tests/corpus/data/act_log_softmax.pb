
5
xs_0Placeholder*
dtype0*
shape
:
G
*sequential_71_1/activation_13_1/LogSoftmax
LogSoftmaxxs_0*
T0
I
IdentityIdentity*sequential_71_1/activation_13_1/LogSoftmax*
T0"ª