// State behind a pthread mutex: the lock every shared cache and table in Galley takes.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value reached only while holding a mutex, as the standard library's `Mutex` is, but on a
/// pthread mutex.
///
/// ThreadSanitizer models pthread mutexes. It does not see the standard library's `Mutex` on
/// Linux (a futex behind atomics it is not compiled with), so every value passed between
/// threads through one looked like a race; on this lock the sanitizer runs of the test suite see
/// what is ordered and report only what is not. An uncontended lock and unlock costs about two
/// nanoseconds more than `Mutex`'s.
///
/// The mutex and the value live in one allocation of their own, made once and never moved;
/// the lock itself holds pointers into it, so that reaching it retains nothing.
public struct Locked<State: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// A lock guarding `state`.
    public init(_ state: consuming sending State) {
        let stateOffset = Self.stateOffset
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: stateOffset + MemoryLayout<State>.size,
            alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<State>.alignment))
        mutex = memory.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.state = (memory + stateOffset).bindMemory(to: State.self, capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Where the state starts in the allocation: after the mutex, aligned.
    private static var stateOffset: Int {
        let alignment = MemoryLayout<State>.alignment
        return (MemoryLayout<pthread_mutex_t>.stride + alignment - 1) / alignment * alignment
    }

    /// Runs `body` with the state while holding the lock, and returns what it returns.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}

// Sendable as the standard library's `Mutex` is: the state is only reached under the lock.
extension Locked: @unchecked Sendable where State: ~Copyable {}
