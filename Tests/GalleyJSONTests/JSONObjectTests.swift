// JSON objects: order kept, repeated names, lookups that must not trust tags alone, the index
// large objects keep, and equality that ignores order. Checked against a Dictionary as reference.

import GalleyJSON
import Testing

@Suite("JSON object")
struct JSONObjectTests {
    @Test("Members keep their order; a repeated name keeps its first place and its last value")
    func order() throws {
        let parsed = try JSONParser.parse(#"{"zeta": 1, "alpha": 2, "mid": 3, "alpha": 4}"#)
        guard case .object(let object) = parsed else {
            Issue.record("not an object: \(parsed)")
            return
        }
        #expect(object.keys == ["zeta", "alpha", "mid"])
        #expect(object.values == [.integer(1), .integer(4), .integer(3)])
        #expect(object["alpha"] == .integer(4))
        #expect(object["missing"] == nil)
        // The writer still sorts, so output does not depend on input order.
        var bytes: [UInt8] = []
        JSONWriter.write(parsed, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"alpha":4,"mid":3,"zeta":1}"#)
    }

    @Test("Names with the same length and the same first and last eight bytes are told apart")
    func sameTagNames() {
        // Twenty bytes: the tag reads only both ends, so these share one; the lookups must not.
        let names = ["abcdefgh1234ijklmnop", "abcdefgh5678ijklmnop", "abcdefgh9999ijklmnop"]
        var object = JSONObject()
        for (index, name) in names.enumerated() { object[name] = .integer(index) }
        for (index, name) in names.enumerated() { #expect(object[name] == .integer(index)) }
        #expect(object["abcdefgh0000ijklmnop"] == nil)
        #expect(object.removeValue(forKey: names[1]) == .integer(1))
        #expect(object[names[0]] == .integer(0) && object[names[1]] == nil && object[names[2]] == .integer(2))
    }

    @Test("Small and indexed objects answer every lookup, set and removal as a dictionary does")
    func againstDictionary() {
        // A fixed pseudo-random walk (a linear congruential sequence) of sets, removals and
        // lookups over names of many lengths, past the size where an object starts keeping an
        // index (about 30 of the 40 names are present at a time).
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let names = (0..<40).map { index in String(repeating: "k", count: index % 19) + "\(index)" }
        var object = JSONObject()
        var reference: [String: JSONValue] = [:]
        for step in 0..<4_000 {
            let name = names[Int(next() % UInt64(names.count))]
            switch next() % 4 {
            case 0:
                #expect(object.removeValue(forKey: name) == reference.removeValue(forKey: name))
            default:
                object[name] = .integer(step)
                reference[name] = .integer(step)
            }
            #expect(object.count == reference.count)
            #expect(object[name] == reference[name])
        }
        #expect(object.dictionary == reference)
        for name in names { #expect(object[name] == reference[name]) }
        #expect(Set(object.keys) == Set(reference.keys))
    }

    @Test("Equality and hashing ignore order")
    func equality() {
        let forward: JSONObject = ["a": 1, "b": [1, 2], "c": ["d": nil]]
        let backward: JSONObject = ["c": ["d": nil], "b": [1, 2], "a": 1]
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward != ["a": 1, "b": [1, 2]])
        #expect(forward != ["a": 2, "b": [1, 2], "c": ["d": nil]])
        var merged = forward
        merged.merge(["a": 5, "e": true]) { old, new in old == 1 ? new : old }
        #expect(merged == ["a": 5, "b": [1, 2], "c": ["d": nil], "e": true])
        #expect(JSONObject(["b": 2, "a": 1]).keys == ["a", "b"])
    }
}
