// Runs the built `galley` executable as a user would: input on its standard input, both outputs read.

import Foundation
import Testing

/// Runs the `galley` executable built beside the tests.
///
/// Through `posix_spawn` and `poll` rather than Foundation's `Process`, which on Linux keeps
/// objects of every process it ran for good (the address sanitizer's run of the suite reports
/// them as leaks) and signals termination through a run loop.
public enum GalleyExecutable {
    /// The executable: `galley` in the folder of the test binary running.
    public static let url: URL = {
        let tests = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return tests.deletingLastPathComponent().appendingPathComponent("galley")
    }()

    /// How a run ended and what it wrote.
    public struct Output {
        /// The exit status, or 128 + the signal that ended the run.
        public var status: Int32
        /// What it wrote on standard output (unless sent elsewhere).
        public var stdout: String
        /// What it wrote on standard error.
        public var stderr: String
        /// Whether the run was stopped for taking longer than it was given.
        public var timedOut = false

        /// A run's end: its status and what it wrote.
        public init(status: Int32, stdout: String, stderr: String, timedOut: Bool = false) {
            (self.status, self.stdout, self.stderr, self.timedOut) = (status, stdout, stderr, timedOut)
        }

        /// Each line of standard output as a JSON object; a line that is not one is recorded
        /// as a test issue and left out.
        public var lines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { line in
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                    Issue.record("not a JSON object: \(line.prefix(200))")
                    return nil
                }
                return object
            }
        }

        /// The error lines on standard error (JSON objects), without the summary line.
        public var errorLines: [[String: Any]] {
            stderr.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("{") else { return nil }
                return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
        }
    }

    /// A failure to start the executable.
    public struct SpawnError: Error {
        /// The `errno` value `pipe` or `posix_spawn` gave.
        public var code: Int32

        /// The failure `code` says.
        public init(code: Int32) { self.code = code }
    }

    /// Runs `galley arguments` with `input` on its standard input and waits for it to exit, or
    /// kills it after `timeout` seconds (a hang fails the test instead of the whole run).
    ///
    /// The input is written and both outputs read as each is ready: one after the other, a
    /// child that fills one pipe (64 KiB) while the test waits on another never ends.
    public static func run(_ arguments: [String], input: String = "", timeout: Double = 120) throws -> Output {
        try run(arguments, input: Data(input.utf8), timeout: timeout)
    }

    /// ``run(_:input:timeout:)`` with the input as bytes.
    public static func run(_ arguments: [String], input: Data, timeout: Double = 120) throws -> Output {
        try run(arguments, input: input, stdout: nil, timeout: timeout)
    }

    /// ``run(_:input:timeout:)`` with standard output sent to `stdout` (a file descriptor the
    /// caller opened) instead of read.
    public static func run(_ arguments: [String], input: Data, stdout target: Int32?, timeout: Double = 120) throws -> Output {
        try run(executable: url.path, arguments, input: input, stdout: target, timeout: timeout)
    }

    /// Runs `script` with `/bin/sh -c`, `$GALLEY` standing for the executable's path: for runs a
    /// test interrupts with a signal, or pipes into another program.
    public static func shell(_ script: String, input: String = "", timeout: Double = 120) throws -> Output {
        try run(executable: "/bin/sh", ["-c", "GALLEY='\(url.path)'\n" + script], input: Data(input.utf8), stdout: nil, timeout: timeout)
    }

    private static func run(executable: String, _ arguments: [String], input: Data, stdout target: Int32?, timeout: Double) throws -> Output {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        var errorsFromChild: [Int32] = [0, 0]
        // Pipes made and the child spawned under one lock, each end closed on exec, so that a child
        // spawned by another test at the same moment holds none of this one's open.
        spawning.lock()
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errorsFromChild) == 0 else {
            spawning.unlock()
            throw SpawnError(code: errno)
        }
        for descriptor in toChild + fromChild + errorsFromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, target ?? fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        spawning.unlock()
        posix_spawn_file_actions_destroy(&actions)
        for argument in argv { free(argument) }
        for descriptor in [toChild[0], fromChild[1], errorsFromChild[1]] { close(descriptor) }
        guard spawned == 0 else {
            for descriptor in [toChild[1], fromChild[0], errorsFromChild[0]] { close(descriptor) }
            throw SpawnError(code: spawned)
        }

        // Writing to a child that exited without reading all its input fails (EPIPE) instead of
        // raising SIGPIPE: the rest of the input is then dropped.
        _ = ignoringBrokenPipes
        var out = Data()
        var err = Data()
        var written = 0
        var open: [Int32: Bool] = [toChild[1]: true, fromChild[0]: true, errorsFromChild[0]: true]
        _ = fcntl(toChild[1], F_SETFL, O_NONBLOCK)
        if input.isEmpty {
            close(toChild[1])
            open[toChild[1]] = false
        }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while open.values.contains(true) {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                timedOut = true
                kill(pid, SIGKILL)
                break
            }
            var descriptors = open.filter(\.value).map { descriptor, _ in
                pollfd(fd: descriptor, events: Int16(descriptor == toChild[1] ? POLLOUT : POLLIN), revents: 0)
            }
            guard poll(&descriptors, nfds_t(descriptors.count), Int32(min(remaining, 1) * 1000)) >= 0 || errno == EINTR else { break }
            for entry in descriptors where entry.revents != 0 {
                if entry.fd == toChild[1] {
                    let count = input.withUnsafeBytes { bytes in write(entry.fd, bytes.baseAddress! + written, bytes.count - written) }
                    if count > 0 { written += count }
                    if count < 0 && errno == EAGAIN { continue }
                    if count <= 0 || written == input.count {
                        close(entry.fd)
                        open[entry.fd] = false
                    }
                } else {
                    let count = read(entry.fd, &chunk, chunk.count)
                    if count > 0 {
                        if entry.fd == fromChild[0] { out.append(contentsOf: chunk[..<count]) } else { err.append(contentsOf: chunk[..<count]) }
                    } else if count == 0 || errno != EINTR {
                        close(entry.fd)
                        open[entry.fd] = false
                    }
                }
            }
        }
        for (descriptor, isOpen) in open where isOpen { close(descriptor) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exit status, or 128 + the signal that ended it, as a shell reports it.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Output(
            status: exitStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self),
            timedOut: timedOut)
    }

    /// SIGPIPE ignored in the test process, once: a write to a pipe whose reader went away
    /// fails (EPIPE) instead of ending the tests.
    public static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
    private static let spawning = NSLock()
}
