
=
xs_0Placeholder*
dtype0*
shape:
˜
+sequential_24_1/average_pooling2d_1/AvgPoolAvgPoolxs_0*
T0*
data_formatNHWC*
ksize
*
paddingVALID*
strides

J
IdentityIdentity+sequential_24_1/average_pooling2d_1/AvgPool*
T0"ª