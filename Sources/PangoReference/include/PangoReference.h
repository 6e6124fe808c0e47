// Pango (pangoft2) measuring the same strings with the same font files, for differential tests.
//
// Set up the fastest honest way to use Pango for measurement: a private fontconfig
// configuration holding only the given font files, 72 dpi (so points equal pixels), hinting
// off, unrounded glyph positions, PANGO_WRAP_WORD_CHAR without inserted hyphens (as UIKit
// breaks over-long words), and one reused PangoLayout.
// Pango is loaded with dlopen, so building needs no Pango headers; running needs
// libpangoft2-1.0.so.0 (Debian's libpangoft2-1.0-0).
#ifndef PANGO_REFERENCE_H
#define PANGO_REFERENCE_H

#include <stdint.h>

typedef struct PangoReference PangoReference;

/// A Pango context that sees only `fontFiles`. Returns NULL and sets `error` if Pango cannot
/// be loaded or fontconfig rejects a file.
PangoReference *PangoReference_create(const char *const *fontFiles, int32_t count, const char **error);
void PangoReference_destroy(PangoReference *reference);

/// As PangoReference_create, with pangocairo's FreeType font map (hinting and metrics hinting
/// off, grey antialiasing), for PangoReference_drawLines; it measures as the other does. Needs
/// libpangocairo-1.0.so.0 (Debian's libpangocairo-1.0-0) and cairo loaded.
PangoReference *PangoReference_createForDrawing(const char *const *fontFiles, int32_t count, const char **error);

/// Lays out `text` as PangoReference_measure does, draws each line alone with pangocairo on a
/// transparent image `scale` pixels a point with the layout's top-left corner `margin` points
/// in, and writes five numbers a line to `boxes`, for up to `capacity` lines: the line's ink box
/// in pixels (left, top, right, bottom; right and bottom exclusive; all -1 for a line without
/// ink), then 1 if Pango moved a run of the line off its baseline (Pango 1.50 sets each run on
/// the first run's script baseline from the fonts' BASE tables), else 0. Returns the line count;
/// -1 for a reference not made for drawing, -2 for a drawing larger than cairo's images (32,767
/// pixels a side).
int32_t PangoReference_drawLines(
    PangoReference *reference, const char *text, const char *family, double size, int32_t weight, int32_t italic,
    double width, const char *language, double scale, double margin, int32_t *boxes, int32_t capacity);

/// Limits the layouts that follow to `lines` lines, the last ellipsized at its end (UIKit's
/// truncating tail); 0 lifts the limit.
void PangoReference_setLineLimit(PangoReference *reference, int32_t lines);

/// What Pango made of one paragraph.
typedef struct {
    int32_t lineCount;
    /// Height of the layout's logical rectangle, in pixels.
    double height;
    /// Width of the widest line's logical rectangle, in pixels.
    double width;
} PangoReferenceResult;

/// Lays out UTF-8 `text` in `family` at `size` pixels, wrapped at `width` pixels (unwrapped
/// when `width` < 0), in `language` (NULL for English). Writes up to `capacity` byte offsets at
/// which each line after the first starts to `lineStarts`.
PangoReferenceResult PangoReference_measure(
    PangoReference *reference, const char *text, const char *family, double size, int32_t weight,
    int32_t italic, double width, const char *language, int32_t *lineStarts, int32_t capacity);

/// One text to draw: laid out as PangoReference_measure lays it out (at most `maximumLines`
/// lines, the last ellipsized, when > 0) with its top-left corner at (`x`, `y`) points.
typedef struct {
    const char *text;
    const char *family;
    double size;
    int32_t weight;
    int32_t italic;
    double width;
    double x;
    double y;
    int32_t maximumLines;
} PangoReferenceText;

/// Lays out and draws `texts` with pangocairo on a white image `width` × `height` points,
/// `scale` pixels a point, as a renderer drawing rows would. Returns 0; -1 for a reference not
/// made for drawing, -2 for a drawing larger than cairo's images.
int32_t PangoReference_drawTexts(
    PangoReference *reference, const PangoReferenceText *texts, int32_t count, double width, double height, double scale);

#endif
