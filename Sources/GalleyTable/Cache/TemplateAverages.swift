// The running average height of each template's measured rows, which estimates the rest.

/// Per template (by its place in the table's templates), the sum and count of the heights of
/// its rows measured at the current layout.
struct TemplateAverages: Sendable {
    private var totals: [Int32: (sum: Double, count: Int)] = [:]

    /// Counts a measured row of `template`.
    mutating func add(_ height: Double, template: Int32) {
        totals[template, default: (0, 0)].sum += height
        totals[template, default: (0, 0)].count += 1
    }

    /// Takes a measured row of `template` out again (it left, or changed).
    mutating func remove(_ height: Double, template: Int32) {
        guard var total = totals[template], total.count > 0 else { return }
        total.sum -= height
        total.count -= 1
        totals[template] = total.count == 0 ? nil : total
    }

    /// The average height of `template`'s measured rows, if any are.
    func average(of template: Int32) -> Double? {
        guard let total = totals[template], total.count > 0 else { return nil }
        return total.sum / Double(total.count)
    }
}
