// A command's whole output written to standard output, a failed write reported as batches report it.

import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Standard output for the commands that write their answer at once (`templates`, `fonts`): the
/// status says when it could not be written, as a batch's does.
enum StandardOutput {
    /// Writes `bytes` to standard output.
    ///
    /// - Throws: an exit with status 141 when the reader has gone (as SIGPIPE would end the
    ///   command), or with status 1, the reason said on standard error, when the write failed.
    static func write(_ bytes: [UInt8], command: String) throws {
        do {
            try ByteStream(standard: StandardStreams.current.output, name: "standard output").write(bytes)
        } catch is OutputClosed {
            throw ExitCode(BatchRunner.outputClosedStatus)
        } catch {
            StandardError.write("galley \(command): \(error)\n")
            throw ExitCode(1)
        }
    }
}
