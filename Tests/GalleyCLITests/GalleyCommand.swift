// Runs a `galley` command inside the test's own process, as the executable would run it.

import Foundation
import GalleyCommands
import GalleyTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `galley` commands in the test's process through ``Galley/run(_:streams:)``, the entry
/// the executable itself calls: the arguments parsed and the command run as in the executable,
/// with its standard input a pipe the input is written into and its outputs files read back.
/// What only a process shows (signals, closed descriptors, a reader that goes away, the
/// installed binary) is tested with ``GalleyExecutable``.
enum GalleyCommand {
    /// Runs `galley arguments` with `input` on its standard input.
    static func run(_ arguments: [String], input: String = "") throws -> GalleyExecutable.Output {
        try run(arguments, input: Data(input.utf8))
    }

    /// Runs `galley arguments` with `input` on its standard input.
    static func run(_ arguments: [String], input: Data) throws -> GalleyExecutable.Output {
        try withTemporaryFolder("command") { folder in
            let outputPath = folder.appendingPathComponent("stdout").path
            let errorPath = folder.appendingPathComponent("stderr").path
            let output = open(outputPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            let error = open(errorPath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            var ends: [Int32] = [0, 0]
            guard output >= 0, error >= 0, pipe(&ends) == 0 else { throw GalleyExecutable.SpawnError(code: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // The input is written on a thread of its own, so that a command that reads it as it
            // goes never waits on a pipe the test has yet to fill; the pipe's reading end closed
            // after the run ends that thread's write (EPIPE, SIGPIPE being ignored).
            _ = GalleyExecutable.ignoringBrokenPipes
            let written = DispatchSemaphore(value: 0)
            Thread { [writing = ends[1]] in
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let count = write(writing, bytes.baseAddress! + offset, bytes.count - offset)
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { break }
                        offset += count
                    }
                }
                close(writing)
                written.signal()
            }.start()
            let status = Galley.run(arguments, streams: StandardStreams(input: ends[0], output: output, error: error))
            close(ends[0])
            written.wait()
            defer {
                close(output)
                close(error)
            }
            return GalleyExecutable.Output(
                status: status, stdout: String(decoding: Self.contents(of: output), as: UTF8.self),
                stderr: String(decoding: Self.contents(of: error), as: UTF8.self))
        }
    }

    /// Everything written to the file open on `descriptor`, read from its start. (Foundation's
    /// `Data(contentsOf:)` leaked buffers here under LeakSanitizer.)
    private static func contents(of descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let count = pread(descriptor, &chunk, chunk.count, offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
            offset += off_t(count)
        }
    }

}
