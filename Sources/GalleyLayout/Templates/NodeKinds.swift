// The payloads of each kind of template node, nested in Node so that their names cannot
// clash with an app's own.

import GalleyText

extension Node {
    /// Text bound to item fields or a literal, in a stylesheet style.
    public struct Label: Sendable, Hashable {
        /// What the label says.
        public var content: LabelContent
        /// Its text style: a stylesheet name, or inline.
        public var style: StyleReference
        /// At most this many lines (0: unlimited).
        public var maximumLines: Int
        public var lineBreakMode: LineBreakMode
        public var alignment: TextAlignment

        public init(
            _ content: LabelContent, style: StyleReference, maximumLines: Int = 0,
            lineBreakMode: LineBreakMode = .wordWrap, alignment: TextAlignment = .natural
        ) {
            self.content = content
            self.style = style
            self.maximumLines = maximumLines
            self.lineBreakMode = lineBreakMode
            self.alignment = alignment
        }
    }

    /// An image: its size is fixed, or comes from item fields with the aspect ratio kept.
    public struct Image: Sendable, Hashable {
        /// The field holding the image's address; when set and missing, the image collapses.
        public var source: FieldPath?
        public var size: ImageSize
        /// Lower and upper bounds, applied keeping the aspect ratio.
        public var minimum: SizeSpec?
        public var maximum: SizeSpec?

