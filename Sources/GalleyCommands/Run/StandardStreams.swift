// The descriptors a command reads and writes as its standard input, output and error.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The descriptors a command takes as its standard input, output and error: the process's own,
/// or others a caller running the command in its own process gives (``Galley/run(_:streams:)``),
/// such as a test with its input in a pipe and its outputs in files.
///
/// Commands read ``current`` on the thread that runs them, and hand what they read to the
/// threads they start.
public struct StandardStreams: Sendable {
    /// Standard input.
    public var input: Int32
    /// Standard output.
    public var output: Int32
    /// Standard error.
    public var error: Int32

    /// Streams on the given descriptors, which stay the caller's to close.
    public init(input: Int32, output: Int32, error: Int32) {
        (self.input, self.output, self.error) = (input, output, error)
    }

    /// The process's own: descriptors 0, 1 and 2.
    public static let process = StandardStreams(input: STDIN_FILENO, output: STDOUT_FILENO, error: STDERR_FILENO)

    /// Whether these are the process's own, whose runs also take the process's signals: a run in
    /// a process of its caller's leaves SIGINT and SIGTERM to the caller.
    var areTheProcessOwn: Bool { input == STDIN_FILENO && output == STDOUT_FILENO && error == STDERR_FILENO }

    /// The streams of the command running on this task.
    @TaskLocal static var current = StandardStreams.process
}
