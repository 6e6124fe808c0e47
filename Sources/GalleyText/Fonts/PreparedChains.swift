// The fallback chains of the prepared styles an engine measured in lately.

/// The fallback chains of a few prepared styles (see ``PreparedTextStyle``), found by the
/// styles' identity: a template's labels ask for their chains on every row.
///
/// The font collection finds a chain by its descriptors, hashed, which costs a label more
/// than a comparison of identities. Here the last 16 styles are held (so
/// that no freed style's address can come back as another's) and compared by identity.
struct PreparedChains: ~Copyable {
    private var styles: [PreparedTextStyle] = []
    private var chains: [FallbackChain] = []
    /// Where the next style goes once all the places are taken.
    private var next = 0

    static let capacity = 16

    /// The chain held for `prepared`, if any.
    func chain(for prepared: PreparedTextStyle) -> FallbackChain? {
        for index in styles.indices where styles[index] === prepared { return chains[index] }
        return nil
    }

    /// Holds `chain` for `prepared`, in place of the one held longest when all places are taken.
    mutating func hold(_ chain: FallbackChain, for prepared: PreparedTextStyle) {
        if styles.count < Self.capacity {
            styles.append(prepared)
            chains.append(chain)
        } else {
            styles[next] = prepared
            chains[next] = chain
            next = (next + 1) % Self.capacity
        }
    }
}
