// CFoldPostgresBridge is its header (include/FoldPostgresBridge.h); SwiftPM needs a source file.
#include "FoldPostgresBridge.h"
