import DecantCore
import DecantValueTree
import Foundation
import Testing

/// A third format's tree, as small as a tree gets: what ``ValueTreeEncoder`` builds when a format states nothing but
/// its constructors.
private indirect enum Toy: Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([Toy])
    case map([String], [Toy])
    case date(Double)
    case bytes([UInt8])

    /// The tree as the comparable form of a JSON value (numbers as `Double`, maps as dictionaries).
    var plain: Plain {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .number(Double(number))
        case .uint(let number): .number(Double(number))
        case .double(let number), .date(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(\.plain))
        case .map(let keys, let values): .object(Dictionary(uniqueKeysWithValues: zip(keys, values.map(\.plain))))
        case .bytes(let bytes): .array(bytes.map { .number(Double($0)) })
        }
    }
}

private enum ToyFormat: TreeEncodingFormat {
    static let name = "Toy"
    static let maxDepthOption = "ToyEncoder.maxDepth"
    static var null: Toy { .null }
    static func leaf(_ value: Bool) -> Toy { .bool(value) }
    static func leaf(_ value: String) -> Toy { .string(value) }
    static func leaf(_ value: Double) -> Toy { .double(value) }
    static func leaf(_ value: Float) -> Toy { .double(Double(value)) }
    static func leaf(_ value: Int64) -> Toy { .int(value) }
    static func leaf(_ value: UInt64) -> Toy { .uint(value) }
    static func array(_ elements: [Toy]) -> Toy { .array(elements) }
    static func map(_ entries: [(key: String, value: Toy)]) -> Toy { .map(entries.map(\.key), entries.map(\.value)) }
    static func date(_ date: Date) -> Toy { .date(date.timeIntervalSince1970) }
    static func iso8601(_ text: String) -> Toy { .string(text) }
    static func data(_ data: Data) -> Toy { .bytes([UInt8](data)) }
}

/// A JSON value in a form both trees convert to, so that Foundation's `JSONEncoder` can be the reference.
private indirect enum Plain: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Plain])
    case object([String: Plain])

    /// What `JSONSerialization` read (no booleans in the values compared: Foundation reads them as numbers).
    init(json: Any) throws {
        switch json {
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let elements as [Any]: self = .array(try elements.map(Plain.init(json:)))
        case let members as [String: Any]: self = .object(try members.mapValues(Plain.init(json:)))
        case let number as Double: self = .number(number)
        default: throw CocoaError(.coderInvalidValue)
        }
    }
}

/// ``ValueTreeEncoder`` over a format of the test's own, checked against Foundation's `JSONEncoder`.
@Suite struct ValueTreeEncoderTests {
    struct Line: Encodable {
        var sku: String
        var quantity: Int16
        var unitPrice: Double
    }

    struct Order: Encodable {
        var orderID: UInt64
        var customerName: String
        var lines: [Line]
        var note: String?
        var tags: [String?]
        var counts: [String: Int8]
        var matrix: [[Int32]]
    }

    static let order = Order(
        orderID: 4_294_967_301, customerName: "Ada",
        lines: [
            Line(sku: "A-1", quantity: -3, unitPrice: 2.5),
            Line(sku: "B-2", quantity: 7, unitPrice: 0.125),
        ],
        note: nil, tags: ["rush", nil, "gift"], counts: ["apples": 3, "pears": -1],
        matrix: [[1, 2], [], [-2_147_483_648]])

    /// Keyed and unkeyed containers, nesting, `nil` and the key strategy give the tree `JSONEncoder` gives as JSON.
    @Test(arguments: [false, true])
    func matchesJSONEncoder(snakeCase: Bool) throws {
        let engine = ValueTreeEncoder<ToyFormat>(
            maxDepth: 16, keyEncodingStrategy: snakeCase ? .convertToSnakeCase : .useDefaultKeys)
        let reference = JSONEncoder()
        if snakeCase { reference.keyEncodingStrategy = .convertToSnakeCase }
        let json = try JSONSerialization.jsonObject(with: reference.encode(Self.order), options: [.fragmentsAllowed])
        #expect(try engine.encode(Self.order).plain == Plain(json: json))
    }

    /// The tree keeps the keys in the order they were encoded, leaves of the exact integer types, and `nil` in an
    /// array as the format's null.
    @Test func shapeOfTheTree() throws {
        let tree = try ValueTreeEncoder<ToyFormat>(maxDepth: 16).encode(Self.order.lines[0])
        #expect(tree == .map(["sku", "quantity", "unitPrice"], [.string("A-1"), .int(-3), .double(2.5)]))
        #expect(
            try ValueTreeEncoder<ToyFormat>(maxDepth: 16).encode(Self.order.tags)
                == .array([.string("rush"), .null, .string("gift")]))
        #expect(try ValueTreeEncoder<ToyFormat>(maxDepth: 16).encode(true) == .bool(true))
    }

    /// Dates and data take the format's own representations by default, and the strategies' otherwise.
    @Test func dateAndDataStrategies() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        #expect(try ValueTreeEncoder<ToyFormat>(maxDepth: 4).encode(date) == .date(1_700_000_000.5))
        let seconds = ValueTreeEncoder<ToyFormat>(maxDepth: 4, dateEncodingStrategy: .millisecondsSince1970)
        #expect(try seconds.encode(date) == .double(1_700_000_000_500))
        let bytes = Data([0xde, 0xad])
        #expect(try ValueTreeEncoder<ToyFormat>(maxDepth: 4).encode(bytes) == .bytes([0xde, 0xad]))
        let base64 = ValueTreeEncoder<ToyFormat>(maxDepth: 4, dataEncodingStrategy: .base64)
        #expect(try base64.encode(bytes) == .string("3q0="))  // Python: base64.b64encode(b"\xde\xad")
    }

    final class Link: Encodable {
        var next: Link?
        init(next: Link?) { self.next = next }
    }

    /// Past `maxDepth` levels encoding fails with `limitExceeded`, naming the format's option and the path.
    @Test func depthIsBounded() throws {
        func chain(_ count: Int) -> Link {
            var link = Link(next: nil)
            for _ in 1..<count { link = Link(next: link) }
            return link
        }
        let engine = ValueTreeEncoder<ToyFormat>(maxDepth: 5)
        _ = try engine.encode(chain(5))
        let error = #expect(throws: SerializationError.self) { try engine.encode(chain(6)) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.codingPath == Array(repeating: "next", count: 5))
        #expect(error?.message.contains("ToyEncoder.maxDepth") == true)
    }
}
