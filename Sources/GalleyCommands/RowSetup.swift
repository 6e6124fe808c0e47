// What a run that measures rows sets up once (workers with their templates and engines) and
// how each input record becomes an item to measure.

import Foundation
import GalleyJSON
import GalleyLayout
import GalleyText

/// What every worker is given, built once.
struct RowSetup: Sendable {
    /// One per worker.
    var workers: [RowWorker]
    var widths: [Double]
    var mapping: FieldMapping
    /// The `--template` name, the kind of items that have none.
    var forcedKind: String?
    /// The rows a database output already holds, to skip items whose rows are current.
    var resume: ResumeIndex?
    /// Whether items' content fingerprints are worked out (a database keeps them).
    var fingerprints = false
    /// Each kind's mapping and required fields, from the templates file.
    var kindOptions: [String: TemplateFile.KindOptions] = [:]
    /// The fields each kind's template shows, for `--strict` and the missing-field report.
    var templateFields: [String: [FieldPath]] = [:]
    var strict = false
    /// The fingerprint of what, besides an item, decides its rows (see ``LayoutArguments/settingsFingerprint(command:files:fields:)``).
    var settings: Int64 = 0
}

/// What one worker measures with, kept to itself: two cores touching the same objects
/// fight over their cache lines (see also ``BatchRunner/textEngines(count:limits:fonts:)``).
/// A class: every row is handed its worker, and copying a struct of these would retain each part.
final class RowWorker: Sendable {
    let registry: TemplateRegistry
    /// The `--template` given, for every item.
    let forced: CompiledTemplate?
    let environment: LayoutEnvironment
    /// The measure pass's working memory, reused from row to row.
    let memory: RowWorkerMemory

    init(registry: TemplateRegistry, forced: CompiledTemplate?, environment: LayoutEnvironment, memory: RowWorkerMemory) {
        (self.registry, self.forced, self.environment, self.memory) = (registry, forced, environment, memory)
    }
}

/// A worker's ``LayoutContext``. `@unchecked Sendable`: the setup hands each worker its
/// own, and only that worker's thread measures with it, one row at a time.
final class RowWorkerMemory: @unchecked Sendable {
    let memory = LayoutContext()
    /// The items' member names, which every line repeats.
    var names = JSONNameCache()
    /// For each kind, the items laid out and how many lacked each of its template's fields.
    var missing: [String: (items: Int, counts: [Int])] = [:]
    /// The slots of a block's JSON records whose rows are current, looked up before they are
    /// transformed (by each record's place in the block, from ``slotsStart``): nil where a
    /// record's rows are not, or it is not a JSON text.
    var slots: [Int32?] = []
    /// The input position of the block's first record.
    var slotsStart = 0

    /// Looks up `records`' JSON texts in `index`, all at once: the fingerprints first, then the
    /// lookups in a loop of their own, each a cache miss of its own that the processor can wait
    /// for beside the others.
    func lookUp(_ records: ArraySlice<InputRecord>, in index: ResumeIndex) {
        var fingerprints: [Int64?] = []
        fingerprints.reserveCapacity(records.count)
        for record in records {
            guard case .json(let bytes) = record.content else {
                fingerprints.append(nil)
                continue
            }
            fingerprints.append(RowSetup.fingerprint(ofJSON: bytes))
        }
        slots = fingerprints.map { $0.flatMap(index.slot(for:)) }
        slotsStart = records.first?.position ?? 0
    }

    /// The slot ``lookUp(_:in:)`` found for `record`: nil where it found none, or did not look.
    func lookedUp(_ record: InputRecord) -> Int32? {
        let index = record.position - slotsStart
        guard index >= 0, index < slots.count else { return nil }
        return slots[index]
    }
}

/// An item to write, with what measures it.
struct ItemRow {
    let item: ItemDescriptor
    /// The item's `id` as the input gave it.
    let id: JSONValue
    let template: CompiledTemplate
    /// The template's name: the item's kind, or `--template`.
    let templateName: String
    let widths: [Double]
    let worker: RowWorker
    /// The record's place in the input, from 0.
    let position: Int
    /// The item's content fingerprint (0 unless the output keeps it).
    let fingerprint: Int64

    /// The item measured at every width, for arranging.
    func measurements() throws(LayoutError) -> [RowMeasurement] {
        try template.measure(item, widths: widths, environment: worker.environment, context: worker.memory.memory)
    }

    /// The item's height at every width (less work than ``measurements()``).
    func heights() throws(LayoutError) -> [Double] {
        try template.heights(item, widths: widths, environment: worker.environment, context: worker.memory.memory)
    }

    /// A database row of this item at `width`.
    func row(width: Double, height: Double, frames: String? = nil) -> MeasuredRow {
        MeasuredRow(id: id, position: position, template: templateName, fingerprint: fingerprint, width: width, height: height, frames: frames)
    }
}

