// The bytes of HTML markup as libxml2's HTML parser classes them.

extension UInt8 {
    /// A blank between the parts of a tag: a space, tab, line feed or carriage return.
    var isHTMLBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }

    /// An ASCII letter, the only start of a start tag.
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }

    /// A byte that may begin a tag's or an attribute's name: a letter, `_`, `:` or `.`.
    var isHTMLNameStart: Bool { isASCIILetter || self == UInt8(ascii: "_") || self == UInt8(ascii: ":") || self == UInt8(ascii: ".") }

    /// A byte of a tag's or an attribute's name: a letter, a digit, `_`, `:`, `.` or `-`.
    var isHTMLNameByte: Bool { isHTMLNameStart || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || self == UInt8(ascii: "-") }
}
