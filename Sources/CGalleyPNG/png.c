// libpng behind setjmp, within bounds; see CGalleyPNG.h. The transformations and pixel
// conversions are cairo 1.16's own (cairo-png.c), so images decode to the pixels cairo's
// reader gave.
#include "CGalleyPNG.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/// What libpng holds for one image, counted, and refused past the limit.
typedef struct {
    size_t used;
    size_t peak;
    size_t limit;
} Memory;

struct CGalleyPNG {
    png_structp png;
    png_infop info;
    Memory memory;
    const uint8_t *bytes;
    size_t count;
    size_t offset;
    uint32_t width;
    uint32_t height;
    int hasAlpha;
};

/// Each block libpng allocates carries its size in front, so that freeing it is counted.
typedef union {
    size_t size;
    max_align_t alignment;
} Header;

static png_voidp allocate(png_structp png, png_alloc_size_t size) {
    Memory *memory = png_get_mem_ptr(png);
    if (size > memory->limit - memory->used) return NULL;
    Header *block = malloc(sizeof(Header) + size);
    if (block == NULL) return NULL;
    block->size = size;
    memory->used += size;
    if (memory->used > memory->peak) memory->peak = memory->used;
    return block + 1;
}

static void release(png_structp png, png_voidp pointer) {
    if (pointer == NULL) return;
    Memory *memory = png_get_mem_ptr(png);
    Header *block = (Header *)pointer - 1;
    memory->used -= block->size;
    free(block);
}

// An error returns to the setjmp of the call that met it; warnings are dropped (libpng's own
// handlers would print both on standard error).
static void onError(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static void onWarning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void readBytes(png_structp png, png_bytep data, size_t length) {
    CGalleyPNG *image = png_get_io_ptr(png);
    if (length > image->count - image->offset) png_error(png, "the file ends early");
    memcpy(data, image->bytes + image->offset, length);
    image->offset += length;
}

static inline uint8_t multiplyAlpha(unsigned alpha, unsigned color) {
    unsigned temp = alpha * color + 0x80;
    return (uint8_t)((temp + (temp >> 8)) >> 8);
}

/// RGBA bytes to premultiplied ARGB32 words.
static void premultiply(png_structp png, png_row_infop row, png_bytep data) {
    (void)png;
    for (size_t i = 0; i < row->rowbytes; i += 4) {
        uint8_t *base = &data[i];
        uint32_t alpha = base[3], pixel = 0;
        if (alpha != 0) {
            uint32_t red = base[0], green = base[1], blue = base[2];
            if (alpha != 0xff) {
                red = multiplyAlpha(alpha, red);
                green = multiplyAlpha(alpha, green);
                blue = multiplyAlpha(alpha, blue);
            }
            pixel = alpha << 24 | red << 16 | green << 8 | blue;
        }
        memcpy(base, &pixel, sizeof pixel);
    }
}

/// RGBX bytes to RGB24 words.
static void opaque(png_structp png, png_row_infop row, png_bytep data) {
    (void)png;
    for (size_t i = 0; i < row->rowbytes; i += 4) {
        uint8_t *base = &data[i];
        uint32_t pixel = 0xffu << 24 | (uint32_t)base[0] << 16 | (uint32_t)base[1] << 8 | base[2];
        memcpy(base, &pixel, sizeof pixel);
    }
}

CGalleyPNG *CGalleyPNG_open(const uint8_t *bytes, size_t count, uint32_t maximumSide, size_t maximumLibraryBytes) {
    CGalleyPNG *image = calloc(1, sizeof *image);
    if (image == NULL) return NULL;
    image->bytes = bytes;
    image->count = count;
    image->memory.limit = maximumLibraryBytes;
    image->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, NULL, onError, onWarning, &image->memory, allocate, release);
    if (image->png == NULL) {
        free(image);
        return NULL;
    }
    if (setjmp(png_jmpbuf(image->png))) {
        CGalleyPNG_close(image);
        return NULL;
    }
    png_structp png = image->png;
    image->info = png_create_info_struct(png);
    if (image->info == NULL) png_error(png, "out of memory");
    png_set_read_fn(png, image, readBytes);
    png_set_user_limits(png, maximumSide, maximumSide);
    // Every chunk but IHDR, PLTE, tRNS, IDAT and IEND skipped unread (its CRC alone checked):
    // nothing is inflated but the image, and no chunk is kept.
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_chunk_cache_max(png, 1);
    png_set_chunk_malloc_max(png, 65536);
    png_read_info(png, image->info);

    png_uint_32 width, height;
    int depth, colorType, interlace;
    png_get_IHDR(png, image->info, &width, &height, &depth, &colorType, &interlace, NULL, NULL);
    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colorType == PNG_COLOR_TYPE_GRAY) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, image->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (depth < 8) png_set_packing(png);
    if (colorType == PNG_COLOR_TYPE_GRAY || colorType == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (interlace != PNG_INTERLACE_NONE) png_set_interlace_handling(png);
    png_set_filler(png, 0xff, PNG_FILLER_AFTER);
    png_read_update_info(png, image->info);
    png_get_IHDR(png, image->info, &width, &height, &depth, &colorType, &interlace, NULL, NULL);
    if (depth != 8 || (colorType != PNG_COLOR_TYPE_RGB && colorType != PNG_COLOR_TYPE_RGB_ALPHA)) png_error(png, "unexpected format");
    image->hasAlpha = colorType == PNG_COLOR_TYPE_RGB_ALPHA;
    png_set_read_user_transform_fn(png, image->hasAlpha ? premultiply : opaque);
    image->width = width;
    image->height = height;
    return image;
}

uint32_t CGalleyPNG_width(const CGalleyPNG *image) { return image->width; }

uint32_t CGalleyPNG_height(const CGalleyPNG *image) { return image->height; }

int CGalleyPNG_hasAlpha(const CGalleyPNG *image) { return image->hasAlpha; }

int CGalleyPNG_read(CGalleyPNG *image, uint8_t *pixels, size_t stride) {
    png_bytep *rows = malloc((size_t)image->height * sizeof *rows);
    if (rows == NULL) return 0;
    for (size_t row = 0; row < image->height; row++) rows[row] = pixels + row * stride;
    if (setjmp(png_jmpbuf(image->png))) {
        free(rows);
        return 0;
    }
    // Nothing after the image data is read: png_read_end would only go over chunks skipped anyway.
    png_read_image(image->png, rows);
    free(rows);
    return 1;
}

size_t CGalleyPNG_peakLibraryBytes(const CGalleyPNG *image) { return image->memory.peak; }

void CGalleyPNG_close(CGalleyPNG *image) {
    if (image == NULL) return;
    png_destroy_read_struct(&image->png, image->info ? &image->info : NULL, NULL);
    free(image);
}
