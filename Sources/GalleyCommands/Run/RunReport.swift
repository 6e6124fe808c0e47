// A run's progress bar while it runs, and its one-line summary at the end, on standard error.

import Foundation

/// Draws a progress line on standard error when it is a terminal (records done, records a
/// second, elapsed and, when the input's size is known, remaining time), and writes a summary
/// line at the end; `--quiet` silences both.
final class RunReport: @unchecked Sendable {
    private let command: String
    private let quiet: Bool
    private let drawsProgress: Bool
    private let start = ContinuousClock.now
    private var lastDraw = ContinuousClock.now
    private var drawn = false
    private let read: ReadProgress?

    init(command: String, quiet: Bool, progress: ReadProgress? = nil) {
        self.command = command
        self.quiet = quiet
        read = progress
        drawsProgress = !quiet && isatty(StandardStreams.current.error) == 1
    }

    private var elapsed: Double {
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Redraws the progress line (at most five times a second) for `records` done.
    func progress(records: Int) {
        guard drawsProgress, ContinuousClock.now - lastDraw >= .milliseconds(200) else { return }
        let fraction = read?.fraction
        lastDraw = .now
        let seconds = elapsed
        var line = "\r\u{1B}[2K\(command): \(Self.count(records)) records, \(Self.count(Int(Double(records) / max(seconds, 1e-9))))/s, \(Self.time(seconds))"
        if let fraction, fraction > 0.001 {
            let width = 24
            let filled = min(width, Int(Double(width) * fraction))
            line += " [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            line += " \(Int(fraction * 100))%, \(Self.time(seconds * (1 - fraction) / fraction)) left"
        }
        StandardError.write(line)
        drawn = true
    }

    /// Clears the progress line.
    func clear() {
        if drawn { StandardError.write("\r\u{1B}[2K") }
        drawn = false
    }

    /// Clears the progress line and writes the summary: records, failures, records whose stored
    /// rows were current, time, speed, the paragraph cache's hit rate, and where a signal or a
    /// closed output stopped the run.
    func finish(_ statistics: BatchRunner.Statistics, cacheHitRate: Double?) {
        clear()
        guard !quiet else { return }
        let seconds = elapsed
        var text = "\(command): \(Self.count(statistics.records)) record\(statistics.records == 1 ? "" : "s")"
        if statistics.failures > 0 { text += ", \(Self.count(statistics.failures)) failed" }
        if statistics.reused > 0 { text += ", \(Self.count(statistics.reused)) already current" }
        text += " in \(String(format: "%.2f", seconds)) s (\(Self.count(Int(Double(statistics.records) / max(seconds, 1e-9)))) records/s"
        if let cacheHitRate { text += ", paragraph cache \(Int((cacheHitRate * 100).rounded()))% hits" }
        text += ")"
        if let signal = statistics.stoppedBy {
            text += "; stopped by \(Interruption.name(signal))"
            if let last = statistics.lastRecord { text += " after \(last.file) \(last.unit.rawValue) \(last.number)" }
        }
        if statistics.outputClosed { text += "; the output was closed" }
        StandardError.write(text + "\n")
    }

    /// `1234567` as "1,234,567".
    static func count(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    /// Seconds as "42s", "3m05s" or "1h02m".
    static func time(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "?" }
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3600, (whole % 3600) / 60)
    }
}
