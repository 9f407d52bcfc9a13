/// One allowance of decoded bytes shared by everything decoded from one response: the parts of a multipart body, the
/// frames of an animation, the trees of XML parts. Each format's own limits bound one value; the budget bounds
/// their sum, so that a container cannot multiply them (200 parts that each decode to a 64 MB image would otherwise
/// keep 12.8 GB).
///
/// A budget is shared by binding it for the work it covers: everything decoded inside
/// ``withBudget(_:_:)`` charges the same one (``current``). A container such as the multipart serializer binds one
/// around its parts; a serializer that decodes large values (images, XML trees) caps its own byte limits to
/// ``remainingBytes`` before it allocates and charges what it kept afterwards. Where no budget is bound, such a
/// serializer makes its own with the defaults, so one value alone is bounded the same way.
///
/// ```swift
/// let budget = DecodingBudget(maxBytes: 256 << 20)
/// let body = try DecodingBudget.withBudget(budget) {
///     try registry.serialize(response)
/// }
/// print(budget.usedBytes)
/// ```
///
/// Exceeding it throws ``SerializationError/Code/limitExceeded`` naming ``maxBytes``. Thread-safe: parts decoded on
/// several threads may charge one budget.
public final class DecodingBudget: Sendable {
    /// The default of ``maxBytes``: 768 MiB, enough for one 100-megapixel JPEG (its coefficients and RGBA8 pixels)
    /// while keeping a whole response's decoded values under 1 GiB.
    public static let defaultMaxBytes = 768 << 20

    /// The default of ``maxExpansionBytes``: 10,000,000, the XML parser's own default for one document.
    public static let defaultMaxExpansionBytes = 10_000_000

    /// The most bytes the values decoded under this budget may keep in all (pixels, text, tree storage), and the
    /// most any one decoder may allocate while it works.
    public let maxBytes: Int
    /// The most bytes of replacement text that expanding references (XML entities, attribute defaults) may produce
    /// in all, over every document decoded under this budget: work that a few input bytes can multiply.
    public let maxExpansionBytes: Int
    /// The bytes charged, the expansion charged, and whether a charge was refused.
    private struct State {
        var used = 0
        var expanded = 0
        var exhausted = false
    }
    private let state: Locked<State>

    /// Creates a budget of `maxBytes` kept and `maxExpansionBytes` expanded (each at least 0).
    public init(
        maxBytes: Int = DecodingBudget.defaultMaxBytes,
        maxExpansionBytes: Int = DecodingBudget.defaultMaxExpansionBytes
    ) {
        self.maxBytes = max(0, maxBytes)
        self.maxExpansionBytes = max(0, maxExpansionBytes)
        state = Locked(State())
    }

    /// The budget bound to the current task or thread by ``withBudget(_:_:)``, or `nil` outside one.
    @TaskLocal public static var current: DecodingBudget?

    /// Runs `body` with `budget` as ``current``: every value decoded inside charges it.
    public static func withBudget<Value, Failure: Error>(
        _ budget: DecodingBudget, _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        try $current.withValue(budget) { Result { () throws(Failure) in try body() } }.get()
    }

    /// The bytes charged so far.
    public var usedBytes: Int { state.withLock { $0.used } }

    /// The bytes still allowed: ``maxBytes`` minus ``usedBytes``; 0 once a charge was refused.
    public var remainingBytes: Int { state.withLock { $0.exhausted ? 0 : maxBytes - $0.used } }

    /// The expansion charged so far (see ``maxExpansionBytes``).
    public var expandedBytes: Int { state.withLock { $0.expanded } }

    /// The expansion still allowed: ``maxExpansionBytes`` minus ``expandedBytes``; 0 once a charge was refused.
    public var remainingExpansionBytes: Int {
        state.withLock { $0.exhausted ? 0 : maxExpansionBytes - $0.expanded }
    }

    /// Whether a charge was refused: the values decoded under this budget did not fit.
    public var isExhausted: Bool { state.withLock { $0.exhausted } }

