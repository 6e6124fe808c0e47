// Lays out a small feed with Galley's public API only, as an app outside the package would.

import GalleyLayout
import GalleyRender
import GalleyTable
import GalleyText

let engine = try TextEngine()
let registry = try BuiltInTemplates.registry()
let items = try (1...50).map { try ItemDescriptor(json: #"{"id": \#($0), "kind": "message", "title": "Ada", "text": "Message \#($0)"}"#) }
var table = try TableModel(
    sections: [TableSection(id: "inbox", items: items)], registry: registry, width: 375, environment: LayoutEnvironment(textEngine: engine, scale: 2))
let shown = table.layOut(viewport: 0..<812)
guard let first = table.arrangement(of: RowIndex(section: 0, row: 0)), first.frames["title"] != nil else { fatalError("no title frame") }
print("\(shown.count) rows shown of \(items.count); content height \(table.contentHeight)")

// The rows on screen drawn as the table shows them, from their measured glyph runs and frames.
let visible = (0..<shown.count).compactMap { table.arrangement(of: RowIndex(section: 0, row: $0)) }
let sheet = RowSheet(columns: [visible], scale: 2)
let png = try sheet.data(as: .png)
guard png.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { fatalError("not a PNG") }
print("drew \(visible.count) rows, \(sheet.size.width) × \(sheet.size.height) points: \(png.count) bytes of PNG")
