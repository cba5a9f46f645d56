
A
xs_0Placeholder*
dtype0*
shape:
›
)sequential_25_1/max_pooling3d_1/MaxPool3D	MaxPool3Dxs_0*
T0*
data_formatNDHWC*
ksize	
*
paddingVALID*
strides	

H
IdentityIdentity)sequential_25_1/max_pooling3d_1/MaxPool3D*
T0"ª