// ICU as Debian's libicu-dev installs it, for the fuzzers' oracle (FuzzICU) only. Swift never
// imports this module: ICU's C types would collide with Foundation's private ICU on Linux.
#include <unicode/utypes.h>
#include <unicode/unorm2.h>
#include <unicode/uversion.h>
