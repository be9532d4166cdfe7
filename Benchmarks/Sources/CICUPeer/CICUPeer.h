// ICU's C API as Debian's libicu-dev installs it, for the benchmark peers (ICUPeers) only.
// Swift never imports this module: ICU's C types would collide with the private ICU that
// Foundation carries on Linux, and its functions are renamed by a version-suffix macro.
#include <unicode/utypes.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/utrans.h>
