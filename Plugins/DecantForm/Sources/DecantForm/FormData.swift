/// The fields of an `application/x-www-form-urlencoded` body: an ordered list of name-value pairs.
///
/// Order is the body's, and a repeated name is kept as often as it appears (`a=1&a=2` has two pairs), exactly as
/// the WHATWG URL Standard's urlencoded parser returns them. ``subscript(_:)`` gives the first value of a name and
/// ``values(for:)`` all of them.
///
/// ```swift
/// let form = try FormParser().parse(Data("tag=a&tag=b&q=caf%C3%A9+au+lait".utf8))
/// form["q"]              // "café au lait"
/// form.values(for: "tag") // ["a", "b"]
/// form.pairs.count       // 3
/// ```
public struct FormData: Sendable, Hashable {
    /// One field: a name and its value, both already decoded (`+` as space, percent escapes, UTF-8).
    public struct Pair: Sendable, Hashable {
        /// The decoded name.
        public var name: String
        /// The decoded value; empty when the field had no `=`.
        public var value: String

        /// Creates a pair.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in body order, repeated names included.
    public var pairs: [Pair]

    /// Creates form data from pairs, kept in the order given.
    public init(pairs: [Pair] = []) {
        self.pairs = pairs
    }

    /// Creates form data from `(name, value)` tuples, kept in the order given.
    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { Pair(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name`, or `nil` when there is none. Names compare exactly (by Unicode
    /// canonical equivalence, as Swift strings do), case-sensitively.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The values of every field named `name`, in body order; empty when there is none.
    public func values(for name: String) -> [String] {
        pairs.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The distinct names, in order of first appearance.
    public var names: [String] {
        var seen = Set<String>()
        return pairs.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { pairs.isEmpty }
}
