// Opening a property list: which reader, which array holds the records.

/// Property lists as record sources.
enum PropertyLists {
    /// The deepest a property list is followed.
    static let maximumDepth = 128

    /// The records of the property list `input` holds, read whole (neither form can be streamed:
    /// a binary list's offsets table is at its end, an XML list is one document). The records
    /// are the root array's dictionaries, or those of the array the root dictionary holds
    /// (`recordKey` names its key when it holds several). A problem with the whole file is its
    /// one record, an error naming the file. A binary list, which can name one object from many
    /// places, may expand to `maximumSize` bytes of strings and data in all (what the same list
    /// written as XML could hold), and each record to `maximumRecordLength` (see
    /// ``PropertyListWalk``).
    ///
    /// - Throws: ``InputError`` when the file cannot be read or is longer than `maximumSize`.
    static func reader(_ input: ByteInput, recordKey: String?, maximumSize: Int, maximumRecordLength: Int) throws -> any RecordSource {
        let whole = try input.readAll(limit: maximumSize)
        let bytes = whole.bytes
        input.close()
        let file = input.name
        // What a list may expand to (a binary list can name one object many times over) is
        // bounded by the file's size.
        let limit = max(bytes.count, 1024) * 4
        let tooLarge =
            "it expands to more values than its \(bytes.count) bytes hold, or nests deeper than \(maximumDepth) levels (objects it names more than once)"
        func failed(_ reason: String) -> any RecordSource {
            PropertyListReader(failure: InputRecord(file: file, number: 1, unit: .record, ordinal: 1, content: .invalid("\(file): \(reason)")))
        }
        func records(of tree: some PropertyListTree) -> any RecordSource {
            do {
                return try reader(tree, file: file, recordKey: recordKey, maximumRecordSize: maximumRecordLength, maximumListSize: maximumSize)
            } catch { return failed(error.description) }
        }
        if BinaryPropertyList.isBinary(bytes) {
            do { return records(of: try BinaryPropertyList(whole, limit: limit)) } catch .malformed(let reason) {
                return failed("not a property list: \(reason)")
            } catch { return failed(tooLarge) }
        }
        do {
            guard let tree = try FoundationPropertyList(bytes, limit: limit) else { return failed(tooLarge) }
            return records(of: tree)
        } catch {
            return failed("not a property list: \(error)")
        }
    }

    /// A reader of `tree`'s records, or one that reports why there are none.
    private static func reader<Tree: PropertyListTree>(
        _ tree: Tree, file: String, recordKey: String?, maximumRecordSize: Int, maximumListSize: Int
    ) throws(RecordError) -> any RecordSource {
        func walk(_ records: [Tree.Node]) -> any RecordSource {
            PropertyListReader(PropertyListWalk(tree, file: file, records: records, maximumRecordSize: maximumRecordSize, maximumListSize: maximumListSize))
        }
        if let records = try tree.elements(of: tree.root) { return walk(records) }
        guard let members = try tree.members(of: tree.root) else { throw RecordError("the root is neither an array nor a dictionary") }
        var candidates: [String] = []
        for (key, value) in members where try tree.records(in: value) != nil { candidates.append(key) }
        let key: String
        if let recordKey {
            key = recordKey
        } else if candidates.count == 1 {
            key = candidates[0]
        } else {
            let found = candidates.isEmpty ? "it holds none" : "it holds \(candidates.joined(separator: ", "))"
            throw RecordError("say with --record KEY which array of the root dictionary holds the records (\(found))")
        }
        guard let value = members.last(where: { $0.key == key })?.value, let records = try tree.elements(of: value) else {
            throw RecordError("the root dictionary has no array '\(key)'; its arrays of dictionaries: \(candidates.joined(separator: ", "))")
        }
        return walk(records)
    }
}
