// Runs the built `galley` executable as a user would: input on its standard input, both outputs read.

import Foundation
import Testing

/// Runs the `galley` executable built beside the tests.
enum GalleyExecutable {
    static let url: URL = {
        let tests = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return tests.deletingLastPathComponent().appendingPathComponent("galley")
    }()

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the run was stopped for taking longer than it was given.
        var timedOut = false

        /// Each line of standard output as a JSON object; a line that is not one is recorded
        /// as a test issue and left out.
        var lines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { line in
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                    Issue.record("not a JSON object: \(line.prefix(200))")
                    return nil
                }
                return object
            }
        }
    }

    /// Runs `galley arguments` with `input` on its standard input and waits for it to exit, or
    /// kills it after `timeout` seconds (a hang fails the test instead of the whole run).
    ///
    /// The input is written and both outputs read on threads of their own: done one after the
    /// other, a child that fills one pipe (64 KiB) while the test waits on another never ends.
    static func run(_ arguments: [String], input: String = "", timeout: Double = 120) throws -> Output {
        try run(arguments, input: Data(input.utf8), timeout: timeout)
    }

    static func run(_ arguments: [String], input: Data, timeout: Double = 120) throws -> Output {
        _ = ignoringBrokenPipes
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let group = DispatchGroup()
        let out = Collected(), err = Collected()
        DispatchQueue.global().async(group: group) {
            // A child that exits without reading all its input closes the pipe: the write fails, and that is fine.
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        DispatchQueue.global().async(group: group) { out.data = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { err.data = stderr.fileHandleForReading.readDataToEndOfFile() }
        let timedOut = exited.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            process.terminate()
            exited.wait()
        }
        group.wait()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: out.data, as: UTF8.self),
            stderr: String(decoding: err.data, as: UTF8.self), timedOut: timedOut)
    }

    /// Writing to a child that exited without reading its input raises SIGPIPE, which would end
    /// the test process: ignored once, the write fails instead.
    private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Bytes one reader thread fills, read once the group it runs in is done.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }
}
