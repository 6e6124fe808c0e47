// Arrays of n copies of a value, made without Array(repeating:count:).

extension Array {
    /// `count` copies of `value`, as `Array(repeating:count:)` makes them, for less.
    ///
    /// That initializer allocates through an unspecialized standard-library function that looks
    /// up the array storage's type metadata on every call (costing more than filling a short
    /// array), and a new paragraph makes a dozen such arrays. Made from a
    /// repeated collection, the allocation is specialized and the lookup is gone.
    @inlinable
    package init(filling value: Element, count: Int) {
        self.init(repeatElement(value, count: count))
    }
}
