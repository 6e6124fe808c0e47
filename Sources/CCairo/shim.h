// cairo's image, SVG and PDF surfaces and its FreeType font faces.
#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
