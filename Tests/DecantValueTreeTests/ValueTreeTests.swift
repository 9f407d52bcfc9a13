import DecantTestSupport
import DecantValueTree
import Testing

/// A small tree whose synthesized `Equatable` and `Hashable` (the compiler's, recursive) are the reference the
/// non-recursive walks are checked against.
private indirect enum Reference: Hashable {
    case leaf(Int)
    case float(Double)
    case list([Reference])
    case pairs([Pair])
    case tagged(UInt8, Reference)

    struct Pair: Hashable {
        var key: Reference
        var value: Reference
    }
}

/// The same tree as a `TreeValue`, with `==` and `hash(into:)` from the protocol's walks.
private struct Node: TreeValue, Hashable {
    var reference: Reference

    static func == (lhs: Node, rhs: Node) -> Bool { lhs.treeEquals(rhs) }
    func hash(into hasher: inout Hasher) { hashTree(into: &hasher) }

    func shallowEquals(_ other: Node) -> Bool {
        switch (reference, other.reference) {
        case (.leaf(let one), .leaf(let two)): one == two
        case (.float(let one), .float(let two)): one == two
        case (.list(let one), .list(let two)): one.count == two.count
        case (.pairs(let one), .pairs(let two)): one.count == two.count
        case (.tagged(let one, _), .tagged(let two, _)): one == two
        default: false
        }
    }

    func hashNode(into hasher: inout Hasher) {
        switch reference {
        case .leaf(let value): hasher.combine(0); hasher.combine(value)
        case .float(let value): hasher.combine(1); hasher.combine(value)
        case .list(let items): hasher.combine(2); hasher.combine(items.count)
        case .pairs(let pairs): hasher.combine(3); hasher.combine(pairs.count)
        case .tagged(let tag, _): hasher.combine(4); hasher.combine(tag)
        }
    }

    func appendChildren(to stack: inout [Node]) {
        switch reference {
        case .list(let items): stack.append(contentsOf: items.reversed().map(Node.init))
        case .pairs(let pairs):
            for pair in pairs.reversed() {
                stack.append(Node(reference: pair.value))
                stack.append(Node(reference: pair.key))
            }
        case .tagged(_, let content): stack.append(Node(reference: content))
        default: break
        }
    }
}

/// A random tree of at most `depth` levels over a few leaf values, so that random pairs are often equal.
private func randomTree(_ generator: inout SplitMix64, depth: Int) -> Reference {
    let pick = depth == 0 ? Int(generator.next() % 2) : Int(generator.next() % 5)
    let width = Int(generator.next() % 3)
    switch pick {
    case 0: return .leaf(Int(generator.next() % 3))
    case 1: return .float([0.0, -0.0, .nan, 1.5][Int(generator.next() % 4)])
    case 2: return .list((0..<width).map { _ in randomTree(&generator, depth: depth - 1) })
    case 3:
        return .pairs(
            (0..<width).map { _ in
                Reference.Pair(
                    key: randomTree(&generator, depth: depth - 1), value: randomTree(&generator, depth: depth - 1))
            })
    default: return .tagged(UInt8(generator.next() % 2), randomTree(&generator, depth: depth - 1))
    }
}

@Suite struct TreeValueTests {
    @Test(arguments: [1, 2, 3, 4])
    func equalityAndHashingAgreeWithSynthesizedConformances(seed: UInt64) {
        var generator = SplitMix64(state: seed)
        var equalPairs = 0
        for _ in 0..<2_000 {
            let one = randomTree(&generator, depth: 3)
            let two = randomTree(&generator, depth: 3)
            #expect(Node(reference: one) == Node(reference: two) ? one == two : one != two)
            if one == two {
                equalPairs += 1
                var left = Hasher()
                var right = Hasher()
                Node(reference: one).hash(into: &left)
                Node(reference: two).hash(into: &right)
                #expect(left.finalize() == right.finalize())
            }
        }
        #expect(equalPairs > 0)
    }

