// Lays out a small feed with Galley's public API only, as an app outside the package would.

import GalleyLayout
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
