// HarfBuzz alone on the benchmark sentences: the least any HarfBuzz-based engine spends
// shaping text it has not seen. `scripts/shaping-floor.py` runs it under callgrind.
//
//     shaping-floor FONT MODE REPEATS < sentences.tsv
//
// Each input line is "language<TAB>ISO 15924 script<TAB>text". MODE "whole" shapes each
// sentence in one call; "words" shapes each distinct word of a sentence alone, and one space,
// as Galley does with empty caches; "none" only reads the input (subtract it for start-up).

#include <hb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { maxSentences = 1024, maxLine = 4096, maxWords = 256 };

struct Sentence {
    char text[maxLine];
    hb_language_t language;
    hb_script_t script;
};

static struct Sentence sentences[maxSentences];

static unsigned shape(hb_font_t *font, hb_buffer_t *buffer, const struct Sentence *sentence, const char *text, int length) {
    hb_buffer_clear_contents(buffer);
    hb_buffer_add_utf8(buffer, text, length, 0, length);
    hb_buffer_set_direction(buffer, HB_DIRECTION_LTR);
    hb_buffer_set_script(buffer, sentence->script);
    hb_buffer_set_language(buffer, sentence->language);
    hb_shape(font, buffer, NULL, 0);
    return hb_buffer_get_length(buffer);
}

// Each distinct word once, and a single space: what a shape cache emptied before the sentence shapes.
static unsigned shapeWords(hb_font_t *font, hb_buffer_t *buffer, const struct Sentence *sentence) {
    const char *starts[maxWords];
    int lengths[maxWords];
    int count = 0;
    unsigned glyphs = shape(font, buffer, sentence, " ", 1);
    const char *cursor = sentence->text;
    while (*cursor) {
        while (*cursor == ' ') cursor++;
        const char *start = cursor;
        while (*cursor && *cursor != ' ') cursor++;
        int length = (int)(cursor - start);
        if (length == 0) break;
        int seen = 0;
        for (int index = 0; index < count && !seen; index++)
            seen = lengths[index] == length && memcmp(starts[index], start, (size_t)length) == 0;
        if (seen) continue;
        if (count < maxWords) { starts[count] = start; lengths[count] = length; count++; }
        glyphs += shape(font, buffer, sentence, start, length);
    }
    return glyphs;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: shaping-floor FONT whole|words|none REPEATS < sentences.tsv\n");
        return 2;
    }
    const char *mode = argv[2];
    int repeats = atoi(argv[3]);
    hb_blob_t *blob = hb_blob_create_from_file_or_fail(argv[1]);
    if (!blob) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    hb_face_t *face = hb_face_create(blob, 0);
    hb_font_t *font = hb_font_create(face);
    unsigned upem = hb_face_get_upem(face);
    hb_font_set_scale(font, (int)upem, (int)upem);  // unscaled, as Galley shapes
    hb_buffer_t *buffer = hb_buffer_create();

    int count = 0;
    char line[maxLine];
    while (count < maxSentences && fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *script = strchr(line, '\t');
        char *text = script ? strchr(script + 1, '\t') : NULL;
        if (!text) continue;
        *script++ = 0;
        *text++ = 0;
        sentences[count].language = hb_language_from_string(line, -1);
        sentences[count].script = hb_script_from_string(script, -1);
        strcpy(sentences[count].text, text);
        count++;
    }

    unsigned long glyphs = 0;
    for (int repeat = 0; repeat < repeats; repeat++) {
        for (int index = 0; index < count; index++) {
            const struct Sentence *sentence = &sentences[index];
            if (strcmp(mode, "whole") == 0) {
                glyphs += shape(font, buffer, sentence, sentence->text, (int)strlen(sentence->text));
            } else if (strcmp(mode, "words") == 0) {
                glyphs += shapeWords(font, buffer, sentence);
            }
        }
    }
    printf("%d sentences, %lu glyphs\n", count, glyphs);
    hb_buffer_destroy(buffer);
    hb_font_destroy(font);
    hb_face_destroy(face);
    hb_blob_destroy(blob);
    return 0;
}
