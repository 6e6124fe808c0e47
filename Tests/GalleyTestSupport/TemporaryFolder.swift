// A folder of its own for a test's files, removed when the test is done with it.

import Foundation

/// Runs `body` with a new folder under the system's temporary directory (its name starting
/// `galley-name-`), and removes the folder and everything in it afterwards.
public func withTemporaryFolder<Result>(_ name: String, _ body: (URL) throws -> Result) throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("galley-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
