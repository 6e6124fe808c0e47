// Thin forwarders to ICU's C API.
//
// ICU renames every entry point with its version (ubrk_open becomes ubrk_open_72) through
// function-like macros, which Swift cannot import. Each function below forwards one call,
// with plain C types so that no ICU type reaches Swift. Nothing else belongs here.
#ifndef C_GALLEY_SHIMS_H
#define C_GALLEY_SHIMS_H

#include <stdint.h>

/// An ICU break iterator (UBreakIterator), opaque to Swift.
typedef struct CGalley_BreakIterator CGalley_BreakIterator;
/// An ICU bidi object (UBiDi), opaque to Swift.
typedef struct CGalley_Bidi CGalley_Bidi;

/// Kinds of break iterator, mirroring UBreakIteratorType.
enum { CGalley_BreakCharacter = 0, CGalley_BreakLine = 2 };

/// Rule status range of a mandatory line break (UBRK_LINE_HARD .. UBRK_LINE_HARD_LIMIT).
enum { CGalley_LineHard = 100, CGalley_LineHardLimit = 200 };

/// Opens a break iterator of `kind` for `locale` (ICU keywords allowed, e.g. "ja@lb=strict").
/// Returns NULL on failure and writes ICU's error name to `error`.
CGalley_BreakIterator *CGalley_breakIteratorOpen(int kind, const char *locale, const char **error);
/// A private copy of `iterator`, far cheaper than opening one.
CGalley_BreakIterator *CGalley_breakIteratorClone(const CGalley_BreakIterator *iterator);
void CGalley_breakIteratorClose(CGalley_BreakIterator *iterator);
/// Points the iterator at UTF-16 text; the text must outlive its use. Returns 0 on success.
int CGalley_breakIteratorSetText(CGalley_BreakIterator *iterator, const uint16_t *text, int32_t length);
/// The first boundary after the current one, or -1 at the end.
int32_t CGalley_breakIteratorNext(CGalley_BreakIterator *iterator);
/// The rule status of the boundary last returned.
int32_t CGalley_breakIteratorRuleStatus(const CGalley_BreakIterator *iterator);

/// Opens a bidi object sized for `length` UTF-16 units.
CGalley_Bidi *CGalley_bidiOpen(int32_t length);
void CGalley_bidiClose(CGalley_Bidi *bidi);
/// Runs the Unicode bidi algorithm; `paragraphLevel` is 0 (LTR), 1 (RTL) or 0xFE (auto, LTR default).
/// Returns 0 on success.
int CGalley_bidiSetParagraph(CGalley_Bidi *bidi, const uint16_t *text, int32_t length, uint8_t paragraphLevel);
/// The embedding level of every UTF-16 unit, written to `levels` (length units).
int CGalley_bidiCopyLevels(CGalley_Bidi *bidi, uint8_t *levels, int32_t length);
/// The resolved level of the paragraph (text between paragraph separators) holding `index`.
uint8_t CGalley_bidiParagraphLevelAt(const CGalley_Bidi *bidi, int32_t index);
/// Visual order of runs with the given levels: `visualToLogical[i]` is the logical index shown i-th.
void CGalley_bidiReorderVisual(const uint8_t *levels, int32_t count, int32_t *visualToLogical);

/// Converts a BCP 47 tag ("ja-JP-u-lb-strict") to an ICU locale ID ("ja_JP@lb=strict").
/// Returns the ID's length, or -1 if the tag is malformed or the buffer too small.
int32_t CGalley_localeFromLanguageTag(const char *tag, char *buffer, int32_t capacity);

/// Parts of an ICU locale ID, for CGalley_localePart.
enum { CGalley_LocaleLanguage = 0, CGalley_LocaleScript, CGalley_LocaleCountry, CGalley_LocaleVariant };

/// Writes part `part` (a CGalley_Locale value) of the ICU locale ID `locale` to `buffer`,
/// NUL-terminated. Returns its length, or -1 if the ID is malformed or the buffer too small.
int32_t CGalley_localePart(const char *locale, int part, char *buffer, int32_t capacity);
/// Writes the value of `keyword` ("lb") in the ICU locale ID `locale` to `buffer`,
/// NUL-terminated. Returns its length (0 when absent), or -1 on failure.
int32_t CGalley_localeKeyword(const char *locale, const char *keyword, char *buffer, int32_t capacity);

/// Whether `scalar` is a combining mark or a format character (general category Mn, Mc, Me
/// or Cf): what a shaping engine may look back across to find a base.
int CGalley_isMarkOrFormat(uint32_t scalar);

/// Line-break classes (UAX #14) that Galley's simple line breaker handles; everything else is
/// Other. Open and CloseParenthesis exclude East Asian wide, fullwidth and halfwidth forms,
/// which rule LB30 leaves out.
enum {
    CGalley_SimpleBreakOther = 0, CGalley_SimpleBreakAlphabetic, CGalley_SimpleBreakNumeric,
    CGalley_SimpleBreakQuotation, CGalley_SimpleBreakInfix, CGalley_SimpleBreakExclamation,
    CGalley_SimpleBreakClose, CGalley_SimpleBreakOpen, CGalley_SimpleBreakCloseParenthesis,
    CGalley_SimpleBreakHyphen, CGalley_SimpleBreakInseparable, CGalley_SimpleBreakSpace
};

/// `scalar`'s line-break class as one of the CGalley_SimpleBreak values.
int CGalley_simpleLineBreakClass(uint32_t scalar);

/// The major version of the ICU this was built against (and linked with: ICU's symbols carry it).
int CGalley_icuMajorVersion(void);

#endif
