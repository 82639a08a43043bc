// libxml2's HTML parser and tree, used in memory only (no I/O, no network): the
// message renderer parses HTML bodies with htmlReadMemory and walks the nodes.
//
// Debian builds libxml2 with ICU, and then <libxml/encoding.h> includes <unicode/ucnv.h>,
// whose declarations clash with the ICU copy Foundation carries (two definitions of
// UErrorCode in one program). The renderer converts no encoding with libxml2: the ICU
// header is kept out (its include guard set) and the two types libxml2's structs name are
// declared as ICU declares them in C.
#include <stdint.h>
#define UCNV_H
typedef uint16_t UChar;
typedef struct UConverter UConverter;

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/parser.h>
