// Language tags from requests: resolved to what ICU and HarfBuzz read, with their results, and
// bounded however many distinct tags come.

import CHarfBuzz
import Foundation
import Testing

@testable import GalleyText

@Suite("Language tags")
struct LanguageTagTests {
    /// Text whose line breaks differ between the locales below (Japanese small kana and
    /// iteration marks under strict and loose rules, Chinese and Korean, Thai by dictionary).
    static let texts = [
        "ジャズはちょっとだけ、ゆっくりと。々ゝーァィゥ「東京」〜！？",
        "我们今天去公园散步，好吗？「香港」。",
        "한국어 문장은 띄어쓰기로 나눕니다. 안녕하세요!",
        "ภาษาไทยไม่มีการเว้นวรรคระหว่างคำ",
        "Hello, world — it's 3:45 (UTC+2); see https://example.com/a-b.",
    ]

    @Test(
        "Each tag breaks lines as ICU does with the tag itself, though ICU is given only the parts that change its rules",
        arguments: [
            "ja_JP@lb=strict", "ja@lb=loose", "ja_JP@lb=normal", "ja_JP", "ja", "ja@lw=phrase", "ko_KR@lw=phrase", "ko@lb=strict",
            "zh_TW", "zh_HK", "zh_MO", "zh_Hant", "zh_Hant_HK@lb=strict", "zh_Hans_HK", "zh_SG", "zh", "zh_CN@lb=loose",
            "fi", "de_CH", "el", "th_TH", "en_US_POSIX", "pt_BR", "und_JP", "sv@lb=strict", "ru@lb=loose", "yue", "en@lb=nonsense",
        ])
    func breaksAsICU(_ locale: String) throws {
        let language = try TextLanguage.resolve(locale)
        for text in Self.texts {
            #expect(
                ICUReference.lineBreaks(text, locale: language.breakLocale) == ICUReference.lineBreaks(text, locale: locale),
                "\(locale) as \(language.breakLocale): \(text)")
        }
    }

    @Test("BCP 47 tags and ICU IDs resolve alike; bad tags are errors naming them")
    func resolution() throws {
        #expect(try TextLanguage.resolve("ja-JP-u-lb-strict").breakLocale == "ja@lb=strict")
        #expect(try TextLanguage.resolve("zh-Hant-TW").tag == "zh-hant-tw")
        #expect(try TextLanguage.resolve("zh_TW").breakLocale == "zh_Hant")
        #expect(try TextLanguage.resolve("en-US-x-private").tag == "en-us")
        #expect(try TextLanguage.resolve("sr-Latn-RS-u-lb-loose").breakLocale == "@lb=loose")
        #expect(try TextLanguage.resolve(nil).breakLocale == "" && TextLanguage.resolve("").harfBuzz == nil)
        for bad in ["not a tag!", "en--US", "x"] {
            #expect(throws: TextError.invalidLanguage(bad)) { try TextLanguage.resolve(bad) }
        }
        // A tag longer than any ICU reads is refused before any table keeps it, named by its start.
        let long = String(repeating: "a", count: 10_000_000)
        #expect(throws: TextError.invalidLanguage(String(repeating: "a", count: 156) + "…")) { try TextLanguage.resolve(long) }
        // No language: a region alone is not taken for one ("und-CA" is not Catalan).
        #expect(try TextLanguage.resolve("und-CA").tag == "" && TextLanguage.resolve("und-CA").harfBuzz == nil)
        // ICU reads keyword values as written: "lb=STRICT" is not its strict rules.
        #expect(try TextLanguage.resolve("ja@lb=STRICT").breakLocale == "ja")
    }

    @Test("Each tag shapes as HarfBuzz shapes it with that tag, though HarfBuzz is given a language only where the face has systems for it")
    func shapesAsHarfBuzz() throws {
        let engine = try TextEngine()
        let face = try engine.fonts.face(for: .family("Noto Sans"))
        let reference = HarfBuzzReference.notoSans
        // Romanian, Moldavian, Catalan and Navajo have systems of their own in Noto Sans's Latin
        // tables (s and t with comma below, l·l, ogonek forms); the rest have the default.
        let texts = ["Şi ţara, şi ştiinţa", "col·lecció", "Ą́ą́ ę́", "İstanbul ﬁ"]
        let tags = ["ro", "ro-RO", "ro-MD", "mo", "ca", "ca-ES-valencia", "nv", "en", "tr", "de-CH", "x-private", "ro-x-hbot-454E4720", "zh-Hant"]
        for tag in tags {
            let language = try TextLanguage.resolve(tag)
            for text in texts {
                let measured = try engine.layout(
                    text, style: TextStyle(font: .family("Noto Sans"), size: 1000), width: .infinity, paragraph: ParagraphStyle(language: tag))
                let glyphs = measured.glyphRuns.flatMap(\.glyphs)
                // HarfBuzz given the tag itself; private use subtags (which HarfBuzz reads for overrides of
                // its own) are dropped by design, so that one without them is the reference there.
                let expected = reference.glyphs(of: text, script: "Latn", language: tag.contains("-x-") ? language.tag : tag).map(\.id)
                #expect(glyphs == expected, "\(tag): \(text)")
            }
        }
        // What HarfBuzz is given: nothing for a language the face has no system for.
        let shaper = engine.shaper
        let latin = hb_script_from_string("Latn", -1).rawValue
        #expect(shaper.language(for: HarfBuzzLanguage("en"), in: face, script: latin) == nil)
        #expect(shaper.language(for: HarfBuzzLanguage("tr-tr"), in: face, script: latin) == nil)
        let romanian = try #require(shaper.language(for: HarfBuzzLanguage("ro"), in: face, script: latin))
        #expect(shaper.language(for: HarfBuzzLanguage("ro-md"), in: face, script: latin) != nil)
        for region in ["ro-ro", "ro-at", "ro-latn-ro", "ro-1994"] {
            #expect(shaper.language(for: HarfBuzzLanguage(region), in: face, script: latin) == romanian, "\(region)")
        }
    }

    @Test("Twenty thousand distinct tags leave every table within its bound, and HarfBuzz sees a handful of languages")
    func boundedTables() throws {
        let engine = try TextEngine()
        let face = try engine.fonts.face(for: .family("Noto Sans"))
        let latin = hb_script_from_string("Latn", -1).rawValue
        var seen = Set<UnsafeRawPointer?>()
        let languages = ["ro", "ca", "en", "ja", "zh", "ko", "qaa", "abc", "de"]
        for index in 0..<20_000 {
            let region = String(UnicodeScalar(65 + index % 26)!) + String(UnicodeScalar(65 + index / 26 % 26)!)
            let tag = "\(languages[index % languages.count])-\(region)-x-\(index)"
            let paragraph = ParagraphStyle(language: tag)
            let measured = try engine.measure("Şi ţara \(index % 7)", style: TextStyle(font: .family("Noto Sans"), size: 15), width: 80, paragraph: paragraph)
            #expect(measured.lineCount >= 1)
            let language = try TextLanguage.resolve(tag)
            seen.insert(engine.shaper.language(for: language.harfBuzz, in: face, script: latin).map { UnsafeRawPointer($0) })
        }
        // None, Romanian's, Catalan's (and nothing else, whatever the region or private use).
        #expect(seen.count <= 4, "\(seen.count) languages given to HarfBuzz")
        #expect(TextLanguage.resolvedCount <= 512)
        let counts = engine.shaper.languageTableCounts
        #expect(counts.systems <= 2048 && counts.representatives <= 2048)
        #expect(engine.iterators.localeCount <= 16)
        #expect(engine.fonts.chainCount <= 512)
    }
}
