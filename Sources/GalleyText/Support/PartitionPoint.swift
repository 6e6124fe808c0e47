// Binary search over sorted runs: words, segments.

extension RandomAccessCollection where Index == Int {
    /// The index of the first element for which `isBefore` is false, in a collection whose
    /// elements for which it holds all come first: a binary search.
    @inline(__always)
    func partitionPoint(_ isBefore: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
