// A property list's records, and their children flattened after them.

import GalleyJSON

/// The records of a property list read whole, handed out a chunk at a time. A record's members
/// that are arrays of dictionaries are its children (the rows of a drill-down): they follow it as
/// records of their own, depth first, each with `depth` (0 at the top), `path` (its place at each
/// level, from 1: "2.1") and `childCount` (see ``PropertyListPlace``). Opened by
/// ``PropertyLists/reader(_:recordKey:maximumSize:maximumRecordLength:)``.
final class PropertyListReader: RecordSource {
    /// The next records, from a walk or a failure.
    private var take: (Int) -> [InputRecord]

    /// A reader of `walk`'s records. (The walk is a value of a concrete type here, so that its
    /// steps are compiled for that type: a generic reader class would look its tree's methods up
    /// at run time at every record.)
    init<Tree: PropertyListTree>(_ walk: PropertyListWalk<Tree>) {
        var walk = walk
        take = { walk.next($0) }
    }

    /// A reader whose one record is `failure`.
    init(failure: InputRecord) {
        var failure: InputRecord? = failure
        take = { _ in
            defer { failure = nil }
            return failure.map { [$0] } ?? []
        }
    }

    func next(_ count: Int) throws -> [InputRecord] { take(count) }
}

/// The walk through a property list's records, depth first.
///
/// A binary list can name one long string or datum from every record: what the records expand
/// to is bounded as they are handed out. A record expanding to more bytes of strings and data
/// than `maximumRecordSize` is an error of its own (the others go on); once the records handed
/// out expand to more than `maximumListSize` in all, the list ends with an error.
struct PropertyListWalk<Tree: PropertyListTree> {
    private let tree: Tree
    private let file: String
    private let maximumRecordSize: Int
    private let maximumListSize: Int
    /// The bytes the records may still expand to.
    private var budget: Int
    /// The lists being walked, the innermost last.
    private var stack: [Level] = []
    private var ordinal = 0

    /// A list of records at one depth, and how far it has been read.
    private struct Level {
        var records: [Tree.Node]
        var index = 0
        var depth: Int
        var path: String
    }

    /// A walk from the top-level `records` of `tree`, read from `file`.
    init(_ tree: Tree, file: String, records: [Tree.Node], maximumRecordSize: Int, maximumListSize: Int) {
        (self.tree, self.file, self.maximumRecordSize, self.maximumListSize, budget) = (tree, file, maximumRecordSize, maximumListSize, maximumListSize)
        stack = [Level(records: records, depth: 0, path: "")]
    }

    /// Up to `count` more records; none at the end.
    mutating func next(_ count: Int) -> [InputRecord] {
        var records: [InputRecord] = []
        while records.count < count, let level = stack.indices.last {
            guard stack[level].index < stack[level].records.count else {
                stack.removeLast()
                continue
            }
            let node = stack[level].records[stack[level].index]
            stack[level].index += 1
            ordinal += 1
            let depth = stack[level].depth
            let path = depth == 0 ? String(stack[level].index) : stack[level].path + "." + String(stack[level].index)
            func record(_ content: InputRecord.Content) -> InputRecord {
                InputRecord(file: file, number: ordinal, unit: .record, ordinal: ordinal, content: content)
            }
            do {
                guard let (content, children, size) = try tree.record(node, depth: depth, path: path) else {
                    records.append(record(.invalid("expected a dictionary, got \(tree.kindName(node))")))
                    continue
                }
                if size > maximumRecordSize {
                    records.append(
                        record(
                            .invalid(
                                "the record expands to \(size) bytes of strings and data (objects the list names more than once), more than the limit of \(maximumRecordSize)"
                            )))
                } else if size > budget {
                    records.append(
                        record(
                            .invalid(
                                "\(file): its records expand to more than \(maximumListSize) bytes of strings and data (objects the list names more than once), the limit for a property list"
                            )))
                    stack = []
                    break
                } else {
                    budget -= size
                    records.append(record(content))
                }
                if !children.isEmpty { stack.append(Level(records: children, depth: depth + 1, path: path)) }
            } catch {
                records.append(record(.invalid(error.description)))
            }
        }
        return records
    }
}
