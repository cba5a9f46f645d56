
A
xs_0Placeholder*
dtype0*
shape:
Ÿ
-sequential_26_1/average_pooling3d_1/AvgPool3D	AvgPool3Dxs_0*
T0*
data_formatNDHWC*
ksize	
*
paddingVALID*
strides	

L
IdentityIdentity-sequential_26_1/average_pooling3d_1/AvgPool3D*
T0"ª