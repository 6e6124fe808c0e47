// Golden frames for every built-in template at 320, 375, 414 and 768 points and scales 1–3.
// Each expectation is derived here from the fonts' metrics and the template's constants.

import GalleyJSON
import GalleyLayout
import GalleyText
import Synchronization
import Testing

/// An expected row: its height and the frames of its named nodes, before pixel snapping.
struct ExpectedRow {
    var height: Double
    var frames: [String: (Double, Double, Double, Double)]
}

@Suite("Built-in templates: golden frames")
struct GoldenFrameTests {
    typealias F = Fixture
    static let sentence = "Three20 computed every row's height by hand, twice, and the two copies drifted apart."
    /// The templates ``check(_:_:_:_:)`` was given, when something is counting them.
    var checked: CheckedTemplates?

    func check(_ template: Template, _ item: ItemDescriptor, _ geometry: Geometry, _ expected: ExpectedRow) throws {
        checked?.add(template)
        let compiled = try CompiledTemplate(template)
        let measurement = try compiled.measure(item, width: geometry.width, environment: F.environment(scale: geometry.scale))
        let arrangement = measurement.arranged()
        #expect(abs(measurement.height - F.ceil(expected.height, geometry.scale)) < 1e-9, "height")
        for (name, frame) in expected.frames {
            let want = F.snap(frame.0, frame.1, frame.2, frame.3, geometry.scale)
            let got = try #require(arrangement.frames[name], "\(name) has no frame")
            #expect(got.isClose(to: want), "\(name): got \(got), expected \(want)")
        }
        #expect(Set(arrangement.frames.filter { $0.value != .zero }.keys) == Set(expected.frames.keys))
    }

    // MARK: - Three20 text cells: text inset by 10, a 33-point disclosure indicator for a url

    @Test("three20.text, longText, link, button, summary", arguments: Geometry.all)
    func textCells(_ g: Geometry) throws {
        let cases: [(Template, String, Bool)] = [
            (BuiltInTemplates.text, "tableFont", true), (BuiltInTemplates.longText, "font", true),
            (BuiltInTemplates.link, "tableLinkFont", true), (BuiltInTemplates.button, "tableButtonFont", false),
            (BuiltInTemplates.summary, "tableSummaryFont", false),
        ]
        for (template, style, linked) in cases {
            let accessory = linked ? F.metric("accessoryDisclosureIndicatorWidth") : 0
            let padding = F.metric("tableCellHPadding")
            let labelWidth = g.width - accessory - 2 * padding
            let textHeight = F.textHeight(Self.sentence, style, width: labelWidth, scale: g.scale)
            let rowHeight = textHeight + 2 * F.metric("tableCellVPadding")
            var frames = ["text": (padding, padding, labelWidth, textHeight)]
            if linked { frames["accessory"] = (g.width - accessory, (rowHeight - 22) / 2, accessory, 22) }
            try check(
                template, F.item("t", ["text": .string(Self.sentence), "url": .string("app://post/1")]), g, ExpectedRow(height: rowHeight, frames: frames))
        }
    }

    // MARK: - Caption cells: a 75-point caption column 12 points from the text

    @Test("three20.caption", arguments: Geometry.all)
    func caption(_ g: Geometry) throws {
        let textWidth = g.width - 2 * 10 - 75 - 12
        let captionHeight = F.ceil(F.lineHeight("tableTitleFont"), g.scale)
        let textHeight = F.textHeight(Self.sentence, "tableSmallFont", width: textWidth, scale: g.scale)
        try check(
            BuiltInTemplates.caption, F.item("c", ["caption": "Address", "text": .string(Self.sentence)]), g,
            ExpectedRow(
                height: max(captionHeight, textHeight) + 20,
                frames: ["caption": (10, 10, 75, captionHeight), "text": (10 + 75 + 12, 10, textWidth, textHeight)]))
    }

    @Test("three20.rightCaption", arguments: Geometry.all)
    func rightCaption(_ g: Geometry) throws {
        let textWidth = g.width - 2 * 10 - 75 - 12
        let captionHeight = F.ceil(F.lineHeight("tableTitleFont"), g.scale)
        let textHeight = F.textHeight(Self.sentence, "tableSmallFont", width: textWidth, scale: g.scale)
        try check(
            BuiltInTemplates.rightCaption, F.item("c", ["caption": "Address", "text": .string(Self.sentence)]), g,
            ExpectedRow(
                height: max(captionHeight, textHeight) + 20,
                frames: ["text": (10, 10, textWidth, textHeight), "caption": (10 + textWidth + 12, 10, 75, captionHeight)]))
    }

