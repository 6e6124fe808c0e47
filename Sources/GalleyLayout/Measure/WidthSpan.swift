// The offered widths over which a node's measurement stays the same.

/// The widths a node could be offered (with no height) and measure as it did at the width it
/// was: the same height and baselines, and a width that follows the offer as ``form`` says.
///
/// A row's height at several widths then measures most of it once: a label whose text wraps
/// (or fits) at one width wraps (or fits) the same way at its neighbours, and the stacks above
/// it only pass offers down. Spans are sure by construction: every bound comes from a test the
/// measure pass makes (text fitting on one line, a flexible child's limits), kept ``margin``
/// inside it, so that the rounding of offers worked out another way cannot cross it.
struct WidthSpan: Sendable {
    /// How the measured width follows the offer within the span.
    enum Form: UInt8, Sendable {
        /// The same width at every offer (a spacer, a collapsed node).
        case constant
        /// The offer itself, to the bit (a label, a filling vertical stack).
        case offer
        /// The offer plus what it added at the measured offer, give or take rounding: a width
        /// added up from parts (a horizontal stack's children, an inset's child and insets),
        /// which containers that read a child's width compare only to within a tolerance.
        case follows
    }

    var lower: Double
    var upper: Double
    var form: Form

    // Computed, not stored: a stored static is read through a lazy initializer's check.
    /// Only the offer measured (the default: a node the span logic does not follow).
    static var none: WidthSpan { WidthSpan(lower: .infinity, upper: -.infinity, form: .constant) }
    /// Every offer, to the same measurement: what an item's data alone decides (collapsed nodes, spacers).
    static var all: WidthSpan { WidthSpan(lower: -.infinity, upper: .infinity, form: .constant) }

    /// How far inside a test's bound a span stops. Offers stay below ``limit``, where working
    /// one out by other additions moves it by less than a millionth as much.
    static var margin: Double { 1e-6 }
    static var limit: Double { 1e5 }

    /// The span of offers `lower...upper`, kept `margin` inside and below `limit`.
    static func within(_ lower: Double, _ upper: Double, form: Form) -> WidthSpan {
        WidthSpan(lower: max(lower + margin, 0), upper: min(upper - margin, limit), form: form)
    }

    func contains(_ width: Double) -> Bool { lower <= width && width <= upper }

    /// This span of a child's offers as its parent's, when the parent offered `parentOffer` and
    /// the child `childOffer`, and the child's offer moves as the parent's does.
    func asParentSpan(parentOffer: Double, childOffer: Double) -> WidthSpan {
        let shift = parentOffer - childOffer
        return WidthSpan(lower: lower + shift, upper: upper + shift, form: form)
    }

    /// The offers both spans hold over, with `form`.
    func intersection(_ other: WidthSpan, form: Form) -> WidthSpan {
        WidthSpan(lower: max(lower, other.lower), upper: min(upper, other.upper), form: form)
    }

    /// `measured`, a measurement at `measuredOffer` within this span, as measured at `offer`.
    func measurement(_ measured: MeasuredNode, at measuredOffer: Double, as offer: Double) -> MeasuredNode {
        guard !measured.isCollapsed else { return measured }
        var result = measured
        switch form {
        case .constant: break
        case .offer: result.size.width = offer
        case .follows: result.size.width = measured.size.width + (offer - measuredOffer)
        }
        if let text = measured.text { result.text = MeasuredText(offeredWidth: offer, lineCount: text.lineCount) }
        return result
    }
}
