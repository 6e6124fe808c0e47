// The `galley` command: its subcommands, for the executable (Sources/GalleyCLI) to run.

import ArgumentParser

/// `galley measure`, `heights`, `layout`, `render`, `records`, `templates` and `fonts`.
public struct Galley: ParsableCommand {
    /// The command's name, version and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "galley",
        abstract: "Measure text and lay out rows with HarfBuzz, FreeType and ICU.",
        version: Galley.version,
        subcommands: [Measure.self, Heights.self, Layout.self, Render.self, Records.self, Templates.self, Fonts.self])

    /// The command before its arguments are parsed.
    public init() {}

    /// Galley's version, for `galley --version` and the settings a database's rows were made under.
    public static let version = "0.5.0"

    /// Runs `galley arguments` (the arguments after the command's name) on `streams`, as the
    /// executable does: the command's output, errors and messages (usage errors, help, the
    /// version) written there. The executable runs on the process's streams; a test may run a
    /// command in its own process on streams of its own.
    ///
    /// - Returns: The exit status the executable would end with.
    public static func run(_ arguments: [String], streams: StandardStreams = .process) -> Int32 {
        StandardStreams.$current.withValue(streams) {
            do {
                var command = try parseAsRoot(arguments)
                try command.run()
                return ExitCode.success.rawValue
            } catch {
                let status = exitCode(for: error)
                let message = fullMessage(for: error)
                guard !message.isEmpty else { return status.rawValue }
                // Help and the version are the answer, on standard output; anything else is an error.
                guard status == .success else {
                    StandardError.write(message + "\n")
                    return status.rawValue
                }
                do { try StandardOutput.write(Array((message + "\n").utf8), command: arguments.first ?? "") } catch {
                    return exitCode(for: error).rawValue
                }
                return status.rawValue
            }
        }
    }
}
