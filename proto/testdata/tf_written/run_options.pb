ˆ'(2G"A
MatMulDebugIdentityDebugNumericSummary"file:///tmp/tfdbg_1P*X8B