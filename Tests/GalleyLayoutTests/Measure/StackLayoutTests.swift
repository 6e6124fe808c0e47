// Stacks in LayoutKit's manner: boxes of known sizes in a stack, and every frame worked out by
// hand from the rules (spacing between visible children, free space shared by grow factors,
// overflow taken by shrink factors weighted by natural size, limits freezing a child).

import GalleyJSON
import GalleyLayout
import Testing

@Suite("Stacks: spacing, alignment, distribution and flexibility, with exact frames")
struct StackLayoutTests {
    /// A named box `width` × `height` that flexes as `flex` says.
    static func box(_ name: String, _ width: Double, _ height: Double, flex: Node.Flex = Node.Flex()) -> Node {
        .size(width: .init(fixed: .points(width)), height: .init(fixed: .points(height)), .gap(0), name: name, flex: flex)
    }

    /// The frames of `root`'s named nodes in a row `width` wide, and the row's height.
    static func layout(
        _ root: Node, width: Double = 300, fields: JSONObject = [:], direction: LayoutEnvironment.Direction = .leftToRight
    ) throws -> (frames: [String: LayoutRect], height: Double) {
        let row = try CompiledTemplate(Template(name: "t", root: root)).measure(
            Fixture.item("t", fields), width: width, environment: Fixture.environment(scale: 1, direction: direction))
        return (row.arranged().frames, row.height)
    }

    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> LayoutRect {
        LayoutRect(x: x, y: y, width: width, height: height)
    }

    @Test("Spacing goes between visible children only; a collapsed child takes neither room nor spacing")
    func spacing() throws {
        let boxes = [Self.box("a", 40, 20), Self.box("b", 60, 30), Self.box("c", 20, 10)]
        let (frames, height) = try Self.layout(.hstack(spacing: 10, alignment: .leading, boxes))
        #expect(frames["a"] == Self.rect(0, 0, 40, 20))
        #expect(frames["b"] == Self.rect(50, 0, 60, 30))
        #expect(frames["c"] == Self.rect(120, 0, 20, 10))
        #expect(height == 30)

        let hidden = [Self.box("a", 40, 20), .when("shown", Self.box("b", 60, 30)), Self.box("c", 20, 10)]
        let (collapsed, shortHeight) = try Self.layout(.hstack(spacing: 10, alignment: .leading, hidden))
        #expect(collapsed["b"] == .zero)
        #expect(collapsed["c"] == Self.rect(50, 0, 20, 10))
        #expect(shortHeight == 20)

        let (column, columnHeight) = try Self.layout(.vstack(spacing: 8, alignment: .leading, boxes))
        #expect(column["a"] == Self.rect(0, 0, 40, 20))
        #expect(column["b"] == Self.rect(0, 28, 60, 30))
        #expect(column["c"] == Self.rect(0, 66, 20, 10))
        #expect(columnHeight == 76)
    }

    @Test(
        "Alignment across the axis: leading, centre, trailing, fill",
        arguments: [
            (Node.Stack.Alignment.leading, [0.0, 0, 0], [20.0, 30, 10]),
            (.center, [5.0, 0, 10], [20.0, 30, 10]),
            (.trailing, [10.0, 0, 20], [20.0, 30, 10]),
            (.fill, [0.0, 0, 0], [30.0, 30, 30]),
        ])
    func alignment(_ alignment: Node.Stack.Alignment, ys: [Double], heights: [Double]) throws {
        let boxes = [Self.box("a", 40, 20), Self.box("b", 60, 30), Self.box("c", 20, 10)]
        let (frames, _) = try Self.layout(.hstack(spacing: 10, alignment: alignment, boxes))
        for (index, name) in ["a", "b", "c"].enumerated() {
            #expect(frames[name]?.y == ys[index], "\(alignment) \(name)")
            #expect(frames[name]?.height == heights[index], "\(alignment) \(name)")
        }
        // A vertical stack aligns across its width: a filling one is as wide as the row and gives
        // every child that width; any other is as wide as its widest child (60), and aligns in that.
        let (column, _) = try Self.layout(.vstack(alignment: alignment, boxes))
        let expectedX: [Double] =
            switch alignment {
            case .center: [10, 0, 20]
            case .trailing: [20, 0, 40]
            default: [0, 0, 0]
            }
        for (index, name) in ["a", "b", "c"].enumerated() {
            #expect(column[name]?.x == expectedX[index], "\(alignment) \(name)")
            #expect(column[name]?.width == (alignment == .fill ? 300 : [40, 60, 20][index]), "\(alignment) \(name)")
        }
    }

