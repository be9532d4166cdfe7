// <string.h> for the freestanding WebAssembly build: FoldWasmLibc.h declares it all.
#include "FoldWasmLibc.h"
