// ICU's C API, as Debian's libicu-dev installs it.
//
// Swift code never imports this module: ICU's functions carry a version suffix through a rename
// macro that Swift's importer cannot follow, and ICU's C types collide with the private ICU that
// Foundation carries on Linux. CFoldICU includes ICU's headers and exports wrappers whose
// signatures use <stdint.h> types only.
#include <unicode/utypes.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>
#include <unicode/uscript.h>
#include <unicode/utrans.h>
#include <unicode/ubrk.h>
#include <unicode/uversion.h>
