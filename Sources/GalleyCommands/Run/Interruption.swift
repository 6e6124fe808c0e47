// SIGINT and SIGTERM end a run between chunks: whole lines out, the database committed.

import Dispatch
import Foundation
import Synchronization

/// Catches SIGINT and SIGTERM for the length of a run; the runner asks ``signal`` before reading
/// each chunk and stops there, so that the output ends with whole lines (and a database with its
/// last whole chunk) instead of where the signal fell.
final class Interruption {
    private let received = Received()
    private let sources: [any DispatchSourceSignal]

    /// The signal number, set by the signal sources' handlers.
    private final class Received: Sendable {
        let number = Atomic<Int32>(0)
    }

    /// Starts catching the signals; ``stop()`` gives them back their default actions.
    init() {
        let received = received
        // The handlers run on a queue of Dispatch's, where the command's streams are not known.
        let error = StandardStreams.current.error
        sources = [SIGINT, SIGTERM].map { number in
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                // A second signal ends the run at once (a run waiting for input that does not
                // come checks for the first only between chunks).
                if received.number.exchange(number, ordering: .relaxed) != 0 {
                    Glibc.signal(number, SIG_DFL)
                    raise(number)
                    // Still running where signals are delivered late (under ThreadSanitizer):
                    // end as the signal would have.
                    _exit(128 + number)
                }
                // Said at once: the user sees the signal was taken and how to stop now. (Two
                // signals that arrive before this handler runs are one to it, so a second one
                // counts only after this line.)
                let note = "galley: \(Interruption.name(number)) received: stopping after the records in hand; send it again to stop at once\n"
                StandardError.write(note, to: error)
            }
            source.resume()
            return source
        }
    }

    /// The signal received, if any.
    var signal: Int32? {
        let number = received.number.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    func stop() {
        for source in sources { source.cancel() }
        Glibc.signal(SIGINT, SIG_DFL)
        Glibc.signal(SIGTERM, SIG_DFL)
    }

    /// The signal's name.
    static func name(_ number: Int32) -> String { number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)" }
}
