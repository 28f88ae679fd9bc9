// Compiled only to build the precompiled <torch/torch.h> that the torch layers reuse.
