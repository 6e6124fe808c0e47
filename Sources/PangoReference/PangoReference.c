// Pango measuring reference for differential tests; see PangoReference.h.
#include "PangoReference.h"

#include <dlfcn.h>
#include <stdlib.h>

// The few Pango, GObject and fontconfig types and entry points used, declared here so that no
// development headers are needed. Values match pango-1.0, glib-2.0 and fontconfig 2.
typedef struct { int x, y, width, height; } Rectangle;
typedef struct List { void *data; struct List *next; } List;
/// PangoLayoutLine's leading fields.
typedef struct { void *layout; int startIndex, length; List *runs; } LayoutLine;
/// PangoGlyphItem as Pango 1.50 made it public, with its run's vertical offset.
typedef struct { void *item, *glyphs; int yOffset, startXOffset, endXOffset; } GlyphItem;
typedef void (*SubstituteFunction)(void *pattern, void *data);
enum {
    PangoScale = 1024, PangoWrapWordChar = 2, PangoStyleNormal = 0, PangoStyleItalic = 2, FcHintNone = 0,
    PangoEllipsizeNone = 0, PangoEllipsizeEnd = 3
};

static struct {
    int loaded;
    void *(*FcConfigCreate)(void);
    int (*FcConfigAppFontAddFile)(void *, const char *);
    void (*FcConfigDestroy)(void *);
    int (*FcPatternDel)(void *, const char *);
    int (*FcPatternAddBool)(void *, const char *, int);
    int (*FcPatternAddInteger)(void *, const char *, int);
    void *(*pango_ft2_font_map_new)(void);
    void (*pango_fc_font_map_set_config)(void *, void *);
    void (*pango_ft2_font_map_set_resolution)(void *, double, double);
    void (*pango_fc_font_map_set_default_substitute)(void *, SubstituteFunction, void *, void *);
    void *(*pango_font_map_create_context)(void *);
    void (*pango_context_set_round_glyph_positions)(void *, int);
    void (*pango_context_set_language)(void *, void *);
    void *(*pango_language_from_string)(const char *);
    void *(*pango_layout_new)(void *);
    void (*pango_layout_set_wrap)(void *, int);
    void (*pango_layout_context_changed)(void *);
    void (*pango_layout_set_font_description)(void *, void *);
    void (*pango_layout_set_width)(void *, int);
    void (*pango_layout_set_height)(void *, int);
    void (*pango_layout_set_ellipsize)(void *, int);
    void (*pango_layout_set_text)(void *, const char *, int);
    void (*pango_layout_get_extents)(void *, Rectangle *, Rectangle *);
    int (*pango_layout_get_line_count)(void *);
    void *(*pango_layout_get_iter)(void *);
    void (*pango_layout_iter_get_line_extents)(void *, Rectangle *, Rectangle *);
    int (*pango_layout_iter_get_index)(void *);
    int (*pango_layout_iter_next_line)(void *);
    void (*pango_layout_iter_free)(void *);
    void *(*pango_font_description_new)(void);
    void (*pango_font_description_set_family)(void *, const char *);
    void (*pango_font_description_set_absolute_size)(void *, double);
    void (*pango_font_description_set_weight)(void *, int);
    void (*pango_font_description_set_style)(void *, int);
    void (*pango_font_description_free)(void *);
    void (*g_object_unref)(void *);
    void *(*pango_attr_list_new)(void);
    void *(*pango_attr_insert_hyphens_new)(int);
    void (*pango_attr_list_insert)(void *, void *);
    void (*pango_layout_set_attributes)(void *, void *);
    void (*pango_attr_list_unref)(void *);
    int (*pango_version)(void);
} api;

