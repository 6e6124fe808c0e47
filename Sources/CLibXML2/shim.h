// libxml2: its SAX push parser reads XML inputs, its HTML parser reduces HTML fields to text.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers would clash with the copy Foundation carries;
// nothing here touches the encoders' structures that need them.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