    @Test("three20.subtext: a line of text over the wrapping caption", arguments: Geometry.all)
    func subtext(_ g: Geometry) throws {
        let width = g.width - 20
        let textHeight = F.ceil(F.lineHeight("tableFont"), g.scale)
        let captionHeight = F.textHeight(Self.sentence, "tableSubTextFont", width: width, scale: g.scale)
        try check(
            BuiltInTemplates.subtext, F.item("s", ["text": "Headline", "caption": .string(Self.sentence)]), g,
            ExpectedRow(
                height: 20 + textHeight + captionHeight,
                frames: ["text": (10, 10, width, textHeight), "caption": (10, 10 + textHeight, width, captionHeight)]))
    }

    @Test("three20.subtitle: a 50-point image, 6 points, text over subtitle, centred", arguments: Geometry.all)
    func subtitle(_ g: Geometry) throws {
        let textWidth = g.width - 20 - 50 - 6
        let textHeight = F.ceil(F.lineHeight("tableFont"), g.scale)
        let subtitleHeight = F.ceil(F.lineHeight("tableSubTextFont"), g.scale)
        let inner = max(50, textHeight + subtitleHeight)
        let textTop = 10 + (inner - (textHeight + subtitleHeight)) / 2
        try check(
            BuiltInTemplates.subtitle, F.item("s", ["text": "Joe Hewitt", "subtitle": "Three20", "imageURL": "http://a/b.png"]), g,
            ExpectedRow(
                height: inner + 20,
                frames: [
                    "image": (10, 10 + (inner - 50) / 2, 50, 50), "text": (66, textTop, textWidth, textHeight),
                    "subtitle": (66, textTop + textHeight, textWidth, subtitleHeight),
                ]))
    }

    // MARK: - The message cell Three20 hard-coded at 90 points

    @Test("three20.message: icon, title and timestamp, caption, two lines of text", arguments: Geometry.all)
    func message(_ g: Geometry) throws {
        let timestamp = "12:45 PM"
        let left = 6.0 + 34 + 6
        let column = g.width - left
        let timestampWidth = F.ceil(F.naturalWidth(timestamp, "messageTimestampFont"), g.scale)
        let titleWidth = column - 6 - timestampWidth - 6
        let titleHeight = F.ceil(F.lineHeight("messageTitleFont"), g.scale)
        let timestampHeight = F.ceil(F.lineHeight("messageTimestampFont"), g.scale)
        let titleRow = max(titleHeight, timestampHeight)
        let captionHeight = F.ceil(F.lineHeight("messageCaptionFont"), g.scale)
        let messageHeight = F.textHeight(Self.sentence + " " + Self.sentence, "messageTextFont", width: column, maximum: 2, scale: g.scale)
        let item = F.item(
            "m",
            [
                "title": "Joe Hewitt", "caption": "Re: the height of a row", "text": .string(Self.sentence + " " + Self.sentence),
                "timestamp": .string(timestamp), "imageURL": "http://a/joe.png",
            ])
        try check(
            BuiltInTemplates.message, item, g,
            ExpectedRow(
                height: 6 + max(34, titleRow + captionHeight + messageHeight) + 6,
                frames: [
                    "image": (6, 6, 34, 34), "title": (left, 6, titleWidth, titleHeight),
                    "timestamp": (left + titleWidth + 6, 6, timestampWidth, timestampHeight),
                    "caption": (left, 6 + titleRow, column, captionHeight),
                    "message": (left, 6 + titleRow + captionHeight, column, messageHeight),
                ]))
    }

    // MARK: - Image cells

    @Test("three20.image: the item's image size, 12 points, the text; both centred", arguments: Geometry.all)
    func image(_ g: Geometry) throws {
        let textWidth = g.width - 20 - 60 - 12
        let textHeight = F.textHeight(Self.sentence, "tableFont", width: textWidth, scale: g.scale)
        let inner = max(40, textHeight)
        try check(
            BuiltInTemplates.image,
            F.item("i", ["text": .string(Self.sentence), "imageURL": "http://a/b.png", "image": .object(["width": 60, "height": 40])]), g,
            ExpectedRow(
                height: inner + 20,
                frames: ["image": (10, 10 + (inner - 40) / 2, 60, 40), "text": (82, 10 + (inner - textHeight) / 2, textWidth, textHeight)]))
    }

