// Heights and frames printed as the layout means them: multiples of a device pixel.

/// Rounds a number that is meant to be a whole number of device pixels to exactly that, so that
/// floating-point noise from adding snapped lengths (17.999999999999993 at scale 3) prints as the
/// value it stands for (18). A snapped value then prints as the shortest decimal that reads back
/// to it (148.66666666666666 for 446 pixels at scale 3).
struct PixelSnapping: Sendable {
    var scale: Double

    func callAsFunction(_ value: Double) -> Double {
        let pixels = value * scale
        let whole = pixels.rounded()
        // Only noise is removed: a value between pixels (a width given by the input) stays.
        guard abs(pixels - whole) <= 1e-6 * max(1, abs(whole)) else { return value }
        return whole / scale
    }
}
