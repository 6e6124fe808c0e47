// The standard stylesheet: Three20's table styles and metrics, and UIKit's cell metrics.

extension Stylesheet {
    /// Three20's default table fonts, colours and layout constants (`TTDefaultStyleSheet`,
    /// `TTTableViewCell`), and UIKit's standard cell metrics, with Noto Sans standing in for the
    /// system font (regular and bold).
    public static let standard = Stylesheet(
        name: "standard",
        textStyles: [
            // Three20 (TTDefaultStyleSheet)
            "font": TextStyleSpec(size: 14, color: "textColor"),
            "tableFont": TextStyleSpec(size: 17, weight: 700, color: "textColor"),
            "tableSmallFont": TextStyleSpec(size: 15, weight: 700, color: "textColor"),
            "tableTitleFont": TextStyleSpec(size: 13, weight: 700, color: "linkTextColor"),
            "tableTimestampFont": TextStyleSpec(size: 13, color: "timestampTextColor"),
            "tableButtonFont": TextStyleSpec(size: 13, weight: 700, color: "linkTextColor"),
            "tableSummaryFont": TextStyleSpec(size: 17, color: "tableSubTextColor"),
            "tableSubTextFont": TextStyleSpec(size: 14, color: "tableSubTextColor"),
            "tableLinkFont": TextStyleSpec(size: 17, weight: 700, color: "linkTextColor"),
            "messageFont": TextStyleSpec(size: 15, color: "textColor"),
            "activityLabelFont": TextStyleSpec(size: 17, color: "tableActivityTextColor"),
            "moreButtonFont": TextStyleSpec(size: 16, weight: 700, color: "moreLinkTextColor"),
            "moreButtonSubtitleFont": TextStyleSpec(size: 12, color: "moreLinkTextColor"),
            "messageTitleFont": TextStyleSpec(size: 15, weight: 700, color: "textColor"),
            "messageCaptionFont": TextStyleSpec(size: 14, weight: 700, color: "textColor"),
            "messageTextFont": TextStyleSpec(size: 14, color: "tableSubTextColor"),
            "messageTimestampFont": TextStyleSpec(size: 13, color: "timestampTextColor"),
            // UIKit's standard cells (iOS 7 and later)
            "cellText": TextStyleSpec(size: 17, color: "textColor"),
            "cellDetail": TextStyleSpec(size: 17, color: "secondaryTextColor"),
            "cellSubtitle": TextStyleSpec(size: 12, color: "textColor"),
            "cellValue2Key": TextStyleSpec(size: 12, weight: 700, color: "tintColor"),
            "cellValue2Value": TextStyleSpec(size: 15, color: "textColor"),
        ],
        metrics: [
            // TTTableViewCell.m
            "tableCellSmallMargin": 6, "tableCellSpacing": 8, "tableCellMargin": 10,
            "tableCellHPadding": 10, "tableCellVPadding": 10,
            // TTTableCaptionItemCell.m, TTTableImageItemCell.m
            "captionKeyWidth": 75, "keySpacing": 12, "defaultImageSize": 50,
            // TTTableMessageItemCell: a 34-point square icon
            "messageIconSize": 34,
            // TTGlobalUI: TT_ROW_HEIGHT; the more button is 1.5 rows
            "rowHeight": 44, "moreButtonHeight": 66, "moreButtonSubtitleSpacing": 4,
            // UIKit (iOS 7 and later): margins, minimum row height, image spacing, value2 key column
            "cellMargin": 15, "cellMinimumHeight": 44, "cellVerticalPadding": 11, "cellImageSpacing": 15,
            "cellDetailSpacing": 6, "value2KeyWidth": 67, "subtitleSpacing": 2,
            // Width an accessory takes from the content area, and the glyph's height
            "accessoryDisclosureIndicatorWidth": 33, "accessoryCheckmarkWidth": 39,
            "accessoryDetailButtonWidth": 48, "accessoryDetailDisclosureButtonWidth": 67,
            "accessoryHeight": 22,
        ],
        colors: [
            "textColor": "#000000", "tableSubTextColor": "#4F5969", "linkTextColor": "#576B95",
            "timestampTextColor": "#2470D8", "moreLinkTextColor": "#2470D8", "tableTitleTextColor": "#636D7D",
            "tableActivityTextColor": "#636D7D", "secondaryTextColor": "#8E8E93", "tintColor": "#007AFF",
        ])
}