        public init(source: FieldPath? = nil, size: ImageSize, minimum: SizeSpec? = nil, maximum: SizeSpec? = nil) {
            self.source = source
            self.size = size
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// Empty space: a fixed length along its stack's axis (and it grows, unless told otherwise).
    public struct Spacer: Sendable, Hashable {
        public var length: Length
        public init(length: Length = .zero) { self.length = length }
    }

    /// Padding around one child. A collapsed child collapses its inset too.
    public struct Inset: Sendable, Hashable {
        public var insets: Insets
        public var child: Node

        public init(_ insets: Insets, child: Node) {
            self.insets = insets
            self.child = child
        }
    }

    /// Children in a row or a column.
    public struct Stack: Sendable, Hashable {
        public enum Axis: String, Sendable, Hashable, Codable, CaseIterable { case horizontal, vertical }

        /// Placement across the stack's axis.
        public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable {
            case leading, center, trailing, fill
            /// Horizontal stacks only: the children's first (or last) baselines line up.
            case firstBaseline, lastBaseline
        }

        public var axis: Axis
        /// Space between visible children.
        public var spacing: Length
        public var alignment: Alignment
        /// Horizontal stacks only: children that do not fit start a new row (tags, chips).
        public var wraps: Bool
        /// Space between wrapped rows.
        public var lineSpacing: Length
        public var children: [Node]

        public init(
            _ axis: Axis, spacing: Length = .zero, alignment: Alignment = .fill, wraps: Bool = false,
            lineSpacing: Length = .zero, children: [Node]
        ) {
            self.axis = axis
            self.spacing = spacing
            self.alignment = alignment
            self.wraps = wraps
            self.lineSpacing = lineSpacing
            self.children = children
        }
    }

    /// Layers stacked over (or, as a background, under) a base node, sized by the base.
    public struct Overlay: Sendable, Hashable {
        /// Where layers sit within the base's frame.
        public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable {
            case topLeading, top, topTrailing, leading, center, trailing, bottomLeading, bottom, bottomTrailing, fill
        }

        public var base: Node
        public var layers: [Node]
        public var alignment: Alignment
        /// Whether the layers are drawn behind the base (layout is the same either way).
        public var isBackground: Bool

        public init(base: Node, layers: [Node], alignment: Alignment = .fill, isBackground: Bool = false) {
            self.base = base
            self.layers = layers
            self.alignment = alignment
            self.isBackground = isBackground
        }
    }

    /// Size constraints on one child: fixed, minimum and maximum sizes, an aspect ratio.
    public struct SizeRule: Sendable, Hashable {
        /// Where the child sits when the rule makes the frame larger than the child.
        public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable { case top, center, bottom }

        public var width: Dimension
        public var height: Dimension
        /// Width divided by height; with a width known, the height follows.
        public var aspectRatio: Double?
        public var alignment: Alignment
        public var child: Node

        public init(width: Dimension = Dimension(), height: Dimension = Dimension(), aspectRatio: Double? = nil, alignment: Alignment = .center, child: Node) {
            self.width = width
            self.height = height
            self.aspectRatio = aspectRatio
            self.alignment = alignment
            self.child = child
        }
    }

    /// Constraints along one axis.
    public struct Dimension: Sendable, Hashable {
        public var fixed: Length?
        public var minimum: Length?
        public var maximum: Length?

        public init(fixed: Length? = nil, minimum: Length? = nil, maximum: Length? = nil) {
            self.fixed = fixed
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// A child shown only when a field passes a test.
    public struct Conditional: Sendable, Hashable {
        public enum Test: String, Sendable, Hashable, Codable, CaseIterable {
            /// The field exists and is not null.
            case present
            /// The field exists and is not an empty string, array or object.
            case nonEmpty
            /// The field is `true` (or a non-zero number, or a non-empty string other than "false").
            case isTrue
        }

        public var field: FieldPath
        public var test: Test
        /// Inverts the test.
        public var negated: Bool
        public var child: Node

        public init(field: FieldPath, test: Test = .nonEmpty, negated: Bool = false, child: Node) {
            self.field = field
            self.test = test
            self.negated = negated
            self.child = child
        }
    }

    /// A table cell's accessory, taking its width out of the row's content area.
    public struct Accessory: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            case none, disclosureIndicator, detailButton, checkmark, detailDisclosureButton
        }

        /// The accessory; when ``field`` is set, the field's value (one of the kinds) wins.
        public var kind: Kind
        public var field: FieldPath?

        public init(_ kind: Kind, field: FieldPath? = nil) {
            self.kind = kind
            self.field = field
        }
    }
}

/// Where a label's text comes from. Empty text collapses the label.
public indirect enum LabelContent: Sendable, Hashable {
    /// The value of a field (strings as they are, numbers in decimal).
    case field(FieldPath)
    /// Fixed text.
    case literal(String)
    /// Fields joined into text: `"{author.name} · {duration|duration}"`. Placeholders name a
    /// field, optionally piped through a formatter (`duration`: seconds as m:ss or h:mm:ss;
    /// `list`: an array joined with commas; `uppercase`, `lowercase`).
    /// The label collapses when every field it names is missing or empty.
    case format(String)
    /// Styled runs in one paragraph (a bold name, then a regular message).
    case runs([LabelRun])
    /// Styled runs taken from a field holding `[{"text": …, "style": …}]`.
    case styledField(FieldPath)
}

/// One styled stretch of a label's text.
public struct LabelRun: Sendable, Hashable {
    public var content: LabelContent
    public var style: StyleReference

    public init(_ content: LabelContent, style: StyleReference) {
        self.content = content
        self.style = style
    }
}

/// A text style by stylesheet name, or given inline.
public enum StyleReference: Sendable, Hashable, ExpressibleByStringLiteral {
    case named(String)
    case inline(TextStyleSpec)

    public init(stringLiteral value: String) { self = .named(value) }
}

/// How an image's size is found.
public enum ImageSize: Sendable, Hashable {
    /// Always this size.
    case fixed(SizeSpec)
    /// The item's width and height fields, or `fallback` when they are missing.
    case fields(width: FieldPath, height: FieldPath, fallback: SizeSpec?)
}

/// A width and a height, each a ``Length``.
public struct SizeSpec: Sendable, Hashable {
    public var width: Length
    public var height: Length

    public init(width: Length, height: Length) {
        self.width = width
        self.height = height
    }
}
