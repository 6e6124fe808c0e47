// Threads of the benchmark's own for work it measures on every core: the harness waits for an
// async benchmark on a thread of Swift's shared pool, which on two cores leaves the shared pool
// one thread, so that tasks meant to run side by side would take turns.

import Foundation

/// A task executor on `count` threads of its own: tasks that prefer it (`withTaskExecutorPreference`)
/// and their child tasks run there, side by side.
final class WorkerThreads: TaskExecutor, @unchecked Sendable {
    // Jobs waiting, guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private let condition = NSCondition()

    init(count: Int) {
        for number in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "benchmark worker \(number)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Two worker threads, one for each core of the machines the benchmarks run on; they live as
/// long as the benchmark process.
let workerThreads = WorkerThreads(count: ProcessInfo.processInfo.activeProcessorCount)
