// Three20's table item catalog as templates, following each cell's layoutSubviews.

import GalleyText

extension BuiltInTemplates {
    /// `TTTableTextItemCell`: the text inset by the cell padding, wrapping, with a disclosure
    /// indicator when the item has a `url`. Fields: `text`, `url`.
    public static let text = textCell(name: "three20.text", style: "tableFont")

    /// `TTTableLongTextItem`: a text cell in the body font. Fields: `text`, `url`.
    public static let longText = textCell(name: "three20.longText", style: "font")

    /// `TTTableLink`: a text cell in link colour. Fields: `text`, `url`.
    public static let link = textCell(name: "three20.link", style: "tableLinkFont")

    /// `TTTableButton`: centred button text. Three20 sized the row with the 17-point table
    /// font but drew 13-point text; Galley measures the text it draws. Fields: `text`.
    public static let button = textCell(name: "three20.button", style: "tableButtonFont", alignment: .center, linked: false)

    /// `TTTableSummaryItem`: centred grey text. Fields: `text`.
    public static let summary = textCell(name: "three20.summary", style: "tableSummaryFont", alignment: .center, linked: false)

    /// `TTTableCaptionItemCell`: a 75-point right-aligned caption, 12 points, then the wrapping
    /// text. Fields: `caption`, `text`, `url`.
    public static let caption = Template(
        name: "three20.caption",
        root: .hstack([
            .inset(
                Insets(all: "tableCellHPadding"),
                .hstack(
                    spacing: "keySpacing", alignment: .leading,
                    [
                        .size(
                            width: .init(fixed: "captionKeyWidth"), alignment: .top,
                            .label("caption", .field("caption"), style: "tableTitleFont", lines: 1, lineBreakMode: .truncateTail, alignment: .right)),
                        .label("text", .field("text"), style: "tableSmallFont", flex: .fillsRow),
                    ]), flex: .fillsRow),
            .disclosureWhenLinked(),
        ]))

    /// `TTTableRightCaptionItemCell`, which Three20 left unfinished ("XXXjoe TODO"): the
    /// wrapping text, then a 75-point caption on the right. Fields: `text`, `caption`, `url`.
    public static let rightCaption = Template(
        name: "three20.rightCaption",
        root: .hstack([
            .inset(
                Insets(all: "tableCellHPadding"),
                .hstack(
                    spacing: "keySpacing", alignment: .leading,
                    [
                        .label("text", .field("text"), style: "tableSmallFont", flex: .fillsRow),
                        .size(
                            width: .init(fixed: "captionKeyWidth"), alignment: .top,
                            .label("caption", .field("caption"), style: "tableTitleFont", lines: 1, lineBreakMode: .truncateTail)),
                    ]), flex: .fillsRow),
            .disclosureWhenLinked(),
        ]))

    /// `TTTableSubtextItemCell`: one line of text, then the wrapping caption under it.
    /// Fields: `text`, `caption`, `url`.
    public static let subtext = Template(
        name: "three20.subtext",
        root: .hstack([
            .inset(
                Insets(all: "tableCellHPadding"),
                .vstack([
                    .label("text", .field("text"), style: "tableFont", lines: 1, lineBreakMode: .truncateTail),
                    .label("caption", .field("caption"), style: "tableSubTextFont"),
                ]), flex: .fillsRow),
            .disclosureWhenLinked(),
        ]))

    /// `TTTableSubtitleItemCell`: an optional square image, then a line of text and a line of
    /// subtitle. Fields: `text`, `subtitle`, `imageURL`, `url`.
    public static let subtitle = Template(
        name: "three20.subtitle",
        root: .hstack([
            .inset(
                Insets(all: "tableCellHPadding"),
                .hstack(
                    spacing: "tableCellSmallMargin",
                    [
                        .when("imageURL", .image("image", source: "imageURL", size: .fixed(SizeSpec(width: "defaultImageSize", height: "defaultImageSize")))),
                        .vstack(
                            [
                                .label("text", .field("text"), style: "tableFont", lines: 1, lineBreakMode: .truncateTail),
                                .label("subtitle", .field("subtitle"), style: "tableSubTextFont", lines: 1, lineBreakMode: .truncateTail),
                            ], flex: .fillsRow),
                    ]), flex: .fillsRow),
            .disclosureWhenLinked(),
        ]))

    /// `TTTableMessageItemCell`: a 34-point icon, then title with the timestamp on its right,
    /// caption, and two lines of text, 6 points from the top and bottom. Three20 returned a
    /// fixed 90; Galley computes the height. Fields: `title`, `caption`, `text`, `timestamp`,
    /// `imageURL`, `url`.
    public static let message = Template(
        name: "three20.message",
        root: .hstack(
            alignment: .leading,
            [
                .when(
                    "imageURL",
                    .inset(
                        Insets(left: "tableCellSmallMargin", right: "tableCellSmallMargin"),
                        .image("image", source: "imageURL", size: .fixed(SizeSpec(width: "messageIconSize", height: "messageIconSize"))))),
                .when("imageURL", negated: true, .gap("tableCellMargin")),
                .vstack(
                    [
                        .hstack(
                            alignment: .leading,
                            [
                                .label("title", .field("title"), style: "messageTitleFont", lines: 1, lineBreakMode: .truncateTail, flex: .fillsRow),
                                .when(
                                    "timestamp",
                                    .hstack(
                                        alignment: .leading,
                                        [
                                            .gap("tableCellSmallMargin"),
                                            .label("timestamp", .field("timestamp"), style: "messageTimestampFont", lines: 1, flex: .init(shrink: 0)),
                                            .gap("tableCellSmallMargin"),
                                        ])),
                            ]),
                        .label("caption", .field("caption"), style: "messageCaptionFont", lines: 1, lineBreakMode: .truncateTail),
                        .label("message", .field("text"), style: "messageTextFont", lines: 2, lineBreakMode: .truncateTail),
                    ], flex: .fillsRow),
                .disclosureWhenLinked(),
            ]
        ).insetVertically("tableCellSmallMargin"))

