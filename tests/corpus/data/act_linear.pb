
5
xs_0Placeholder*
dtype0*
shape
:
#
IdentityIdentityxs_0*
T0"ª