    @Test("three20.rightImage: centred text, the 50-point default image on the right", arguments: Geometry.all)
    func rightImage(_ g: Geometry) throws {
        let textWidth = g.width - 20 - 12 - 50
        let textHeight = F.textHeight(Self.sentence, "tableSmallFont", width: textWidth, scale: g.scale)
        let inner = max(50, textHeight)
        try check(
            BuiltInTemplates.rightImage, F.item("i", ["text": .string(Self.sentence), "imageURL": "http://a/b.png"]), g,
            ExpectedRow(
                height: inner + 20,
                frames: ["text": (10, 10 + (inner - textHeight) / 2, textWidth, textHeight), "image": (10 + textWidth + 12, 10 + (inner - 50) / 2, 50, 50)]))
    }

    // MARK: - Activity and more button

    @Test("three20.activity: spinner and label centred in a 44-point row", arguments: Geometry.all)
    func activity(_ g: Geometry) throws {
        let label = "Loading…"
        let labelWidth = F.ceil(F.naturalWidth(label, "activityLabelFont"), g.scale)
        let labelHeight = F.ceil(F.lineHeight("activityLabelFont"), g.scale)
        // Two flexible spaces share what the spinner, the label and three 6-point gaps leave.
        let side = (g.width - 3 * 6 - 20 - labelWidth) / 2
        let row = max(44, labelHeight)
        let top = (row - labelHeight) / 2
        try check(
            BuiltInTemplates.activity, F.item("a", ["text": .string(label)]), g,
            ExpectedRow(
                height: row,
                frames: ["spinner": (side + 6, top + (labelHeight - 20) / 2, 20, 20), "text": (side + 6 + 20 + 6, top, labelWidth, labelHeight)]))
    }

    @Test("three20.moreButton: title and subtitle centred in a 66-point row", arguments: Geometry.all)
    func moreButton(_ g: Geometry) throws {
        let (title, subtitle) = ("Load More Posts", "Showing 20 of 245")
        let titleWidth = F.ceil(F.naturalWidth(title, "moreButtonFont"), g.scale)
        let subtitleWidth = F.ceil(F.naturalWidth(subtitle, "moreButtonSubtitleFont"), g.scale)
        let titleHeight = F.ceil(F.lineHeight("moreButtonFont"), g.scale)
        let subtitleHeight = F.ceil(F.lineHeight("moreButtonSubtitleFont"), g.scale)
        let columnWidth = max(titleWidth, subtitleWidth)
        let columnHeight = titleHeight + 4 + subtitleHeight
        let left = (g.width - columnWidth) / 2
        let top = (66 - columnHeight) / 2
        try check(
            BuiltInTemplates.moreButton, F.item("m", ["text": .string(title), "subtitle": .string(subtitle)]), g,
            ExpectedRow(
                height: 66,
                frames: [
                    "text": (left + (columnWidth - titleWidth) / 2, top, titleWidth, titleHeight),
                    "subtitle": (left + (columnWidth - subtitleWidth) / 2, top + titleHeight + 4, subtitleWidth, subtitleHeight),
                ]))
    }

    // MARK: - Styled text

    @Test("three20.styledText: a bold run then body text, padded 6", arguments: Geometry.all)
    func styledText(_ g: Geometry) throws {
        let rest = " " + Self.sentence + " " + Self.sentence
        let width = g.width - 12
        // The bold 17-point run sits on the first line only; every other line is 14-point text.
        var text = AttributedText("Bold", style: F.textStyle("tableFont"))
        text.append(rest, style: F.textStyle("font"))
        let lines = try F.engine.measure(text, width: width).lineCount
        let height = F.ceil(F.lineHeight("tableFont") + Double(lines - 1) * F.lineHeight("font"), g.scale)
        let runs: JSONValue = .array([.object(["text": "Bold", "style": "tableFont"]), .object(["text": .string(rest)])])
        try check(
            BuiltInTemplates.styledText, F.item("s", ["runs": runs]), g,
            ExpectedRow(
                height: height + 12, frames: ["text": (6, 6, width, height)]))
    }

    // MARK: - UIKit's standard styles: 15-point margins, 11 above and below, rows of at least 44