    @Test("Free space is shared by grow factors; a child stopped at its maximum gives the rest to the others")
    func distribution() throws {
        // 300 - 40 - 60 = 200 free, shared 1 : 3.
        let (shared, _) = try Self.layout(
            .hstack(alignment: .leading, [Self.box("a", 40, 20, flex: .init(grow: 1)), Self.box("b", 60, 30, flex: .init(grow: 3))]))
        #expect(shared["a"] == Self.rect(0, 0, 90, 20))
        #expect(shared["b"] == Self.rect(90, 0, 210, 30))

        // Half each would take a to 140, past its 60: it stops there, and b takes the 180 left.
        let (capped, _) = try Self.layout(
            .hstack(
                alignment: .leading,
                [
                    Self.box("a", 40, 20, flex: .init(grow: 1, maximum: 60)), Self.box("b", 60, 30, flex: .init(grow: 1)),
                ]))
        #expect(capped["a"] == Self.rect(0, 0, 60, 20))
        #expect(capped["b"] == Self.rect(60, 0, 240, 30))

        // A flexible space between two boxes pushes the second to the trailing edge, spacing kept.
        let (pushed, _) = try Self.layout(
            .hstack(spacing: 10, alignment: .leading, [Self.box("a", 40, 20), .flexibleSpace, Self.box("b", 60, 30)]))
        #expect(pushed["a"] == Self.rect(0, 0, 40, 20))
        #expect(pushed["b"] == Self.rect(240, 0, 60, 30))

        // Nothing grows: the children keep their sizes and the stack its natural width.
        let (rigid, _) = try Self.layout(.hstack(alignment: .leading, [Self.box("a", 40, 20), Self.box("b", 60, 30)]))
        #expect(rigid["b"] == Self.rect(40, 0, 60, 30))
    }

    @Test("An overflow is taken by shrink factors weighted by natural size, never below a child's minimum")
    func flexibility() throws {
        // 80 + 120 in 100: 100 to take, 80 : 120 of it.
        let (weighted, _) = try Self.layout(
            .hstack(
                alignment: .leading,
                [
                    Self.box("a", 80, 20, flex: .init(shrink: 1)), Self.box("b", 120, 30, flex: .init(shrink: 1)),
                ]),
            width: 100)
        #expect(weighted["a"] == Self.rect(0, 0, 40, 20))
        #expect(weighted["b"] == Self.rect(40, 0, 60, 30))

        // a would go to 40, below its 60: it stops there and b gives up the other 40.
        let (floored, _) = try Self.layout(
            .hstack(
                alignment: .leading,
                [
                    Self.box("a", 80, 20, flex: .init(shrink: 1, minimum: 60)), Self.box("b", 120, 30, flex: .init(shrink: 1)),
                ]),
            width: 100)
        #expect(floored["a"] == Self.rect(0, 0, 60, 20))
        #expect(floored["b"] == Self.rect(60, 0, 40, 30))

        // A rigid child keeps its size; the shrinking one takes the whole overflow, spacing kept.
        let (rigid, _) = try Self.layout(
            .hstack(spacing: 10, alignment: .leading, [Self.box("a", 80, 20), Self.box("b", 120, 30, flex: .init(shrink: 1))]),
            width: 150)
        #expect(rigid["a"] == Self.rect(0, 0, 80, 20))
        #expect(rigid["b"] == Self.rect(90, 0, 60, 30))
    }

    @Test("A vertical stack offered a height shares it by grow factors")
    func verticalDistribution() throws {
        // 200 - 20 - 30 - 2 × 10 spacing = 130 for the space.
        let column = Node.vstack(spacing: 10, [Self.box("a", 40, 20), .flexibleSpace, Self.box("b", 60, 30)])
        let (frames, height) = try Self.layout(.size(height: .init(fixed: 200), alignment: .top, column))
        #expect(frames["a"] == Self.rect(0, 0, 300, 20))
        #expect(frames["b"] == Self.rect(0, 170, 300, 30))
        #expect(height == 200)
    }

    @Test("A right-to-left row mirrors a stack's frames within the row")
    func mirrored() throws {
        let boxes = [Self.box("a", 40, 20), Self.box("b", 60, 30, flex: .init(grow: 1))]
        let (frames, _) = try Self.layout(.hstack(spacing: 10, alignment: .leading, boxes), direction: .rightToLeft)
        #expect(frames["a"] == Self.rect(260, 0, 40, 20))
        #expect(frames["b"] == Self.rect(0, 0, 250, 30))
    }
}
