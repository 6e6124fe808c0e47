// ICU's C API; Swift reaches it only through CGalleyShims, because every entry point
// is a macro that renames it with the library's version suffix (ubrk_open -> ubrk_open_72).
#include <unicode/utypes.h>
