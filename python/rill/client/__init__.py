"""Sessions over TF_Session."""
