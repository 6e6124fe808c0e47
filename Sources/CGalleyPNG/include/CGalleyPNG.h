// PNG files decoded with libpng within bounds, into cairo's pixel formats.
//
// libpng reports errors with longjmp, which Swift cannot catch, so every libpng call is made
// here, behind setjmp; Swift sees plain C types only. Only the chunks that make the image are
// read (IHDR, PLTE, tRNS, IDAT, IEND): text, colour profiles and every other ancillary chunk are
// skipped unread, so none is inflated, and libpng's own memory is counted and capped.
#ifndef C_GALLEY_PNG_H
#define C_GALLEY_PNG_H

#include <stddef.h>
#include <stdint.h>

/// A PNG being decoded from bytes in memory, opaque to Swift.
typedef struct CGalleyPNG CGalleyPNG;

/// Reads the signature and the chunks before the image data of the `count` bytes at `bytes`
/// (which must stay valid until the image is closed), and sets the transformations to cairo's
/// formats. NULL when the file is not a PNG libpng can read, a side is more than
/// `maximumSide` pixels, or libpng would need more than `maximumLibraryBytes` of memory of its
/// own (the pixels are the caller's).
CGalleyPNG *CGalleyPNG_open(const uint8_t *bytes, size_t count, uint32_t maximumSide, size_t maximumLibraryBytes);

/// The image's width and height in pixels.
uint32_t CGalleyPNG_width(const CGalleyPNG *image);
uint32_t CGalleyPNG_height(const CGalleyPNG *image);

/// Whether the image has alpha (an alpha channel or a tRNS chunk): its pixels are cairo's
/// ARGB32, premultiplied; otherwise RGB24.
int CGalleyPNG_hasAlpha(const CGalleyPNG *image);

/// Decodes the image into `pixels`: its height in rows `stride` bytes apart, each pixel a
/// native-endian 32-bit word as cairo's ARGB32 or RGB24 holds it. 1 on success, 0 on failure
/// (the rows then hold what was decoded, or nothing). Once an image.
int CGalleyPNG_read(CGalleyPNG *image, uint8_t *pixels, size_t stride);

/// The most bytes libpng held at once for the image so far.
size_t CGalleyPNG_peakLibraryBytes(const CGalleyPNG *image);

/// Frees the image and everything libpng holds for it.
void CGalleyPNG_close(CGalleyPNG *image);

#endif