#define LOAD(table, name) \
    if (!(*(void **)&table.name = dlsym(RTLD_DEFAULT, #name))) { *error = "missing symbol " #name; return 0; }

static int loadPango(const char **error) {
    if (api.loaded) return 1;
    void *pango = dlopen("libpangoft2-1.0.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!pango) { *error = "cannot load libpangoft2-1.0.so.0 (install libpangoft2-1.0-0)"; return 0; }
    LOAD(api, FcConfigCreate) LOAD(api, FcConfigAppFontAddFile) LOAD(api, FcConfigDestroy)
    LOAD(api, FcPatternDel) LOAD(api, FcPatternAddBool) LOAD(api, FcPatternAddInteger)
    LOAD(api, pango_ft2_font_map_new) LOAD(api, pango_fc_font_map_set_config)
    LOAD(api, pango_ft2_font_map_set_resolution) LOAD(api, pango_fc_font_map_set_default_substitute)
    LOAD(api, pango_font_map_create_context) LOAD(api, pango_context_set_round_glyph_positions)
    LOAD(api, pango_context_set_language) LOAD(api, pango_language_from_string)
    LOAD(api, pango_layout_new) LOAD(api, pango_layout_set_wrap) LOAD(api, pango_layout_context_changed)
    LOAD(api, pango_layout_set_font_description) LOAD(api, pango_layout_set_width)
    LOAD(api, pango_layout_set_height) LOAD(api, pango_layout_set_ellipsize)
    LOAD(api, pango_layout_set_text) LOAD(api, pango_layout_get_extents) LOAD(api, pango_layout_get_line_count)
    LOAD(api, pango_layout_get_iter) LOAD(api, pango_layout_iter_get_line_extents)
    LOAD(api, pango_layout_iter_get_index) LOAD(api, pango_layout_iter_next_line) LOAD(api, pango_layout_iter_free)
    LOAD(api, pango_font_description_new) LOAD(api, pango_font_description_set_family)
    LOAD(api, pango_font_description_set_absolute_size) LOAD(api, pango_font_description_set_weight)
    LOAD(api, pango_font_description_set_style) LOAD(api, pango_font_description_free)
    LOAD(api, g_object_unref) LOAD(api, pango_attr_list_new) LOAD(api, pango_attr_insert_hyphens_new)
    LOAD(api, pango_attr_list_insert) LOAD(api, pango_layout_set_attributes) LOAD(api, pango_attr_list_unref)
    LOAD(api, pango_version)
    api.loaded = 1;
    return 1;
}

// pangocairo and cairo, for drawing (PangoReference_drawLines), loaded when first needed.
enum { CairoFormatARGB32 = 0, CairoFontTypeFT = 1, CairoHintStyleNone = 1, CairoHintMetricsOff = 1, CairoAntialiasGray = 2 };
static struct {
    int loaded;
    void *(*pango_cairo_font_map_new_for_font_type)(int);
    void (*pango_cairo_font_map_set_resolution)(void *, double);
    void (*pango_cairo_context_set_font_options)(void *, const void *);
    void (*pango_cairo_show_layout_line)(void *, void *);
    void (*pango_cairo_show_layout)(void *, void *);
    void (*cairo_set_source_rgb)(void *, double, double, double);
    void (*cairo_paint)(void *);
    void *(*pango_layout_get_line_readonly)(void *, int);
    int (*pango_layout_iter_get_baseline)(void *);
    void *(*cairo_image_surface_create)(int, int, int);
    void *(*cairo_create)(void *);
    void (*cairo_scale)(void *, double, double);
    void (*cairo_move_to)(void *, double, double);
    void (*cairo_destroy)(void *);
    void (*cairo_surface_destroy)(void *);
    void (*cairo_surface_flush)(void *);
    unsigned char *(*cairo_image_surface_get_data)(void *);
    int (*cairo_image_surface_get_stride)(void *);
    void *(*cairo_font_options_create)(void);
    void (*cairo_font_options_set_hint_style)(void *, int);
    void (*cairo_font_options_set_hint_metrics)(void *, int);
    void (*cairo_font_options_set_antialias)(void *, int);
    void (*cairo_font_options_destroy)(void *);
} drawing;

static int loadPangoCairo(const char **error) {
    if (drawing.loaded) return 1;
    if (!loadPango(error)) return 0;
    void *pangoCairo = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!pangoCairo) { *error = "cannot load libpangocairo-1.0.so.0 (install libpangocairo-1.0-0)"; return 0; }
    LOAD(drawing, pango_cairo_font_map_new_for_font_type) LOAD(drawing, pango_cairo_font_map_set_resolution)
    LOAD(drawing, pango_cairo_context_set_font_options) LOAD(drawing, pango_cairo_show_layout_line)
    LOAD(drawing, pango_cairo_show_layout) LOAD(drawing, cairo_set_source_rgb) LOAD(drawing, cairo_paint)
    LOAD(drawing, pango_layout_get_line_readonly) LOAD(drawing, pango_layout_iter_get_baseline)
    LOAD(drawing, cairo_image_surface_create) LOAD(drawing, cairo_create) LOAD(drawing, cairo_scale)
    LOAD(drawing, cairo_move_to) LOAD(drawing, cairo_destroy) LOAD(drawing, cairo_surface_destroy)
    LOAD(drawing, cairo_surface_flush) LOAD(drawing, cairo_image_surface_get_data)
    LOAD(drawing, cairo_image_surface_get_stride) LOAD(drawing, cairo_font_options_create)
    LOAD(drawing, cairo_font_options_set_hint_style) LOAD(drawing, cairo_font_options_set_hint_metrics)
    LOAD(drawing, cairo_font_options_set_antialias) LOAD(drawing, cairo_font_options_destroy)
    drawing.loaded = 1;
    return 1;
}

struct PangoReference {
    void *fontMap;
    void *context;
    void *layout;
    /// Whether the font map is pangocairo's (for drawing) rather than pangoft2's.
    int drawsWithCairo;
};

// Turns hinting off for every font Pango opens, so advances are the font's own.
static void unhinted(void *pattern, void *data) {
    (void)data;
    api.FcPatternDel(pattern, "hinting");
    api.FcPatternAddBool(pattern, "hinting", 0);
    api.FcPatternDel(pattern, "hintstyle");
    api.FcPatternAddInteger(pattern, "hintstyle", FcHintNone);
}

static PangoReference *create(const char *const *fontFiles, int32_t count, int withCairo, const char **error) {
    if (!(withCairo ? loadPangoCairo(error) : loadPango(error))) return NULL;
    void *config = api.FcConfigCreate();
    for (int32_t i = 0; i < count; i++) {
        if (!api.FcConfigAppFontAddFile(config, fontFiles[i])) {
            api.FcConfigDestroy(config);
            *error = "fontconfig rejected a font file";
            return NULL;
        }
    }
    // pangocairo's FreeType font map is a fontconfig one too: the same private configuration serves.
    void *fontMap = withCairo ? drawing.pango_cairo_font_map_new_for_font_type(CairoFontTypeFT) : api.pango_ft2_font_map_new();
    api.pango_fc_font_map_set_config(fontMap, config);
    api.FcConfigDestroy(config);
    if (withCairo) {
        drawing.pango_cairo_font_map_set_resolution(fontMap, 72);
    } else {
        api.pango_ft2_font_map_set_resolution(fontMap, 72, 72);
    }
    api.pango_fc_font_map_set_default_substitute(fontMap, unhinted, NULL, NULL);

    PangoReference *reference = calloc(1, sizeof(PangoReference));
    reference->fontMap = fontMap;
    reference->drawsWithCairo = withCairo;
    reference->context = api.pango_font_map_create_context(fontMap);
    if (withCairo) {
        // Unhinted outlines at unhinted metrics, grey antialiasing: as GalleyRender draws.
        void *options = drawing.cairo_font_options_create();
        drawing.cairo_font_options_set_hint_style(options, CairoHintStyleNone);
        drawing.cairo_font_options_set_hint_metrics(options, CairoHintMetricsOff);
        drawing.cairo_font_options_set_antialias(options, CairoAntialiasGray);
        drawing.pango_cairo_context_set_font_options(reference->context, options);
        drawing.cairo_font_options_destroy(options);
    }
    api.pango_context_set_round_glyph_positions(reference->context, 0);
    reference->layout = api.pango_layout_new(reference->context);
    api.pango_layout_set_wrap(reference->layout, PangoWrapWordChar);
    // UIKit breaks an over-long word without a hyphen; Pango (1.44+) inserts one unless told not to.
    void *attributes = api.pango_attr_list_new();
    api.pango_attr_list_insert(attributes, api.pango_attr_insert_hyphens_new(0));
    api.pango_layout_set_attributes(reference->layout, attributes);
    api.pango_attr_list_unref(attributes);
    return reference;
}

PangoReference *PangoReference_create(const char *const *fontFiles, int32_t count, const char **error) {
    return create(fontFiles, count, 0, error);
}

PangoReference *PangoReference_createForDrawing(const char *const *fontFiles, int32_t count, const char **error) {
    return create(fontFiles, count, 1, error);
}

void PangoReference_setLineLimit(PangoReference *reference, int32_t lines) {
    // A negative height is a number of lines; Pango applies it only while ellipsizing.
    api.pango_layout_set_height(reference->layout, lines > 0 ? -lines : -1);
    api.pango_layout_set_ellipsize(reference->layout, lines > 0 ? PangoEllipsizeEnd : PangoEllipsizeNone);
}

void PangoReference_destroy(PangoReference *reference) {
    if (!reference) return;
    api.g_object_unref(reference->layout);
    api.g_object_unref(reference->context);
    api.g_object_unref(reference->fontMap);
    free(reference);
}

PangoReferenceResult PangoReference_measure(
    PangoReference *reference, const char *text, const char *family, double size, int32_t weight,
    int32_t italic, double width, const char *language, int32_t *lineStarts, int32_t capacity) {
    void *description = api.pango_font_description_new();
    api.pango_font_description_set_family(description, family);
    api.pango_font_description_set_absolute_size(description, size * PangoScale);
    api.pango_font_description_set_weight(description, weight);
    api.pango_font_description_set_style(description, italic ? PangoStyleItalic : PangoStyleNormal);

    api.pango_context_set_language(reference->context, api.pango_language_from_string(language ? language : "en"));
    api.pango_layout_context_changed(reference->layout);
    api.pango_layout_set_font_description(reference->layout, description);
    api.pango_font_description_free(description);
    api.pango_layout_set_width(reference->layout, width < 0 ? -1 : (int)(width * PangoScale));
    api.pango_layout_set_text(reference->layout, text, -1);

    Rectangle logical;
    api.pango_layout_get_extents(reference->layout, NULL, &logical);
    PangoReferenceResult result;
    result.lineCount = api.pango_layout_get_line_count(reference->layout);
    result.height = (double)logical.height / PangoScale;
    result.width = 0;
    void *iter = api.pango_layout_get_iter(reference->layout);
    int32_t index = 0;
    do {
        Rectangle lineLogical;
        api.pango_layout_iter_get_line_extents(iter, NULL, &lineLogical);
        double lineWidth = (double)lineLogical.width / PangoScale;
        if (lineWidth > result.width) result.width = lineWidth;
        if (index > 0 && index - 1 < capacity) lineStarts[index - 1] = api.pango_layout_iter_get_index(iter);
        index++;
    } while (api.pango_layout_iter_next_line(iter));
    api.pango_layout_iter_free(iter);
    return result;
}

int32_t PangoReference_drawLines(
    PangoReference *reference, const char *text, const char *family, double size, int32_t weight, int32_t italic,
    double width, const char *language, double scale, double margin, int32_t *boxes, int32_t capacity) {
    if (!reference->drawsWithCairo) return -1;
    int32_t lineStarts[1];
    PangoReferenceResult result =
        PangoReference_measure(reference, text, family, size, weight, italic, width, language, lineStarts, 0);
    double widthInPixels = (width < 0 ? result.width : width) * scale + 2 * margin * scale + 1;
    double heightInPixels = result.height * scale + 2 * margin * scale + 1;
    // cairo's bound on an image's side.
    if (!(widthInPixels <= 32767 && heightInPixels <= 32767)) return -2;
    int pixelWidth = (int)widthInPixels;
    int pixelHeight = (int)heightInPixels;
    void *iter = api.pango_layout_get_iter(reference->layout);
    int32_t line = 0;
    do {
        Rectangle logical;
        api.pango_layout_iter_get_line_extents(iter, NULL, &logical);
        double baseline = (double)drawing.pango_layout_iter_get_baseline(iter) / PangoScale;
        // A surface for each line, drawn alone: its ink is its own.
        void *surface = drawing.cairo_image_surface_create(CairoFormatARGB32, pixelWidth, pixelHeight);
        void *cairo = drawing.cairo_create(surface);
        drawing.cairo_scale(cairo, scale, scale);
        drawing.cairo_move_to(cairo, margin + (double)logical.x / PangoScale, margin + baseline);
        LayoutLine *layoutLine = drawing.pango_layout_get_line_readonly(reference->layout, line);
        // Pango 1.50 moves a run onto the first run's baseline as the fonts' BASE tables place it
        // (a Latin run after kanji sits a point higher); UIKit keeps every run on one baseline.
        int movesRuns = 0;
        if (layoutLine && api.pango_version() >= 15000)
            for (List *run = layoutLine->runs; run; run = run->next) movesRuns |= ((GlyphItem *)run->data)->yOffset != 0;
        drawing.pango_cairo_show_layout_line(cairo, layoutLine);
        drawing.cairo_destroy(cairo);
        drawing.cairo_surface_flush(surface);
        const unsigned char *data = drawing.cairo_image_surface_get_data(surface);
        int stride = drawing.cairo_image_surface_get_stride(surface);
        int box[4] = {-1, -1, -1, -1};
        for (int y = 0; data && y < pixelHeight; y++) {
            const uint32_t *row = (const uint32_t *)(data + (size_t)y * (size_t)stride);
            for (int x = 0; x < pixelWidth; x++) {
                if ((row[x] >> 24) == 0) continue;
                if (box[0] < 0 || x < box[0]) box[0] = x;
                if (box[1] < 0) box[1] = y;
                if (x + 1 > box[2]) box[2] = x + 1;
                box[3] = y + 1;
            }
        }
        drawing.cairo_surface_destroy(surface);
        if (line < capacity) {
            for (int i = 0; i < 4; i++) boxes[5 * line + i] = box[i];
            boxes[5 * line + 4] = movesRuns;
        }
        line++;
    } while (api.pango_layout_iter_next_line(iter));
    api.pango_layout_iter_free(iter);
    return line;
}

int32_t PangoReference_drawTexts(
    PangoReference *reference, const PangoReferenceText *texts, int32_t count, double width, double height, double scale) {
    if (!reference->drawsWithCairo) return -1;
    double widthInPixels = width * scale + 1, heightInPixels = height * scale + 1;
    if (!(widthInPixels <= 32767 && heightInPixels <= 32767)) return -2;
    void *surface = drawing.cairo_image_surface_create(CairoFormatARGB32, (int)widthInPixels, (int)heightInPixels);
    void *cairo = drawing.cairo_create(surface);
    drawing.cairo_scale(cairo, scale, scale);
    drawing.cairo_set_source_rgb(cairo, 1, 1, 1);
    drawing.cairo_paint(cairo);
    drawing.cairo_set_source_rgb(cairo, 0, 0, 0);
    for (int32_t i = 0; i < count; i++) {
        const PangoReferenceText *text = &texts[i];
        void *description = api.pango_font_description_new();
        api.pango_font_description_set_family(description, text->family);
        api.pango_font_description_set_absolute_size(description, text->size * PangoScale);
        api.pango_font_description_set_weight(description, text->weight);
        api.pango_font_description_set_style(description, text->italic ? PangoStyleItalic : PangoStyleNormal);
        api.pango_layout_set_font_description(reference->layout, description);
        api.pango_font_description_free(description);
        PangoReference_setLineLimit(reference, text->maximumLines);
        api.pango_layout_set_width(reference->layout, text->width < 0 ? -1 : (int)(text->width * PangoScale));
        api.pango_layout_set_text(reference->layout, text->text, -1);
        drawing.cairo_move_to(cairo, text->x, text->y);
        drawing.pango_cairo_show_layout(cairo, reference->layout);
    }
    drawing.cairo_destroy(cairo);
    drawing.cairo_surface_flush(surface);
    drawing.cairo_surface_destroy(surface);
    return 0;
}