    @Test("uikit.default with a disclosure indicator", arguments: Geometry.all)
    func uikitDefault(_ g: Geometry) throws {
        let textHeight = F.ceil(F.lineHeight("cellText"), g.scale)
        let row = max(44, textHeight + 22)
        try check(
            BuiltInTemplates.cellDefault, F.item("d", ["text": "General", "accessory": "disclosureIndicator"]), g,
            ExpectedRow(
                height: row,
                frames: ["text": (15, (row - textHeight) / 2, g.width - 33 - 30, textHeight), "accessory": (g.width - 33, (row - 22) / 2, 33, 22)]))
    }

    @Test("uikit.value1: detail on the right", arguments: Geometry.all)
    func uikitValue1(_ g: Geometry) throws {
        let available = g.width - 39 - 30  // a checkmark takes 39 points
        let detailWidth = F.ceil(F.naturalWidth("Home", "cellDetail"), g.scale)
        let height = F.ceil(F.lineHeight("cellText"), g.scale)
        let row = max(44, height + 22)
        try check(
            BuiltInTemplates.cellValue1, F.item("v", ["text": "Wi-Fi", "detail": "Home", "accessory": "checkmark"]), g,
            ExpectedRow(
                height: row,
                frames: [
                    "text": (15, (row - height) / 2, available - 6 - detailWidth, height),
                    "detail": (15 + available - detailWidth, (row - height) / 2, detailWidth, height),
                    "accessory": (g.width - 39, (row - 22) / 2, 39, 22),
                ]))
    }

    @Test("uikit.value2: a 67-point key column on the value's baseline", arguments: Geometry.all)
    func uikitValue2(_ g: Geometry) throws {
        let keyHeight = F.ceil(F.lineHeight("cellValue2Key"), g.scale)
        let valueHeight = F.ceil(F.lineHeight("cellValue2Value"), g.scale)
        let shift = F.ascent("cellValue2Value") - F.ascent("cellValue2Key")
        let content = max(shift + keyHeight, valueHeight)
        let row = max(44, content + 22)
        let top = (row - content) / 2
        try check(
            BuiltInTemplates.cellValue2, F.item("v", ["text": "Phone", "detail": "+1 555 0100"]), g,
            ExpectedRow(
                height: row,
                frames: ["text": (15, top + shift, 67, keyHeight), "detail": (15 + 67 + 6, top, g.width - 30 - 67 - 6, valueHeight)]))
    }

    @Test("uikit.subtitle: text over a smaller detail", arguments: Geometry.all)
    func uikitSubtitle(_ g: Geometry) throws {
        let textHeight = F.ceil(F.lineHeight("cellText"), g.scale)
        let detailHeight = F.ceil(F.lineHeight("cellSubtitle"), g.scale)
        let row = max(44, textHeight + 2 + detailHeight + 22)
        try check(
            BuiltInTemplates.cellSubtitle, F.item("s", ["text": "Title", "detail": "Subtitle"]), g,
            ExpectedRow(
                height: row,
                frames: ["text": (15, 11, g.width - 30, textHeight), "detail": (15, 11 + textHeight + 2, g.width - 30, detailHeight)]))
    }

    @Test("Every template in the built-in registry has its golden frames checked here")
    func everyTemplateIsCovered() throws {
        var suite = GoldenFrameTests()
        let checked = CheckedTemplates()
        suite.checked = checked
        let goldens: [(GoldenFrameTests) -> (Geometry) throws -> Void] = [
            GoldenFrameTests.textCells, GoldenFrameTests.caption, GoldenFrameTests.rightCaption, GoldenFrameTests.subtext,
            GoldenFrameTests.subtitle, GoldenFrameTests.message, GoldenFrameTests.image, GoldenFrameTests.rightImage,
            GoldenFrameTests.activity, GoldenFrameTests.moreButton, GoldenFrameTests.styledText, GoldenFrameTests.uikitDefault,
            GoldenFrameTests.uikitValue1, GoldenFrameTests.uikitValue2, GoldenFrameTests.uikitSubtitle,
        ]
        for golden in goldens { try golden(suite)(Geometry.all[0]) }
        let templates = checked.all
        // The registry's list, not one kept here: a template added there without golden frames fails.
        for (name, template) in BuiltInTemplates.all {
            #expect(templates.contains(template), "\(name) has no golden frames")
        }
    }
}

/// The templates the golden checks were given, for the coverage test.
final class CheckedTemplates: Sendable {
    private let templates = Mutex<[Template]>([])

    func add(_ template: Template) { templates.withLock { $0.append(template) } }

    var all: [Template] { templates.withLock { $0 } }
}
