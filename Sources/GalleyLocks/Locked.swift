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
/// threads through one looks like a race; on this lock the sanitizer runs of the test suite see
/// what is ordered and report only what is not. An uncontended lock and unlock costs little
/// more than `Mutex`'s.
///
/// The mutex and the value live in one allocation of their own, made once and never moved;
/// the lock itself holds pointers into it, so that reaching it retains nothing.
public struct Locked<State: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// A lock guarding `state`.
    public init(_ state: consuming sending State) {
        // malloc's alignment (16 bytes) serves the mutex and any state that needs no more, and
        // it is the cheapest allocation: objects with locks of their own are made for every row.
        precondition(MemoryLayout<State>.alignment <= 16, "state aligned beyond 16 bytes")
        guard let memory = malloc(Self.stateOffset + max(MemoryLayout<State>.size, 1)) else { fatalError("out of memory") }
        // All zeros is a default mutex (PTHREAD_MUTEX_INITIALIZER, in glibc and musl alike).
        memset(memory, 0, MemoryLayout<pthread_mutex_t>.size)
        mutex = memory.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        self.state = (memory + Self.stateOffset).bindMemory(to: State.self, capacity: 1)
        self.state.initialize(to: state)
    }

    deinit {
        state.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        free(mutex)
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
