// Messages to standard error that cannot fail the run: Foundation's FileHandle traps when the
// write fails (a closed pipe, a full disk), and a message nobody can read is no reason to stop.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes to standard error, dropping what cannot be written.
enum StandardError {
    /// Writes `text` to `descriptor` (by default the running command's standard error); a write
    /// that fails (other than being interrupted) ends it quietly.
    static func write(_ text: String, to descriptor: Int32 = StandardStreams.current.error) {
        write(Array(text.utf8), to: descriptor)
    }

    /// Writes `bytes` to `descriptor` (by default the running command's standard error); a
    /// write that fails (other than being interrupted) ends it quietly.
    static func write(_ bytes: [UInt8], to descriptor: Int32 = StandardStreams.current.error) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}
