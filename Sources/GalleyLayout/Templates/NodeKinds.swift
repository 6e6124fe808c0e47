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
        /// How the last line shown ends when the text is longer.
        public var lineBreakMode: LineBreakMode
        /// Where lines sit across the label.
        public var alignment: TextAlignment

        /// A label showing `content` in `style`.
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
        /// Its size: fixed, or from the item's fields.
        public var size: ImageSize
        /// Lower and upper bounds, applied keeping the aspect ratio.
        public var minimum: SizeSpec?
        /// Upper bounds, applied keeping the aspect ratio.
        public var maximum: SizeSpec?

        /// An image of `size`, collapsing when `source` is set and the item lacks it.
        public init(source: FieldPath? = nil, size: ImageSize, minimum: SizeSpec? = nil, maximum: SizeSpec? = nil) {
            self.source = source
            self.size = size
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// Empty space: a fixed length along its stack's axis (and it grows, unless told otherwise).
    public struct Spacer: Sendable, Hashable {
        /// The space along the stack's axis.
        public var length: Length
        /// A spacer of `length`.
        public init(length: Length = .zero) { self.length = length }
    }

    /// Padding around one child. A collapsed child collapses its inset too.
    public struct Inset: Sendable, Hashable {
        /// The padding on each edge.
        public var insets: Insets
        /// The padded node.
        public var child: Node

        /// `child` padded by `insets`.
        public init(_ insets: Insets, child: Node) {
            self.insets = insets
            self.child = child
        }
    }

    /// Children in a row or a column.
    public struct Stack: Sendable, Hashable {
        /// The direction children follow each other.
        public enum Axis: String, Sendable, Hashable, Codable, CaseIterable {
            /// Side by side, or one above the other.
            case horizontal, vertical
        }

        /// Placement across the stack's axis.
        public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable {
            /// At the start (top, or the leading edge), the middle or the end across the axis; or
            /// stretched across it.
            case leading, center, trailing, fill
            /// Horizontal stacks only: the children's first (or last) baselines line up.
            case firstBaseline, lastBaseline
        }

        /// The direction children follow each other.
        public var axis: Axis
        /// Space between visible children.
        public var spacing: Length
        /// Where children sit across the axis.
        public var alignment: Alignment
        /// Horizontal stacks only: children that do not fit start a new row (tags, chips).
        public var wraps: Bool
        /// Space between wrapped rows.
        public var lineSpacing: Length
        /// The children, in order along the axis.
        public var children: [Node]

        /// A stack of `children` along `axis`.
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
            /// A corner, an edge's middle or the centre of the base's frame; or filling it.
            case topLeading, top, topTrailing, leading, center, trailing, bottomLeading, bottom, bottomTrailing, fill
        }

        /// The node that sizes the overlay.
        public var base: Node
        /// The nodes placed over (or under) the base, each within its frame.
        public var layers: [Node]
        /// Where layers sit within the base's frame.
        public var alignment: Alignment
        /// Whether the layers are drawn behind the base (layout is the same either way).
        public var isBackground: Bool

        /// Layers over `base` (under it, when `isBackground`).
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
        public enum Alignment: String, Sendable, Hashable, Codable, CaseIterable {
            /// At the top, the middle or the bottom of the frame.
            case top, center, bottom
        }

        /// Constraints on the width.
        public var width: Dimension
        /// Constraints on the height.
        public var height: Dimension
        /// Width divided by height; with a width known, the height follows.
        public var aspectRatio: Double?
        /// Where the child sits when the frame is taller than it.
        public var alignment: Alignment
        /// The constrained node.
        public var child: Node

        /// Size constraints on `child`.
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
        /// Always this length.
        public var fixed: Length?
        /// Never shorter than this.
        public var minimum: Length?
        /// Never longer than this.
        public var maximum: Length?

        /// Constraints along one axis; all optional.
        public init(fixed: Length? = nil, minimum: Length? = nil, maximum: Length? = nil) {
            self.fixed = fixed
            self.minimum = minimum
            self.maximum = maximum
        }
    }

    /// A child shown only when a field passes a test.
    public struct Conditional: Sendable, Hashable {
        /// How the field's value is tested.
        public enum Test: String, Sendable, Hashable, Codable, CaseIterable {
            /// The field exists and is not null.
            case present
            /// The field exists and is not an empty string, array or object.
            case nonEmpty
            /// The field is `true` (or a non-zero number, or a non-empty string other than "false").
            case isTrue
        }

        /// The field tested.
        public var field: FieldPath
        /// How it is tested.
        public var test: Test
        /// Inverts the test.
        public var negated: Bool
        /// The node shown when the test passes (or fails, when negated).
        public var child: Node

        /// `child`, shown when `field` passes `test` (fails it, when `negated`).
        public init(field: FieldPath, test: Test = .nonEmpty, negated: Bool = false, child: Node) {
            self.field = field
            self.test = test
            self.negated = negated
            self.child = child
        }
    }

    /// A table cell's accessory, taking its width out of the row's content area.
    public struct Accessory: Sendable, Hashable {
        /// The accessories of a table cell, as UIKit names them.
        public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
            /// No accessory (it collapses), or UIKit's chevron, info button, checkmark, or both.
            case none, disclosureIndicator, detailButton, checkmark, detailDisclosureButton
        }

        /// The accessory; when ``field`` is set, the field's value (one of the kinds) wins.
        public var kind: Kind
        /// A field whose value, one of the kinds' names, chooses the accessory per item.
        public var field: FieldPath?

        /// An accessory of `kind`, or of the kind `field` names.
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
    /// The run's text.
    public var content: LabelContent
    /// The run's style.
    public var style: StyleReference

    /// A run of `content` in `style`.
    public init(_ content: LabelContent, style: StyleReference) {
        self.content = content
        self.style = style
    }
}

/// A text style by stylesheet name, or given inline.
public enum StyleReference: Sendable, Hashable, ExpressibleByStringLiteral {
    /// A text style of the stylesheet, by name.
    case named(String)
    /// A text style given in place.
    case inline(TextStyleSpec)

    /// A stylesheet text style by name: `"tableFont"`.
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
    /// The width.
    public var width: Length
    /// The height.
    public var height: Length

    /// A size of `width` by `height`.
    public init(width: Length, height: Length) {
        self.width = width
        self.height = height
    }
}