    /// Charges `bytes` kept by a decoded value.
    ///
    /// - Parameters:
    ///   - bytes: The bytes kept (a negative count is treated as 0).
    ///   - what: What keeps them, for the message ("the image of part 3").
    /// - Throws: ``SerializationError/Code/limitExceeded`` when the charge would exceed ``maxBytes``; the budget then
    ///   counts as exhausted (``isExhausted``) and refuses every later charge.
    public func charge(_ bytes: Int, for what: @autoclosure () -> String) throws(SerializationError) {
        try charge(bytes, to: \.used, limit: maxBytes, expansion: false, for: what)
    }

    /// Charges `bytes` of replacement text produced by expanding references (see ``maxExpansionBytes``).
    ///
    /// - Throws: ``SerializationError/Code/limitExceeded`` when the charge would exceed ``maxExpansionBytes``; the
    ///   budget then counts as exhausted.
    public func chargeExpansion(_ bytes: Int, for what: @autoclosure () -> String) throws(SerializationError) {
        try charge(bytes, to: \.expanded, limit: maxExpansionBytes, expansion: true, for: what)
    }

    /// The one rule of both charges: add `bytes` (at least 0, saturating) to `counter` unless the budget is already
    /// exhausted or the sum would pass `limit`, which exhausts it and throws the refusal.
    private func charge(
        _ bytes: Int, to counter: WritableKeyPath<State, Int>, limit: Int, expansion: Bool, for what: () -> String
    ) throws(SerializationError) {
        let bytes = max(0, bytes)
        let (total, fits) = state.withLock { state -> (Int, Bool) in
            let (sum, overflow) = state[keyPath: counter].addingReportingOverflow(bytes)
            let total = overflow ? Int.max : sum
            guard !state.exhausted, total <= limit else {
                state.exhausted = true
                return (total, false)
            }
            state[keyPath: counter] = total
            return (total, true)
        }
        guard !fits else { return }
        throw refusal(needing: total, for: what(), expansion: expansion)
    }

    /// Marks the budget exhausted and returns the error that says so: for a decoder that refused work because a
    /// limit capped to this budget (``capping(_:)``, ``cappingExpansion(_:)``) would be exceeded.
    ///
    /// - Parameters:
    ///   - bytes: What the value needs in all, when known (`Int.max` when not).
    ///   - what: What was being decoded ("the image of part 3").
    ///   - expansion: Whether the expansion allowance (``maxExpansionBytes``) was exceeded, not ``maxBytes``.
    public func refusal(needing bytes: Int = Int.max, for what: String, expansion: Bool = false) -> SerializationError {
        state.withLock { $0.exhausted = true }
        let needed = bytes == Int.max ? "more" : "\(bytes) bytes"
        let (verb, limit, option) =
            expansion
            ? ("expand", maxExpansionBytes, "maxExpansionBytes") : ("keep", maxBytes, "maxBytes")
        return SerializationError(
            code: .limitExceeded,
            message: "Decoding \(what) would \(verb) \(needed) in all, past the response's decoding budget of "
                + "\(limit) bytes (DecodingBudget.\(option)), which every value decoded from one response shares "
                + "(multipart parts, animation frames). If the response is trusted, decode it inside "
                + "DecodingBudget.withBudget with a larger budget.")
    }

    /// A decoder's own byte limit `limit` capped to what this budget has left, and whether the budget is the one
    /// that binds (so that a refusal can name the budget rather than the decoder's option).
    public func capping(_ limit: Int) -> (limit: Int, budgetBinds: Bool) {
        let remaining = remainingBytes
        return remaining < limit ? (remaining, true) : (limit, false)
    }

    /// A decoder's own expansion limit `limit` capped to the expansion this budget has left, and whether the budget
    /// is the one that binds.
    public func cappingExpansion(_ limit: Int) -> (limit: Int, budgetBinds: Bool) {
        let remaining = remainingExpansionBytes
        return remaining < limit ? (remaining, true) : (limit, false)
    }
}
