/// A value of a format's value tree (a CBOR or MessagePack item): a leaf, or a container whose children are values
/// of the same type. Conforming gives the type equality and hashing that walk the tree with an explicit stack instead
/// of recursion, so that values nested thousands of levels deep compare and hash on any thread's stack.
///
/// The type states only what one node is: ``shallowEquals(_:)``, ``hashNode(into:)`` and ``appendChildren(to:)``.
/// Its `==` and `hash(into:)` call ``treeEquals(_:)`` and ``hashTree(into:)``:
///
/// ```swift
/// extension CBORValue: Hashable {
///     public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool { lhs.treeEquals(rhs) }
///     public func hash(into hasher: inout Hasher) { hashTree(into: &hasher) }
/// }
/// ```
///
/// The semantics are structural, as synthesized conformances would be, when ``shallowEquals(_:)`` compares the
/// case and payload of a leaf, and the case, the number of children and any payload of a container (a tag number).
public protocol TreeValue {
    /// Whether two values are equal apart from their children: equal leaves, or containers of the same kind, with the
    /// same payload and the same number of children. When it is `true`, ``appendChildren(to:)`` appends as many
    /// values for one as for the other.
    func shallowEquals(_ other: Self) -> Bool

    /// Feeds the value's case and payload into `hasher` (for a container: its kind and number of children), but not
    /// its children. Values that ``shallowEquals(_:)`` must feed the same.
    func hashNode(into hasher: inout Hasher)

    /// Appends the value's children to `stack` in reverse order (the last child first), so that popping the stack
    /// visits them in order: an array's elements; a map's keys and values alternating; a tag's content. Appends
    /// nothing for a leaf.
    func appendChildren(to stack: inout [Self])
}

extension TreeValue {
    /// Whether `self` and `other` are the same tree: every node, in order, ``shallowEquals(_:)`` its counterpart.
    /// Linear in the size of the smaller tree; uses no recursion.
    @inlinable
    public func treeEquals(_ other: Self) -> Bool {
        guard shallowEquals(other) else { return false }
        var left: [Self] = []
        var right: [Self] = []
        appendChildren(to: &left)
        other.appendChildren(to: &right)
        while let one = left.popLast(), let two = right.popLast() {
            guard one.shallowEquals(two) else { return false }
            one.appendChildren(to: &left)
            two.appendChildren(to: &right)
        }
        return left.isEmpty && right.isEmpty
    }

    /// Feeds every node of the tree into `hasher` in order (``hashNode(into:)``). Uses no recursion.
    @inlinable
    public func hashTree(into hasher: inout Hasher) {
        var pending: [Self] = [self]
        while let value = pending.popLast() {
            value.hashNode(into: &hasher)
            value.appendChildren(to: &pending)
        }
    }
}

/// An entry of a map in a value tree: a key and a value, both values of the tree (`CBORValue.MapEntry`,
/// `MessagePackValue.Entry`).
public protocol TreeMapEntry<Value> {
    /// The type of the tree's values.
    associatedtype Value
    /// The key.
    var key: Value { get }
    /// The value.
    var value: Value { get }
    /// Creates an entry.
    init(key: Value, value: Value)
}

extension Array {
    /// Appends the keys and values of a map's `entries` alternating, last first, so that popping the array visits
    /// them in order: what ``TreeValue/appendChildren(to:)`` appends for a map.
    @inlinable
    public mutating func appendChildren<Entry: TreeMapEntry>(of entries: [Entry]) where Entry.Value == Element {
        for entry in entries.reversed() {
            append(entry.value)
            append(entry.key)
        }
    }
}
