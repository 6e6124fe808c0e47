// Text with styled runs: a bold name followed by a regular message, a small grey timestamp.

/// A string whose runs carry their own ``TextStyle``.
///
///     var text = AttributedText("Ada ", style: bold)
///     text.append("replied to your post", style: regular)
public struct AttributedText: Sendable, Hashable {
    /// A styled stretch of the string, in UTF-16 offsets.
    public struct Run: Sendable, Hashable {
        /// The run's text, in UTF-16 offsets into ``AttributedText/string``.
        public var range: Range<Int>
        /// How the run is drawn.
        public var style: TextStyle
    }

    /// The whole text.
    public private(set) var string: String
    /// The styled runs, in order, covering the string without gaps. Empty text made with a
    /// style keeps it as one empty run, so that its line height is still known.
    public private(set) var runs: [Run]

    /// Empty text.
    public init() {
        string = ""
        runs = []
    }

    /// One string in one style.
    public init(_ string: String, style: TextStyle) {
        self.init()
        append(string, style: style)
    }

    /// `string` with `runs`, which cover it.
    init(string: String, runs: [Run]) {
        self.string = string
        self.runs = runs
    }

    /// The runs over UTF-16 offsets `range` of the text, clipped to it and moved to start at 0.
    func runs(in range: Range<Int>) -> [Run] {
        runs.compactMap { run in
            let clipped = run.range.clamped(to: range)
            guard !clipped.isEmpty else { return nil }
            return Run(range: (clipped.lowerBound - range.lowerBound)..<(clipped.upperBound - range.lowerBound), style: run.style)
        }
    }

    /// One string in one style, its length in UTF-16 units known (from transcoding it).
    init(_ string: String, style: TextStyle, utf16Count: Int) {
        self.string = string
        runs = [Run(range: 0..<utf16Count, style: style)]
    }

    /// Adds `string` in `style` at the end. Adjacent runs with equal styles merge.
    public mutating func append(_ string: String, style: TextStyle) {
        // The runs cover the string, so the last one ends where the string does.
        let start = runs.last?.range.upperBound ?? 0
        let length = string.utf16Length
        if runs.count == 1 && runs[0].range.isEmpty { runs.removeAll() }
        guard length > 0 else {
            if runs.isEmpty { runs.append(Run(range: start..<start, style: style)) }
            return
        }
        self.string += string
        if let last = runs.last, last.style == style {
            runs[runs.count - 1].range = last.range.lowerBound..<(start + length)
        } else {
            runs.append(Run(range: start..<(start + length), style: style))
        }
    }
}
