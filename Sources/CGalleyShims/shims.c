// Forwarders to ICU's version-suffixed C API; see CGalleyShims.h.
#include "CGalleyShims.h"

#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/uvernum.h>

CGalley_BreakIterator *CGalley_breakIteratorOpen(int kind, const char *locale, const char **error) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *iterator = ubrk_open((UBreakIteratorType)kind, locale, NULL, 0, &status);
    if (U_FAILURE(status)) {
        if (error) *error = u_errorName(status);
        if (iterator) ubrk_close(iterator);
        return NULL;
    }
    return (CGalley_BreakIterator *)iterator;
}

CGalley_BreakIterator *CGalley_breakIteratorClone(const CGalley_BreakIterator *iterator) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *copy = ubrk_clone((const UBreakIterator *)iterator, &status);
    if (U_FAILURE(status)) {
        if (copy) ubrk_close(copy);
        return NULL;
    }
    return (CGalley_BreakIterator *)copy;
}

void CGalley_breakIteratorClose(CGalley_BreakIterator *iterator) {
    ubrk_close((UBreakIterator *)iterator);
}

int CGalley_breakIteratorSetText(CGalley_BreakIterator *iterator, const uint16_t *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText((UBreakIterator *)iterator, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -1;
    ubrk_first((UBreakIterator *)iterator);
    return 0;
}

int32_t CGalley_breakIteratorNext(CGalley_BreakIterator *iterator) {
    int32_t next = ubrk_next((UBreakIterator *)iterator);
    return next == UBRK_DONE ? -1 : next;
}

int32_t CGalley_breakIteratorRuleStatus(const CGalley_BreakIterator *iterator) {
    return ubrk_getRuleStatus((UBreakIterator *)iterator);
}

CGalley_Bidi *CGalley_bidiOpen(int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status)) {
        if (bidi) ubidi_close(bidi);
        return NULL;
    }
    return (CGalley_Bidi *)bidi;
}

void CGalley_bidiClose(CGalley_Bidi *bidi) {
    ubidi_close((UBiDi *)bidi);
}

int CGalley_bidiSetParagraph(CGalley_Bidi *bidi, const uint16_t *text, int32_t length, uint8_t paragraphLevel) {
    UErrorCode status = U_ZERO_ERROR;
    ubidi_setPara((UBiDi *)bidi, (const UChar *)text, length, paragraphLevel, NULL, &status);
    return U_FAILURE(status) ? -1 : 0;
}

int CGalley_bidiCopyLevels(CGalley_Bidi *bidi, uint8_t *levels, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    const UBiDiLevel *source = ubidi_getLevels((UBiDi *)bidi, &status);
    if (U_FAILURE(status)) return -1;
    for (int32_t i = 0; i < length; i++) levels[i] = source[i];
    return 0;
}

uint8_t CGalley_bidiParagraphLevelAt(const CGalley_Bidi *bidi, int32_t index) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDiLevel level = 0;
    ubidi_getParagraph((const UBiDi *)bidi, index, NULL, NULL, &level, &status);
    return U_FAILURE(status) ? 0 : level;
}

void CGalley_bidiReorderVisual(const uint8_t *levels, int32_t count, int32_t *visualToLogical) {
    ubidi_reorderVisual(levels, count, visualToLogical);
}

int32_t CGalley_localeFromLanguageTag(const char *tag, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t parsed = 0;
    int32_t length = uloc_forLanguageTag(tag, buffer, capacity, &parsed, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    if (tag[parsed] != 0) return -1;  // ICU stopped before the end: the tag is malformed.
    return length;
}

int CGalley_simpleLineBreakClass(uint32_t scalar) {
    int lineBreak = u_getIntPropertyValue((UChar32)scalar, UCHAR_LINE_BREAK);
    int eastAsianWidth;
    switch (lineBreak) {
    case U_LB_ALPHABETIC: return CGalley_SimpleBreakAlphabetic;
    case U_LB_NUMERIC: return CGalley_SimpleBreakNumeric;
    case U_LB_QUOTATION: return CGalley_SimpleBreakQuotation;
    case U_LB_INFIX_NUMERIC: return CGalley_SimpleBreakInfix;
    case U_LB_EXCLAMATION: return CGalley_SimpleBreakExclamation;
    case U_LB_CLOSE_PUNCTUATION: return CGalley_SimpleBreakClose;
    case U_LB_SPACE: return CGalley_SimpleBreakSpace;
    case U_LB_HYPHEN: return CGalley_SimpleBreakHyphen;
    case U_LB_INSEPARABLE: return CGalley_SimpleBreakInseparable;
    case U_LB_OPEN_PUNCTUATION:
    case U_LB_CLOSE_PARENTHESIS:
        eastAsianWidth = u_getIntPropertyValue((UChar32)scalar, UCHAR_EAST_ASIAN_WIDTH);
        if (eastAsianWidth == U_EA_FULLWIDTH || eastAsianWidth == U_EA_WIDE || eastAsianWidth == U_EA_HALFWIDTH) {
            return CGalley_SimpleBreakOther;
        }
        return lineBreak == U_LB_OPEN_PUNCTUATION ? CGalley_SimpleBreakOpen : CGalley_SimpleBreakCloseParenthesis;
    default: return CGalley_SimpleBreakOther;
    }
}

int32_t CGalley_localePart(const char *locale, int part, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t length;
    switch (part) {
    case CGalley_LocaleLanguage: length = uloc_getLanguage(locale, buffer, capacity, &status); break;
    case CGalley_LocaleScript: length = uloc_getScript(locale, buffer, capacity, &status); break;
    case CGalley_LocaleCountry: length = uloc_getCountry(locale, buffer, capacity, &status); break;
    case CGalley_LocaleVariant: length = uloc_getVariant(locale, buffer, capacity, &status); break;
    default: return -1;
    }
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return length;
}

int32_t CGalley_localeKeyword(const char *locale, const char *keyword, char *buffer, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uloc_getKeywordValue(locale, keyword, buffer, capacity, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return -1;
    return length;
}

int CGalley_isMarkOrFormat(uint32_t scalar) {
    return (U_GET_GC_MASK((UChar32)scalar) & (U_GC_M_MASK | U_GC_CF_MASK)) != 0;
}

int CGalley_icuMajorVersion(void) {
    return U_ICU_VERSION_MAJOR_NUM;
}
