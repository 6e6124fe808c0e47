// libpng; Swift reaches it only through CGalleyPNG, because libpng reports errors with longjmp.
#include <png.h>