    @Test func deepTreesCompareAndHashWithoutRecursion() {
        var deep = Reference.leaf(1)
        var other = Reference.leaf(2)
        for index in 0..<100_000 {
            deep = index.isMultiple(of: 2) ? .list([deep]) : .tagged(0, deep)
            other = index.isMultiple(of: 2) ? .list([other]) : .tagged(0, other)
        }
        do {
            let node = Node(reference: deep)
            #expect(node == Node(reference: deep))
            #expect(node != Node(reference: other))
            var hasher = Hasher()
            node.hash(into: &hasher)
            var again = Hasher()
            Node(reference: deep).hash(into: &again)
            #expect(hasher.finalize() == again.finalize())
        }
        // The synthesized release of a 100,000-level enum recurses: take the trees apart one level at a time.
        dismantle(&deep)
        dismantle(&other)
    }

    private func dismantle(_ tree: inout Reference) {
        while true {
            switch tree {
            case .list(let items) where items.count == 1: tree = items[0]
            case .tagged(_, let content): tree = content
            default: return
            }
        }
    }
}

/// A value that counts the instances alive, so that a test sees the stack release what it holds.
private final class Token: @unchecked Sendable {
    nonisolated(unsafe) static var alive = 0
    let value: Int
    init(_ value: Int) {
        self.value = value
        Token.alive += 1
    }
    deinit { Token.alive -= 1 }
}

/// A map entry of tokens.
private struct Entry: TreeMapEntry {
    var key: Token
    var value: Token
}

@Suite struct ValueStackTests {
    @Test func takesArraysAndPairsInOrderAndReleasesWhatIsLeft() {
        do {
            var stack = ValueStack<Token>()
            for value in 0..<200 { stack.push(Token(value)) }  // grows past the first 64 slots
            #expect(stack.count == 200)
            #expect(stack[150].value == 150)
            #expect(stack.pop().value == 199)
            stack.dropLast()
            stack.replace(at: 0, with: Token(-1))
            #expect(stack[0].value == -1)
            #expect(stack.takeArray(from: 190).map(\.value) == Array(190..<198))
            // Five values from 185: two pairs and a key without its value, which is dropped.
            do {
                let entries: [Entry] = stack.takeEntries(from: 185)
                #expect(entries.map(\.key.value) == [185, 187] && entries.map(\.value.value) == [186, 188])
            }
            #expect(stack.count == 185)
            stack.drop(from: 100)
            #expect(stack.count == 100)
            #expect(Token.alive == 100)
            stack.release()
        }
        #expect(Token.alive == 0)
    }
}

@Suite struct DecoderHelperTests {
    /// A field of decimal text whose integer types all convert through `decodeInteger(_:)`.
    struct Field: IntegerDecodingContainer {
        let text: String
        let codingPath: [any CodingKey]
        func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            guard let number = T(text) else {
                throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: text))
            }
            return number
        }
        func decodeNil() -> Bool { text.isEmpty }
        func decode(_ type: Bool.Type) throws -> Bool { text == "true" }
        func decode(_ type: String.Type) throws -> String { text }
        func decode(_ type: Double.Type) throws -> Double { Double(text) ?? 0 }
        func decode(_ type: Float.Type) throws -> Float { Float(text) ?? 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: text))
        }
    }

    @Test func everyIntegerTypeGoesThroughDecodeInteger() throws {
        let max = Field(text: "18446744073709551615", codingPath: [])
        #expect(try max.decode(UInt64.self) == .max)
        #expect(throws: DecodingError.self) { try max.decode(Int64.self) }
        let small = Field(text: "-128", codingPath: [DecodingKey("a"), DecodingKey(index: 3)])
        #expect(try small.decode(Int8.self) == -128)
        #expect(try small.decode(Int16.self) == -128)
        #expect(try small.decode(Int32.self) == -128)
        #expect(try small.decode(Int.self) == -128)
        #expect(throws: DecodingError.self) { try small.decode(UInt8.self) }
        #expect(throws: DecodingError.self) { try small.decode(UInt.self) }
        #expect(throws: DecodingError.self) { try small.decode(UInt16.self) }
        #expect(throws: DecodingError.self) { try small.decode(UInt32.self) }
    }

    @Test func decodingKeysNameFieldsAndIndices() {
        #expect(DecodingKey("id").stringValue == "id" && DecodingKey("id").intValue == nil)
        #expect(DecodingKey(index: 7).stringValue == "7" && DecodingKey(index: 7).intValue == 7)
        #expect(DecodingKey(stringValue: "x") == DecodingKey("x"))
        #expect(DecodingKey(intValue: 2) == DecodingKey(index: 2))
    }
}
