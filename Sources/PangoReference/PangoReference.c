// Pango measuring reference for differential tests; see PangoReference.h.
#include "PangoReference.h"

#include <dlfcn.h>
#include <stdlib.h>

// The few Pango, GObject and fontconfig types and entry points used, declared here so that no
// development headers are needed. Values match pango-1.0, glib-2.0 and fontconfig 2.
typedef struct { int x, y, width, height; } Rectangle;
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
} api;

#define LOAD(library, name) \
    if (!(*(void **)&api.name = dlsym(library, #name))) { *error = "missing symbol " #name; return 0; }

static int loadPango(const char **error) {
    if (api.loaded) return 1;
    void *pango = dlopen("libpangoft2-1.0.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!pango) { *error = "cannot load libpangoft2-1.0.so.0 (install libpangoft2-1.0-0)"; return 0; }
    void *all = RTLD_DEFAULT;
    LOAD(all, FcConfigCreate) LOAD(all, FcConfigAppFontAddFile) LOAD(all, FcConfigDestroy)
    LOAD(all, FcPatternDel) LOAD(all, FcPatternAddBool) LOAD(all, FcPatternAddInteger)
    LOAD(all, pango_ft2_font_map_new) LOAD(all, pango_fc_font_map_set_config)
    LOAD(all, pango_ft2_font_map_set_resolution) LOAD(all, pango_fc_font_map_set_default_substitute)
    LOAD(all, pango_font_map_create_context) LOAD(all, pango_context_set_round_glyph_positions)
    LOAD(all, pango_context_set_language) LOAD(all, pango_language_from_string)
    LOAD(all, pango_layout_new) LOAD(all, pango_layout_set_wrap) LOAD(all, pango_layout_context_changed)
    LOAD(all, pango_layout_set_font_description) LOAD(all, pango_layout_set_width)
    LOAD(all, pango_layout_set_height) LOAD(all, pango_layout_set_ellipsize)
    LOAD(all, pango_layout_set_text) LOAD(all, pango_layout_get_extents) LOAD(all, pango_layout_get_line_count)
    LOAD(all, pango_layout_get_iter) LOAD(all, pango_layout_iter_get_line_extents)
    LOAD(all, pango_layout_iter_get_index) LOAD(all, pango_layout_iter_next_line) LOAD(all, pango_layout_iter_free)
    LOAD(all, pango_font_description_new) LOAD(all, pango_font_description_set_family)
    LOAD(all, pango_font_description_set_absolute_size) LOAD(all, pango_font_description_set_weight)
    LOAD(all, pango_font_description_set_style) LOAD(all, pango_font_description_free)
    LOAD(all, g_object_unref) LOAD(all, pango_attr_list_new) LOAD(all, pango_attr_insert_hyphens_new)
    LOAD(all, pango_attr_list_insert) LOAD(all, pango_layout_set_attributes) LOAD(all, pango_attr_list_unref)
    api.loaded = 1;
    return 1;
}

struct PangoReference {
    void *fontMap;
    void *context;
    void *layout;
};

// Turns hinting off for every font Pango opens, so advances are the font's own.
static void unhinted(void *pattern, void *data) {
    (void)data;
    api.FcPatternDel(pattern, "hinting");
    api.FcPatternAddBool(pattern, "hinting", 0);
    api.FcPatternDel(pattern, "hintstyle");
    api.FcPatternAddInteger(pattern, "hintstyle", FcHintNone);
}

PangoReference *PangoReference_create(const char *const *fontFiles, int32_t count, const char **error) {
    if (!loadPango(error)) return NULL;
    void *config = api.FcConfigCreate();
    for (int32_t i = 0; i < count; i++) {
        if (!api.FcConfigAppFontAddFile(config, fontFiles[i])) {
            api.FcConfigDestroy(config);
            *error = "fontconfig rejected a font file";
            return NULL;
        }
    }
    void *fontMap = api.pango_ft2_font_map_new();
    api.pango_fc_font_map_set_config(fontMap, config);
    api.FcConfigDestroy(config);
    api.pango_ft2_font_map_set_resolution(fontMap, 72, 72);
    api.pango_fc_font_map_set_default_substitute(fontMap, unhinted, NULL, NULL);

    PangoReference *reference = calloc(1, sizeof(PangoReference));
    reference->fontMap = fontMap;
    reference->context = api.pango_font_map_create_context(fontMap);
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