    /// `TTTableImageItemCell`: the image (its own size from `image.width` and `image.height`,
    /// else 50 points) centred on the left, 12 points, then the text. Fields: `text`,
    /// `imageURL`, `image`, `url`.
    public static let image = Template(
        name: "three20.image",
        root: .hstack([
            .inset(
                Insets(all: "tableCellHPadding"),
                .hstack(
                    spacing: "keySpacing",
                    [
                        .when("imageURL", itemImage),
                        .label("text", .field("text"), style: "tableFont", flex: .fillsRow),
                    ]), flex: .fillsRow),
            .disclosureWhenLinked(),
        ]))

    /// `TTTableRightImageItem`: centred text with the image on the right. Fields: `text`,
    /// `imageURL`, `image`.
    public static let rightImage = Template(
        name: "three20.rightImage",
        root:
            .inset(
                Insets(all: "tableCellHPadding"),
                .hstack(
                    spacing: "keySpacing",
                    [
                        .label("text", .field("text"), style: "tableSmallFont", alignment: .center, flex: .fillsRow),
                        .when("imageURL", itemImage),
                    ])))

    /// `TTTableActivityItemCell`: a spinner and a label centred in a standard row.
    /// Fields: `text`.
    public static let activity = Template(
        name: "three20.activity",
        root: .hstack(
            spacing: "tableCellSmallMargin",
            [
                .flexibleSpace,
                .image("spinner", size: .fixed(SizeSpec(width: 20, height: 20))),
                .label("text", .field("text"), style: "activityLabelFont", lines: 1, lineBreakMode: .truncateTail, flex: .init(shrink: 1)),
                .flexibleSpace,
            ]), minimumHeight: "rowHeight")

    /// `TTTableMoreButtonCell`: a bold title and an optional subtitle 4 points under it,
    /// centred in a row one and a half standard rows tall, with a spinner on the left while
    /// `isLoading`. Fields: `text`, `subtitle`, `isLoading`.
    public static let moreButton = Template(
        name: "three20.moreButton",
        root: .hstack([
            .flexibleSpace,
            .when("isLoading", test: .isTrue, .inset(Insets(right: 15), .image("spinner", size: .fixed(SizeSpec(width: 20, height: 20))))),
            .vstack(
                spacing: "moreButtonSubtitleSpacing", alignment: .center,
                [
                    .label("text", .field("text"), style: "moreButtonFont", lines: 1, lineBreakMode: .truncateTail, alignment: .center),
                    .label("subtitle", .field("subtitle"), style: "moreButtonSubtitleFont", lines: 1, lineBreakMode: .truncateTail, alignment: .center),
                ], flex: .init(shrink: 1)),
            .flexibleSpace,
        ]), minimumHeight: "moreButtonHeight")

    /// `TTStyledTextTableItemCell`: styled runs (`[{"text", "style"}]`, styles from the
    /// stylesheet) in the body font, padded by the small margin. Fields: `runs`, `url`.
    public static let styledText = Template(
        name: "three20.styledText",
        root: .hstack([
            .inset(Insets(all: "tableCellSmallMargin"), .label("text", .styledField("runs"), style: "font"), flex: .fillsRow),
            .disclosureWhenLinked(),
        ]))

    // MARK: - Shared parts

    private static func textCell(name: String, style: StyleReference, alignment: TextAlignment = .natural, linked: Bool = true) -> Template {
        Template(
            name: name,
            root: .hstack(
                [
                    .inset(
                        Insets(all: "tableCellHPadding"),
                        .size(
                            height: .init(maximum: 2000), alignment: .top,
                            .label("text", .field("text"), style: style, alignment: alignment)),
                        flex: .fillsRow)
                ] + (linked ? [.disclosureWhenLinked()] : [])))
    }

    private static let itemImage = Node.image(
        "image", source: "imageURL",
        size: .fields(width: "image.width", height: "image.height", fallback: SizeSpec(width: "defaultImageSize", height: "defaultImageSize")))
}

extension Node {
    /// The node padded `length` above and below.
    func insetVertically(_ length: Length) -> Node {
        .inset(Insets(top: length, bottom: length), self)
    }
}

extension Node {
    /// The disclosure indicator a row with a URL shows, as Three20's linked items did.
    static func disclosureWhenLinked(_ field: FieldPath = "url") -> Node {
        .when(field, .accessory(.disclosureIndicator))
    }
}
