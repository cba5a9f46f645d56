"/job:localhost"/device:CPU:0(HRtÿÿÿÿÿÿÿÿÿ(ÿÿÿÿÿÿÿÿÿ0€€@ 
(0RL 8`ˆÿÿÿÿÿÿÿÿÿ¢	constfold¢
dependencyÂ
MyOptimizer
alphaXàÔbshared_poolbx‚E
/job:worker/replica:0/task:0SINGLE_THREADED_EXECUTORZ
tinyˆ