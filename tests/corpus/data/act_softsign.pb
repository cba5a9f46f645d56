
5
xs_0Placeholder*
dtype0*
shape
:
B
'sequential_66_1/activation_8_1/SoftsignSoftsignxs_0*
T0
F
IdentityIdentity'sequential_66_1/activation_8_1/Softsign*
T0"ª