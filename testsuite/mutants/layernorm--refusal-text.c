// kcc-mutant: ref=layernorm.c expect=parse
// why: the response is prose with no code at all.
I'm sorry, but I can't further optimize this layer normalization kernel without
more information about the target hardware. The current implementation already
uses a numerically stable two-pass algorithm.
