// UIKit's four standard cell styles as templates (iOS 7 and later metrics).

extension BuiltInTemplates {
    /// `UITableViewCellStyleDefault`: an optional image, then one line of text, in a row at
    /// least 44 points tall with 15-point margins. Fields: `text`, `image` (`url`, `width`,
    /// `height`), `accessory`.
    public static let cellDefault = uikitCell(
        name: "uikit.default",
        content: [
            .label("text", .field("text"), style: "cellText", lines: 1, lineBreakMode: .truncateTail, flex: .fillsRow)
        ])

    /// `UITableViewCellStyleValue1`: text on the left, grey detail on the right.
    /// Fields: `text`, `detail`, `image`, `accessory`.
    public static let cellValue1 = uikitCell(
        name: "uikit.value1",
        content: [
            .hstack(
                spacing: "cellDetailSpacing",
                [
                    .label("text", .field("text"), style: "cellText", lines: 1, lineBreakMode: .truncateTail, flex: .fillsRow),
                    .label("detail", .field("detail"), style: "cellDetail", lines: 1, lineBreakMode: .truncateTail, alignment: .right, flex: .init(shrink: 1)),
                ], flex: .fillsRow)
        ])

    /// `UITableViewCellStyleValue2`: a blue right-aligned key in a fixed column, then the value.
    /// Fields: `text` (the key), `detail`, `accessory`.
    public static let cellValue2 = Template(
        name: "uikit.value2",
        root: .hstack([
            .inset(
                Insets(top: "cellVerticalPadding", left: "cellMargin", bottom: "cellVerticalPadding", right: "cellMargin"),
                .hstack(
                    spacing: "cellDetailSpacing", alignment: .firstBaseline,
                    [
                        .size(
                            width: .init(fixed: "value2KeyWidth"),
                            .label("text", .field("text"), style: "cellValue2Key", lines: 1, lineBreakMode: .truncateTail, alignment: .right)),
                        .label("detail", .field("detail"), style: "cellValue2Value", lines: 1, lineBreakMode: .truncateTail, flex: .fillsRow),
                    ]), flex: .fillsRow),
            accessory,
        ]), minimumHeight: "cellMinimumHeight")

    /// `UITableViewCellStyleSubtitle`: text with a smaller line of detail under it.
    /// Fields: `text`, `detail`, `image`, `accessory`.
    public static let cellSubtitle = uikitCell(
        name: "uikit.subtitle",
        content: [
            .vstack(
                spacing: "subtitleSpacing",
                [
                    .label("text", .field("text"), style: "cellText", lines: 1, lineBreakMode: .truncateTail),
                    .label("detail", .field("detail"), style: "cellSubtitle", lines: 1, lineBreakMode: .truncateTail),
                ], flex: .fillsRow)
        ])

    // MARK: - Shared parts

    private static let accessory = Node.accessory(.none, field: "accessory")

    private static func uikitCell(name: String, content: [Node]) -> Template {
        Template(
            name: name,
            root: .hstack([
                .inset(
                    Insets(top: "cellVerticalPadding", left: "cellMargin", bottom: "cellVerticalPadding", right: "cellMargin"),
                    .hstack(
                        spacing: "cellImageSpacing",
                        [
                            .when(
                                "image.url",
                                .image(
                                    "image", source: "image.url",
                                    size: .fields(width: "image.width", height: "image.height", fallback: SizeSpec(width: 29, height: 29))))
                        ] + content), flex: .fillsRow),
                accessory,
            ]), minimumHeight: "cellMinimumHeight")
    }
}