extension RowSetup {
    /// `record` as an item to measure with `worker`; `id` is set to the item's id as soon as it
    /// is known, for the error line of a record that fails.
    func itemRow(for record: InputRecord, worker: RowWorker, id: inout JSONValue) throws -> ItemRow {
        var object = try record.object(names: &worker.memory.names)
        if !mapping.isEmpty { mapping.apply(to: &object) }
        record.identify(&object)
        if let kind = forcedKind, object["kind"] == nil { object["kind"] = .string(kind) }
        let kind: String? = if let forced = forcedKind { forced } else if case .string(let kind)? = object["kind"] { kind } else { nil }
        let options = kind.flatMap { kindOptions[$0] }
        options?.mapping.apply(to: &object)
        id = object["id"] ?? .null
        let fingerprint = fingerprints ? Self.fingerprint(of: record, object: object) : 0
        // The parsed object is handed over whole: the item takes it without a copy.
        let item = try ItemDescriptor(object: object)
        let template = try worker.forced ?? worker.registry.template(for: item)
        let templateName = forcedKind ?? item.kind
        if let options, let missing = options.required.first(where: { item.value(at: $0) == nil }) {
            throw LayoutError.invalidItem("field '\(missing)' is missing, and template '\(templateName)' requires it")
        }
        if let fields = templateFields[templateName] {
            var tally = worker.memory.missing[templateName] ?? (0, Array(repeating: 0, count: fields.count))
            tally.items += 1
            for (index, field) in fields.enumerated() where item.value(at: field) == nil {
                if strict { throw LayoutError.invalidItem("field '\(field)' is missing, and template '\(templateName)' reads it (--strict)") }
                tally.counts[index] += 1
            }
            worker.memory.missing[templateName] = tally
        }
        return ItemRow(
            item: item, id: id, template: template, templateName: templateName, widths: widths, worker: worker,
            position: record.position, fingerprint: fingerprint)
    }

    /// Appends the item's results (or its error line alone) to `block`.
    func rows(
        for record: InputRecord, worker: RowWorker, into block: inout ResultBlock, write: (ItemRow, inout ResultBlock) throws(LayoutError) -> Void
    ) {
        var id: JSONValue = .null
        let start = (bytes: block.bytes.count, rows: block.rows.count)
        // A JSON text's fingerprint is its bytes': an item whose rows are stored is found before
        // it is parsed, by the block's lookups. Other records are looked up once parsed.
        if resume != nil, let slot = worker.memory.lookedUp(record) { return block.keep(slot, position: record.position) }
        do {
            let row = try itemRow(for: record, worker: worker, id: &id)
            if let resume, let slot = resume.slot(for: row.fingerprint) { return block.keep(slot, position: record.position) }
            try write(row, &block)
        } catch {
            // Whatever the item wrote before it failed goes: its error line stands for it.
            block.bytes.removeSubrange(start.bytes...)
            block.rows.removeSubrange(start.rows...)
            block.errors += record.errorJSON(id: id, message: "\(error)")
            block.errors.append(UInt8(ascii: "\n"))
            block.failures += 1
        }
    }

    /// A warning for each template field that more than half of its items lacked: a typo in a
    /// field name, or items of another shape, give wrong heights without failing a row. Only the
    /// items laid out count: with `reused` items already current (not read), the warning says so.
    func missingFieldWarnings(command: String, reused: Int = 0) -> [String] {
        var totals: [String: (items: Int, counts: [Int])] = [:]
        for worker in workers {
            for (kind, tally) in worker.memory.missing {
                var total = totals[kind] ?? (0, Array(repeating: 0, count: tally.counts.count))
                total.items += tally.items
                for index in tally.counts.indices { total.counts[index] += tally.counts[index] }
                totals[kind] = total
            }
        }
        var warnings: [String] = []
        for kind in totals.keys.sorted() {
            guard let total = totals[kind], let fields = templateFields[kind] else { continue }
            for (field, missing) in zip(fields, total.counts) where missing * 2 > total.items {
                let share = Int((Double(missing) * 100 / Double(total.items)).rounded())
                warnings.append(
                    "galley \(command): warning: field '\(field)' of template '\(kind)' is missing in \(share)% of its \(RunReport.count(total.items)) item\(total.items == 1 ? "" : "s")\(reused > 0 ? " laid out in this run" : "") (see --map, --strict)"
                )
            }
        }
        return warnings
    }

    /// The fingerprint of an item's content: the JSON text as it came (what the options then
    /// make of it is in the settings' fingerprint), or for a record another format made, its
    /// members, sorted, as JSON (a JSON Lines item is not written out again to be hashed).
    static func fingerprint(of record: InputRecord, object: JSONObject) -> Int64 {
        if case .json(let bytes) = record.content { return fingerprint(ofJSON: bytes) }
        var bytes: [UInt8] = []
        JSONWriter.write(.object(object), to: &bytes)
        var fingerprint = Fingerprint()
        fingerprint.add(bytes)
        return fingerprint.value
    }

    /// The fingerprint of a JSON text, as it came.
    static func fingerprint(ofJSON bytes: ArraySlice<UInt8>) -> Int64 {
        var fingerprint = Fingerprint()
        fingerprint.add(bytes)
        return fingerprint.value
    }
}

extension ResultBlock {
    /// Counts a record whose stored rows are current, to be kept where it now is in the input.
    fileprivate mutating func keep(_ slot: Int32, position: Int) {
        reused += 1
        current.append((slot, position))
    }
}
